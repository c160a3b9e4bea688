import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Issue 30: the form's heading says where the highlighted question is among nested rosters,
/// `Tree › 2 of 2 (“102”) › Stems of tree 102 › 1 of 2`, at every size, the outer rosters
/// giving way first when the pane is narrow; nothing outside a roster.
final class BreadcrumbTests: XCTestCase {
    private let biomass = """
    survey,,,,
    ,type,name,label,repeat_count
    ,text,plot,Plot,
    ,begin repeat,tree,Tree,
    ,integer,tag,Tag,
    ,integer,stem_count,Stems,
    ,begin repeat,stem,Stems of tree ${tag},${stem_count}
    ,integer,cbh,Circumference,
    ,end repeat,,,
    ,end repeat,,,
    ,text,done,Done,
    settings,,,,
    ,form_title,,,
    ,Biomass,,,
    """

    private func state(width: Int, height: Int) throws -> AppState {
        try formState(csv: biomass, width: width, height: height)
    }

    /// Plot P1; tree 101 with one stem; tree 102 with two, the keyer on the second's first
    /// stem, its circumference being typed.
    private func keyed(width: Int, height: Int) throws -> AppState {
        var s = try state(width: width, height: height)
        s.press(.enter); s.type("P1"); s.press(.enter)
        s.press(.character("y"))                          // Add a Tree? y
        s.type("101"); s.press(.enter); s.type("1"); s.press(.enter)
        s.type("30"); s.press(.enter)
        s.press(.character("y"))                          // Add another Tree? y
        s.type("102"); s.press(.enter); s.type("2"); s.press(.enter)
        return s
    }

    private func headingLine(_ s: AppState) -> String {
        let line = Screen.render(s).lines.first { $0.contains("New survey") || $0.contains("›") } ?? ""
        return (line.components(separatedBy: "│").last ?? line).trimmingCharacters(in: .whitespaces)
    }

    func testTheHeadingNamesEveryRosterAndMemberAroundTheQuestion() throws {
        var s = try keyed(width: 120, height: 40)
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "cbh")
        XCTAssertEqual(headingLine(s), "New survey · Tree › 2 of 2 (“102”) › Stems of tree 102 › 1 of 2")
        s.type("40"); s.press(.enter)
        XCTAssertTrue(headingLine(s).hasSuffix("Stems of tree 102 › 2 of 2"), headingLine(s))
        s.type("41"); s.press(.enter)
        s.press(.character("n"))                          // no more trees: out of the rosters
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "done")
        XCTAssertEqual(headingLine(s), "New survey · Biomass", "outside a roster: the form's title again")
    }

    /// Narrow, the member shown stays and the outer rosters give way to "…"; collapsed at
    /// 60x20 and 40x12 the heading still says it.
    func testNarrowPanesKeepTheInnermostMember() throws {
        for (width, height) in [(60, 20), (40, 12)] {
            let s = try keyed(width: width, height: height)
            let line = headingLine(s)
            XCTAssertTrue(line.contains("1 of 2"), "\(width)x\(height): \(line)\n" + Screen.render(s).lines.joined(separator: "\n"))
            XCTAssertTrue(line.hasSuffix("› 1 of 2"), "\(width)x\(height): \(line)")
        }
        let pane = FormPane(heading: "Survey 3 of 10", breadcrumb: ["Tree", "2 of 3 (“102”)", "Stems", "3 of 3"], rows: [], scroll: 0,
                            highlight: nil, editing: nil, problems: [:], fields: [], answer: { _ in ("", false) })
        XCTAssertEqual(pane.headingText(width: 80), "Survey 3 of 10 · Tree › 2 of 3 (“102”) › Stems › 3 of 3")
        XCTAssertEqual(pane.headingText(width: 40), "Tree › 2 of 3 (“102”) › Stems › 3 of 3")
        XCTAssertEqual(pane.headingText(width: 20), "… › Stems › 3 of 3")
        let long = FormPane(heading: "New survey", breadcrumb: ["Trees", "1 of 2", "Stems of the tree with tag 101", "2 of 2"], rows: [],
                            scroll: 0, highlight: nil, editing: nil, problems: [:], fields: [], answer: { _ in ("", false) })
        XCTAssertEqual(long.headingText(width: 24), "… › 2 of 2", "the member shown, not the roster's name cut before it")
    }
}
