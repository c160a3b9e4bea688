import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Rosters in the file: plistlib writes a survey with nested repeats, survey reads it,
/// changes it through answer paths and saves it (whole, and through the journal), and
/// plistlib reads back exactly the nesting it wrote, with survey's changes.
final class RepeatAnswersFileTests: TemporaryFolderTestCase {
    private let pythonWriter = #"""
        import plistlib, sys
        surveys = [
            {"village": "Riverside", "size": 2, "instanceID": "uuid:7f9e7a52-1d3b-4c4e-9a57-2b1f0e6c0d11",
             "member": [
                {"name": "Ana", "age": 34, "plot": [{"area": 1.5}, {"area": 0.25, "crop": "maize beans"}]},
                {"name": "Bo", "health": "good"},
             ]},
            {"village": "Hilltop", "member": [{}]},
        ]
        with open(sys.argv[1], "wb") as f:
            plistlib.dump(surveys, f, fmt=plistlib.FMT_XML)
        """#

    private func plistlibReads(_ url: URL) throws -> PropertyValue {
        try PlistlibScripts.decodeTagged(try TestSupport.python(PlistlibScripts.readAsTaggedJSON, [url.path]))
    }

    func testNestedAnswersRoundTripThroughTheFileUnchangedAndChanged() throws {
        let url = store.url(for: "Roster")
        _ = try TestSupport.python(pythonWriter, [url.path])
        let written = try plistlibReads(url)
        var document = try store.load("Roster").get()
        XCTAssertEqual(document.records[0].value(at: AnswerPath([.init(name: "member", index: 0), .init(name: "plot", index: 1)], "crop")),
                       .string("maize beans"))
        XCTAssertEqual(document.records[1].instances(of: "member"), [[:]], "an instance with no answers yet is kept")

        // Saved untouched: plistlib reads what it wrote.
        try store.save(document, as: "Roster")
        XCTAssertEqual(try plistlibReads(url), written)

        // Changed by path: a third plot for Ana, Bo moved first, Hilltop's empty member deleted.
        let ana = [AnswerPath.Step(name: "member", index: 0)]
        let plot = try XCTUnwrap(document.records[0].insertInstance(of: "plot", in: ana))
        XCTAssertTrue(document.records[0].setValue(.real(2), at: AnswerPath(ana + [.init(name: "plot", index: plot)], "area")))
        XCTAssertTrue(document.records[0].moveInstance(of: "member", from: 1, to: 0))
        XCTAssertNotNil(document.records[1].removeInstance(at: [.init(name: "member", index: 0)]))
        try store.save(document, as: "Roster")
        guard case .array(let surveys) = try plistlibReads(url), case .dictionary(let first) = surveys[0],
              case .dictionary(let second) = surveys[1] else { return XCTFail("not two surveys") }
        XCTAssertEqual(first["member"], .array([
            .dictionary(["name": .string("Bo"), "health": .string("good")]),
            .dictionary(["name": .string("Ana"), "age": .integer(34), "plot": .array([
                .dictionary(["area": .real(1.5)]), .dictionary(["area": .real(0.25), "crop": .string("maize beans")]),
                .dictionary(["area": .real(2)]),
            ])]),
        ]))
        XCTAssertEqual(second, ["village": .string("Hilltop")])
    }

    func testTheJournalKeepsNestedAnswersExactly() throws {
        let url = store.url(for: "Roster")
        _ = try TestSupport.python(pythonWriter, [url.path])
        let document = try store.load("Roster").get()
        let journalURL = folder.appendingPathComponent(".Roster.journal")
        let journal = try XCTUnwrap(try DocumentJournal.open(at: journalURL, in: .live))
        try journal.append([.put(index: 0, record: document.records[0])])
        XCTAssertEqual(DocumentJournal.entries(at: journalURL), [.put(index: 0, record: document.records[0])])
    }
}
