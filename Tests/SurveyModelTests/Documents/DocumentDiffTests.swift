import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `DocumentDiff`: independent double entry, two keyers' documents of the same papers.
final class DocumentDiffTests: XCTestCase {
    private func survey(_ id: String, _ answers: [String: PropertyValue]) -> Record {
        var answers = answers
        answers[Record.instanceIDKey] = .string(id)
        return Record(answers)
    }

    func testSurveysPairByInstanceIDAndEveryDifferingAnswerIsListed() {
        let a = [survey("uuid:1", ["firstName": .string("Ana"), "age": .integer(30)]), survey("uuid:2", ["firstName": .string("Bo")])]
        let b = [survey("uuid:2", ["firstName": .string("Bob")]), survey("uuid:1", ["firstName": .string("Ana"), "age": .integer(31)]),
                 survey("uuid:3", ["firstName": .string("Cy")])]
        let diff = DocumentDiff(a, b)
        XCTAssertEqual(diff.paired, 2)
        XCTAssertEqual(diff.differences, [
            .init(survey: "uuid:1", field: "age", a: "30", b: "31"),
            .init(survey: "uuid:2", field: "firstName", a: "Bo", b: "Bob"),
        ])
        XCTAssertEqual(diff.onlyInA, [])
        XCTAssertEqual(diff.onlyInB, ["uuid:3"])
        XCTAssertFalse(diff.isSame)
        XCTAssertTrue(DocumentDiff(a, a).isSame)
    }

    /// Two keyers give one paper two instanceIDs: the identifying answers pair them; a blank
    /// one cannot be paired, a key two surveys share cannot either; both are said.
    func testIdentifyingAnswersPairTwoKeyersSurveys() {
        let a = [survey("uuid:a1", ["plot": .string("12"), "trees": .integer(3)]), survey("uuid:a2", ["plot": .string("13"), "trees": .integer(5)]),
                 survey("uuid:a3", ["plot": .string(""), "trees": .integer(1)]), survey("uuid:a4", ["plot": .string("14")]), survey("uuid:a5", ["plot": .string("14")])]
        let b = [survey("uuid:b1", ["plot": .string("13"), "trees": .integer(5)]), survey("uuid:b2", ["plot": .string("12"), "trees": .integer(8)]),
                 survey("uuid:b3", ["plot": .string("14")])]
        let diff = DocumentDiff(a, b, by: ["plot"])
        XCTAssertEqual(diff.paired, 2)
        XCTAssertEqual(diff.differences, [.init(survey: "plot=12", field: "trees", a: "3", b: "8")])
        XCTAssertEqual(diff.duplicatesInA, ["plot=14"])
        XCTAssertEqual(diff.onlyInB, [], "its partner is one of two in A: said once, as a duplicate")
        XCTAssertEqual(diff.unkeyedInA, 1)
        XCTAssertFalse(diff.isSame)
        let two = DocumentDiff([survey("uuid:x", ["hh": .string("7"), "visit": .integer(1)])], [survey("uuid:y", ["hh": .string("7"), "visit": .integer(1)])],
                               by: ["hh", "visit"])
        XCTAssertEqual(two.paired, 1)
        XCTAssertTrue(two.isSame, "the instanceIDs are not compared")
    }

    /// Members pair by place (the paper's order), their own ids left out; paths read
    /// `member[2]/name`, in reading order (2 before 10).
    func testRosterMembersCompareByPlace() {
        func members(_ names: [String], idPrefix: String) -> PropertyValue {
            .array(names.enumerated().map { i, name in
                .dictionary(["name": .string(name), "instanceID": .string("\(idPrefix)\(i)")])
            })
        }
        var names = (1...11).map { "P\($0)" }
        let a = [survey("uuid:1", ["member": members(names, idPrefix: "uuid:m-a-")])]
        names[1] = "Q2"
        names[9] = "Q10"
        names.append("P12")
        let b = [survey("uuid:1", ["member": members(names, idPrefix: "uuid:m-b-")])]
        XCTAssertEqual(DocumentDiff(a, b).differences, [
            .init(survey: "uuid:1", field: "member[2]/name", a: "P2", b: "Q2"),
            .init(survey: "uuid:1", field: "member[10]/name", a: "P10", b: "Q10"),
            .init(survey: "uuid:1", field: "member[12]/name", a: nil, b: "P12"),
        ])
    }

    /// A blank is a blank, missing or empty; a number keyed 8 is 8 however it was stored;
    /// what no keyer keys (a calculation, metadata, a note, the form's version) is not compared.
    func testBlanksNumbersAndUnkeyedQuestions() {
        let questionnaire = Questionnaire(fields: [
            FieldSpec(key: "name", label: "Name", kind: .text(maxLength: 100), info: ""),
            FieldSpec(key: "area", label: "Area", kind: .decimal, info: ""),
            FieldSpec(key: "double_area", label: "", kind: .calculated, info: ""),
            FieldSpec(key: "start", label: "", kind: .metadata("start"), info: ""),
            FieldSpec(key: "hint", label: "Hint", kind: .note, info: ""),
        ])
        let a = [survey("uuid:1", ["name": .string(""), "area": .real(8), "double_area": .real(16), "start": .string("2026-12-01T10:00"),
                                   "formVersion": .string("1"), "crops": .array([.string("maize"), .string("beans")])])]
        let b = [survey("uuid:1", ["area": .integer(8), "double_area": .real(18), "start": .string("2026-12-02T09:00"),
                                   "formVersion": .string("2"), "hint": .string("x"), "crops": .array([.string("maize"), .string("beans")])])]
        XCTAssertTrue(DocumentDiff(a, b, questionnaire: questionnaire).isSame)
        let c = [survey("uuid:1", ["area": .real(8.5), "crops": .array([.string("maize")])])]
        XCTAssertEqual(DocumentDiff(a, c, questionnaire: questionnaire).differences, [
            .init(survey: "uuid:1", field: "area", a: "8", b: "8.5"),
            .init(survey: "uuid:1", field: "crops", a: "maize beans", b: "maize"),
        ])
    }

    /// Inside rosters too, what no keyer keys is left out (a member's calculation, its id
    /// under any of the names members carry); identifying answers never collide.
    func testRosterCalculationsMemberIDsAndKeysThatCannotCollide() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString).csv")
        try Data("""
        survey,,,,
        ,type,name,label,calculation
        ,begin repeat,member,Member,
        ,text,name,Name,
        ,calculate,stamp,,once(uuid())
        ,end repeat,,,
        """.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let form = try XCTUnwrap(XLSForm.read(try XLSFormSheets.read(fileAt: url.path)).form)
        func member(_ name: String, _ stamp: String) -> PropertyValue {
            .dictionary(["name": .string(name), "stamp": .string(stamp), "memberID": .string("m-" + stamp)])
        }
        let a = [survey("uuid:1", ["member": .array([member("Ana", "x1")])])]
        let b = [survey("uuid:1", ["member": .array([member("Ana", "y2")])])]
        XCTAssertTrue(DocumentDiff(a, b, questionnaire: Questionnaire(form: form)).isSame)
        XCTAssertEqual(DocumentDiff(a, b).differences.map(\.field), ["member[1]/stamp"], "without the form, only its name is known")

        let one = [survey("uuid:1", ["a": .string("x b=y"), "b": .string("z")])]
        let two = [survey("uuid:2", ["a": .string("x"), "b": .string("y b=z")])]
        let diff = DocumentDiff(one, two, by: ["a", "b"])
        XCTAssertEqual(diff.paired, 0, "two different papers")
        XCTAssertEqual(diff.onlyInA, ["a=x b=y b=z"])
        XCTAssertEqual(diff.onlyInB, ["a=x b=y b=z"], "shown alike, kept apart")
    }

    func testCSVCellsNeverRunAsFormulas() {
        let a = [survey("uuid:1", ["note": .string("=HYPERLINK(\"http://x\")")])]
        let b = [survey("uuid:1", ["note": .string("ok")])]
        let rows = DocumentDiff(a, b).csvRows(a: "A", b: "=B")
        XCTAssertEqual(rows[0], ["survey", "field", "A", "'=B"])
        XCTAssertEqual(rows[1], ["uuid:1", "note", "'=HYPERLINK(\"http://x\")", "ok"])
    }

    /// Nesting from a file is walked without recursion (a stick's document is untrusted).
    func testDeepNestingIsWalkedWithoutRecursion() {
        var deep: PropertyValue = .string("bottom")
        for _ in 0..<300 { deep = .dictionary(["g": deep]) }
        let diff = DocumentDiff([survey("uuid:1", ["x": deep])], [survey("uuid:1", ["x": .string("flat")])])
        XCTAssertEqual(diff.differences.count, 2)
        XCTAssertEqual(diff.differences.first { $0.field == "x" }?.b, "flat")
        XCTAssertEqual(diff.differences.first { $0.field != "x" }?.field.split(separator: "/").count, 301)
    }

    func testFieldOrderIsNumericWithinNames() {
        let paths = ["m[10]/a", "m[2]/b", "m[2]/a", "age", "m[1]/z", "m[10]/b"]
        XCTAssertEqual(paths.sorted(by: DocumentDiff.fieldOrder), ["age", "m[1]/z", "m[2]/a", "m[2]/b", "m[10]/a", "m[10]/b"])
    }
}
