import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Repeats within repeats (a forest plot's trees, each tree's stems): `position(..)` and
/// `position(../..)`, node-sets narrowed to the instance a rule is in (`sum(${basal})` in a
/// tree is that tree's stems, in a plot that plot's, at the top every stem), and
/// `indexed-repeat` with the levels it names and those it leaves to where it is evaluated.
final class NestedRepeatRulesTests: XCTestCase {
    private let clock = FormTestSupport.clock

    static let form = """
    survey,,,,
    ,type,name,label,calculation
    ,begin repeat,plot,Plot,
    ,decimal,plot_area,Area,
    ,begin repeat,tree,Tree,
    ,text,species,Species,
    ,begin repeat,stem,Stem,
    ,decimal,diameter,Diameter,
    ,calculate,stem_no,,position(..)
    ,calculate,tree_no,,position(../..)
    ,calculate,basal,,${diameter} * ${diameter}
    ,calculate,label,,"concat(${species}, '-', position(..))"
    ,end repeat,,,
    ,calculate,stems,,count(${stem})
    ,calculate,tree_basal,,sum(${basal})
    ,end repeat,,,
    ,calculate,plot_basal,,sum(${basal})
    ,calculate,first_species,,"indexed-repeat(${species}, ${tree}, 1)"
    ,calculate,first_stem,,"indexed-repeat(${diameter}, ${tree}, 2, ${stem}, 1)"
    ,end repeat,,,
    ,calculate,all_stems,,count(${stem})
    ,calculate,all_basal,,sum(${basal})
    ,calculate,widest,,max(${diameter})
    ,calculate,picked,,"indexed-repeat(${species}, ${plot}, 2, ${tree}, 1)"
    ,calculate,species_list,,"join(' ', ${species})"
    """

    private func stems(_ diameters: [Double]) -> PropertyValue {
        .array(diameters.map { .dictionary(["diameter": .real($0)]) })
    }

    private var forest: Record {
        Record(["plot": .array([
            .dictionary(["plot_area": .real(100), "tree": .array([
                .dictionary(["species": .string("oak"), "stem": stems([1, 2])]),
                .dictionary(["species": .string("ash"), "stem": stems([3])]),
            ])]),
            .dictionary(["plot_area": .real(50), "tree": .array([
                .dictionary(["species": .string("elm"), "stem": stems([4, 5, 6])]),
            ])]),
        ])])
    }

    private func steps(_ pairs: (String, Int)...) -> [AnswerPath.Step] { pairs.map { AnswerPath.Step(name: $0.0, index: $0.1) } }

    func testEachLevelSeesItsOwnInstancesAndThoseInside() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var hidden: [String: PropertyValue] = [:]
        let settled = q.settled(forest, hidden: &hidden, clock: clock)
        func at(_ s: [AnswerPath.Step], _ name: String) -> PropertyValue? { settled.value(at: AnswerPath(s, name)) }
        XCTAssertEqual(at(steps(("plot", 0), ("tree", 1), ("stem", 0)), "stem_no"), .string("1"))
        XCTAssertEqual(at(steps(("plot", 1), ("tree", 0), ("stem", 2)), "stem_no"), .string("3"))
        XCTAssertEqual(at(steps(("plot", 0), ("tree", 1), ("stem", 0)), "tree_no"), .string("2"))
        XCTAssertEqual(at(steps(("plot", 1), ("tree", 0), ("stem", 1)), "label"), .string("elm-2"), "the tree's species, read from a stem")
        XCTAssertEqual(at(steps(("plot", 0), ("tree", 0)), "stems"), .string("2"))
        XCTAssertEqual(at(steps(("plot", 0), ("tree", 0)), "tree_basal"), .string("5"))
        XCTAssertEqual(at(steps(("plot", 0)), "plot_basal"), .string("14"))
        XCTAssertEqual(at(steps(("plot", 1)), "plot_basal"), .string("77"))
        XCTAssertEqual(at(steps(("plot", 1)), "first_species"), .string("elm"), "its own plot's first tree")
        XCTAssertEqual(at(steps(("plot", 0)), "first_stem"), .string("3"), "tree 2, stem 1 of this plot")
        XCTAssertNil(at(steps(("plot", 1)), "first_stem"), "this plot has one tree")
        XCTAssertEqual(settled["all_stems"], .string("6"))
        XCTAssertEqual(settled["all_basal"], .string("91"))
        XCTAssertEqual(settled["widest"], .string("6"))
        XCTAssertEqual(settled["picked"], .string("elm"))
        XCTAssertEqual(settled["species_list"], .string("oak ash elm"))
    }

    /// A stem added in one tree: that tree's count, its plot's and the survey's totals follow,
    /// and the other plot is not evaluated again.
    func testAStemAddedReachesItsTreeItsPlotAndTheTop() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var hidden: [String: PropertyValue] = [:]
        let first = q.settled(forest, hidden: &hidden, clock: clock)
        var edited = first
        let tree = steps(("plot", 0), ("tree", 1))
        let index = try XCTUnwrap(edited.insertInstance(of: "stem", in: tree, answers: ["diameter": .real(10)]))
        let settled = q.settled(edited, before: first, hidden: &hidden, clock: clock)
        XCTAssertEqual(settled.value(at: AnswerPath(tree, "stems")), .string("2"))
        XCTAssertEqual(settled.value(at: AnswerPath(tree + [AnswerPath.Step(name: "stem", index: index)], "stem_no")), .string("2"))
        XCTAssertEqual(settled.value(at: AnswerPath(steps(("plot", 0)), "plot_basal")), .string("114"))
        XCTAssertEqual(settled["all_stems"], .string("7"))
        XCTAssertEqual(settled["widest"], .string("10"))
        // Told where the change is (the stems of that tree), settling compares only there.
        XCTAssertEqual(q.settled(edited, changedAt: AnswerPath(tree, "stem"), before: first, hidden: &hidden, clock: clock), settled)

        let graph = try XCTUnwrap(q.dependencies)
        let outline = try XCTUnwrap(q.outline?.value)
        // Built once, with the questionnaire, and shared by every instance's questionnaire.
        XCTAssertTrue(q.scopeQuestionnaire(tree).outline?.value === outline)
        XCTAssertEqual(q.scopeQuestionnaire(tree).fields.map(\.key), ["species", "stem", "stems", "tree_basal"])
        let stemRow = try XCTUnwrap(outline.byName["stem"]?.first)
        let reached = graph.affected(by: [(stemRow, tree)])
        func node(_ name: String) throws -> Int { try XCTUnwrap(outline.byName[name]?.first) }
        XCTAssertEqual(reached[try node("stem_no")], [tree], "the stems of that tree only")
        XCTAssertEqual(reached[try node("plot_basal")], [steps(("plot", 0))])
        XCTAssertEqual(reached[try node("all_stems")], [[]])
        XCTAssertEqual(reached[try node("first_species")], [], "reads species, not stems")
    }
}
