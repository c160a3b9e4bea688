import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The small XML reader behind .xlsx parts: tags, attributes, text, the predefined entities,
/// and nothing that could expand (no DTD entities).
final class XMLTagScannerTests: XCTestCase {
    func testTagsAttributesTextAndEntities() {
        let xml = #"""
        <?xml version="1.0"?><!DOCTYPE x [<!ENTITY boom "aaaa">]><!-- note -->
        <x:sheet name='A &amp; B' r:id="rId1"/><si><t xml:space="preserve"> 5 &lt; 6 &#233;&#x1F600; &boom;</t></si><v><![CDATA[<raw>]]></v>
        """#
        let events = XMLTagScanner.events(Array(xml.utf8)).filter {
            if case .text(let t) = $0 { return !t.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            return true
        }
        XCTAssertEqual(events, [
            .start(name: "sheet", attributes: ["name": "A & B", "r:id": "rId1"], selfClosing: true),
            .end(name: "sheet"),
            .start(name: "si", attributes: [:], selfClosing: false),
            .start(name: "t", attributes: ["xml:space": "preserve"], selfClosing: false),
            .text(" 5 < 6 é😀 &boom;"),
            .end(name: "t"),
            .end(name: "si"),
            .start(name: "v", attributes: [:], selfClosing: false),
            .text("<raw>"),
            .end(name: "v"),
        ])
    }
}
