import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Shared helpers: fixture location, throw-away folders and a python3 runner.
enum TestSupport {
    static func fixtureURL(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)")
    }

    static func fixtureData(_ name: String) throws -> Data {
        try Data(contentsOf: fixtureURL(name))
    }

    /// Runs `python3 -c script args...`; returns stdout, failing the test on a non-zero exit.
    static func python(_ script: String, _ arguments: [String] = [],
                       file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let outcome = try ChildProcess.run(["python3", "-c", script] + arguments)
        XCTAssertEqual(outcome.status, 0, "python3 failed: \(outcome.errors)", file: file, line: line)
        return outcome.output
    }
}

/// A fresh folder under the system temporary directory, removed by `tearDown`.
class TemporaryFolderTestCase: XCTestCase {
    private(set) var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("survey-model-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let folder {
            try? FileManager.default.removeItem(at: folder)
        }
        try super.tearDownWithError()
    }

    var store: DocumentStore { DocumentStore(folder: folder) }

    func folderContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    func permissions(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

extension Record {
    /// A record with the five standard fields as strings and an integer age.
    static func sample(first: String = "Ana", last: String = "Lima", address: String = "Rua 1",
                       phone: String = "555", age: Int? = 30) -> Record {
        var values: [String: PropertyValue] = [
            "firstName": .string(first), "lastName": .string(last),
            "address": .string(address), "phone": .string(phone),
        ]
        if let age { values["age"] = .integer(age) }
        return Record(values)
    }
}

/// Every plist type, nested, for "unknown keys survive" tests.
let everyTypeValues: [String: PropertyValue] = [
    "uString": .string("héllo 🏙️"),
    "uInteger": .integer(-42),
    "uBigInteger": .integer(Int.max),
    "uReal": .real(2.5),
    "uWholeReal": .real(3),
    "uTrue": .bool(true),
    "uFalse": .bool(false),
    "uZero": .integer(0),
    "uOne": .integer(1),
    "uDate": .date(Date(timeIntervalSince1970: 1_700_000_000)),
    "uData": .data(Data([0, 1, 2, 255])),
    "uEmptyData": .data(Data()),
    "uArray": .array([.string("a"), .integer(1), .array([]), .dictionary([:])]),
    "uDict": .dictionary(["inner": .dictionary(["deep": .array([.bool(false), .real(0.1)])])]),
]

extension Record {
    /// The survey's title under the original five (`Questionnaire.standard.title(of:)`, the
    /// one title rule): "Last, First", for tests that state five-field surveys by name.
    var listTitle: String { Questionnaire.standard.title(of: self) }
    func listTitle(limit: Int?) -> String { Questionnaire.standard.title(of: self, limit: limit) }
}
