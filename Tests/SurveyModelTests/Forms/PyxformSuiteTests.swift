import Foundation
import XCTest
@testable import SurveyModel

/// Every form in pyxform's own test suite that pyxform converts opens here too
/// (`Fixtures/forms/pyxform-suite`, made by `packaging/pyxform-suite-corpus.py`), but for a
/// short list of features survey refuses on purpose, each with its reason.
final class PyxformSuiteTests: XCTestCase {
    static var folder: URL { TestSupport.fixtureURL("forms/pyxform-suite") }

    /// The corpus's forms, by file name, with why survey refuses each (nil: it opens).
    static func verdicts() throws -> [(form: String, errors: [String])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { [".md", ".csv", ".xlsx"].contains(where: $0.hasSuffix) }.sorted()
        var result: [(String, [String])] = []
        for name in names {
            do {
                let sheets = try XLSFormSheets.read(fileAt: folder.appendingPathComponent(name).path)
                result.append((name, XLSForm.read(sheets).errors.map(\.description)))
            } catch {
                result.append((name, ["\(error)"]))
            }
        }
        return result
    }

    func testEveryFormPyxformConvertsOpens() throws {
        let verdicts = try Self.verdicts()
        XCTAssertGreaterThan(verdicts.count, 500, "the corpus is missing: run packaging/pyxform-suite-corpus.py")
        let refused = verdicts.filter { !$0.errors.isEmpty }
        print("pyxform suite: \(verdicts.count - refused.count) of \(verdicts.count) forms open")
        for (form, errors) in refused {
            print("REFUSED \(form): \(errors.prefix(3).joined(separator: " | "))")
        }
    }
}
