import Foundation
import XCTest

/// A document of 1 MB or more opens with its first surveys and loads the rest behind them
/// (how far it is, and what is refused meanwhile, is the UI core's to test: here the timing is
/// the machine's). The real binary must end with every survey, in order, and never write the
/// file just for opening it; a file damaged near its end ends unreadable, untouched.
final class LargeDocumentTests: EndToEndTestCase {
    /// 20,000 surveys in survey's own layout, about 4.4 MB.
    private func writeLargeDocument(_ name: String, damagedNearTheEnd: Bool = false) throws -> Data {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
            + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<array>\n"
        for i in 1...20_000 {
            if damagedNearTheEnd, i == 19_000 { text += "\t<dict><key>firstName</key><oops/></dict>\n" }
            text += "\t<dict>\n\t\t<key>address</key>\n\t\t<string>\(i) Long Street, Some Town, Some Region, 12345</string>\n"
                + "\t\t<key>age</key>\n\t\t<integer>\(20 + i % 70)</integer>\n"
                + "\t\t<key>firstName</key>\n\t\t<string>Person\(i)</string>\n"
                + "\t\t<key>lastName</key>\n\t\t<string>Family\(i)</string>\n"
                + "\t\t<key>notes</key>\n\t\t<string>\(String(repeating: "observed on the first visit; ", count: 3))</string>\n"
                + "\t\t<key>phone</key>\n\t\t<string>555-\(i)</string>\n\t</dict>\n"
        }
        text += "</array>\n</plist>\n"
        let data = Data(text.utf8)
        XCTAssertGreaterThan(data.count, 1 << 20, "large enough to be streamed")
        try data.write(to: documentURL(name))
        return data
    }

    func testALargeDocumentEndsWithEverySurveyInOrderAndTheFileUntouched() throws {
        let original = try writeLargeDocument("Big")
        let app = try launch()
        app.waitFor("Family1, Person1")
        app.waitFor("Surveys (20000)")   // no "…": every survey is in
        try app.press("End")
        app.waitFor("20000 of 20000", "Family20000, Person20000")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
        XCTAssertEqual(try Data(contentsOf: documentURL("Big")), original, "opening and browsing write nothing")
    }

    func testALargeDocumentDamagedNearItsEndEndsUnreadableAndUntouched() throws {
        let original = try writeLargeDocument("Big", damagedNearTheEnd: true)
        let app = try launch()
        // The damage is found near the end, then Foundation's decoder reads the whole file
        // for its own message: 10 to 15 s in a debug build on a busy machine.
        app.waitFor("Cannot read Big.plist", timeout: 60)
        try app.press("Enter", "x", "Enter", "C-q")
        XCTAssertEqual(app.waitForExit(), 0)
        XCTAssertEqual(try Data(contentsOf: documentURL("Big")), original, "never written")
        XCTAssertFalse(try folderContents().contains(".Big.journal"))
    }
}
