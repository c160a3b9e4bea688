import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey add` and `survey import` store a survey as the form's [ Add ] does: the form
/// computes (its calculations, the members `repeat_count` asks for) before it judges, a
/// value given for a calculation is ignored, a member holding no answer is never stored,
/// and whatever survey exports, survey imports.
final class SettlingCommandTests: CLITestCase {
    /// A limit the form computes, read by a constraint; a roster the form sizes, whose
    /// members start with a default; one it does not size, with a roster inside.
    static let form = """
        survey
        ,type,name,label,required,constraint,constraint_message,calculation,repeat_count,default
        ,integer,x,Amount,,. <= ${lim},more than lim
        ,calculate,lim,,,,,20
        ,integer,n,People,yes
        ,begin repeat,member,Member,,,,,${n}
        ,text,role,Role,yes,,,,,resident
        ,integer,age,Age
        ,calculate,number,,,,,position(..)
        ,end repeat
        ,begin repeat,visit,Visit
        ,text,place,Place,yes
        ,begin repeat,stop,Stop
        ,text,what,What
        ,end repeat
        ,end repeat
        ,calculate,visits,,,,,count(${visit})
        settings
        ,form_title,form_id,version
        ,Settling,settling,3
        """

    /// A roster the form sizes whose members have a required question and no default.
    static let namesForm = """
        survey
        ,type,name,label,required,repeat_count
        ,integer,n,People,yes
        ,begin repeat,member,Member
        ,text,name,Name,yes
        ,end repeat
        ,begin repeat,household,Household,,${n}
        ,text,head,Head of household,yes
        ,end repeat
        """

    private func makeDocument(_ name: String, form: String = form, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = try scratchFile("\(name)-form.csv", form)
        let made = try survey("docs", "new", name, "--form", url.path)
        XCTAssertEqual(made.status, 0, made.stderr, file: file, line: line)
    }

    private func records(_ name: String) throws -> [Record] {
        Array(try store.load(name).get().records)
    }

    // MARK: - Item 10: calculations, then the rules

    func testAddAcceptsAnAnswerWithinTheLimitTheFormComputes() throws {
        try makeDocument("Field")
        let added = try survey("add", "--doc", "Field", "--set", "x=15", "--set", "n=0")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(try records("Field").first?["lim"], .string("20"))
        XCTAssertEqual(try survey("add", "--doc", "Field", "--set", "x=21", "--set", "n=0"),
                       Outcome(status: 1, stdout: "", stderr: "survey: x \"21\": more than lim\n"))
        XCTAssertEqual(try records("Field").count, 1)
    }

    func testImportComputesCalculationsAndIgnoresTheValuesGivenSayingSoOnce() throws {
        try makeDocument("Field")
        let before = try fileBytes(store.url(for: "Field"))
        let over = try scratchFile("over.json", #"[{"x": 50, "lim": 100, "n": 0}]"#)
        XCTAssertEqual(try survey("import", over.path, "--doc", "Field"), Outcome(status: 1, stdout: "", stderr: """
            survey: note: lim is calculated by the form: the value given is ignored
            survey: nothing imported: \(over.path) has 1 problem
            survey: record 1: x 50: more than lim

            """), "a limit given for the calculation lets nothing through")
        XCTAssertEqual(try fileBytes(store.url(for: "Field")), before, "nothing written")
        let within = try scratchFile("within.csv", "x,lim,n,visits\n15,100,0,7\n10,30,0,\n5,,0,\n")
        let imported = try survey("import", within.path, "--doc", "Field")
        XCTAssertEqual(imported, Outcome(status: 0, stdout: "Imported 3 surveys into “Field”\n", stderr:
            "survey: note: lim, visits are calculated by the form: the values given are ignored\n"))
        XCTAssertEqual(try records("Field").map { [$0["lim"], $0["visits"]] }, Array(repeating: [.string("20"), .string("0")], count: 3),
                       "every survey holds the form's calculations, a file that left them out too")
    }

    // MARK: - Item 11: members

    func testAddRefusesTheEmptyMembersRepeatCountMakes() throws {
        try makeDocument("Names", form: Self.namesForm)
        XCTAssertEqual(try survey("add", "--doc", "Names", "--set", "n=3"), Outcome(status: 1, stdout: "", stderr: """
            survey: household[1]/head: Head of household is required
            survey: household[2]/head: Head of household is required
            survey: household[3]/head: Head of household is required

            """), "as the form refuses them: each member's required questions are required")
        XCTAssertEqual(try records("Names"), [])
        XCTAssertEqual(try survey("add", "--doc", "Names", "--set", "n=0").status, 0)
        XCTAssertEqual(try records("Names").first?["household"], nil)
    }

    func testImportLeavesOutAMemberHoldingNoAnswerAndSaysWhereItWas() throws {
        try makeDocument("Names", form: Self.namesForm)
        let input = try scratchFile("names.json", """
            [{"n": 0, "member": [{}, {"name": "Ana"}, {"name": "  "}, {"name": "Bo"}]},
             {"n": 1, "household": [{}]},
             {"n": 0, "member": [{}, {"name": ""}, {"age": 4}]}]
            """)
        XCTAssertEqual(try survey("import", input.path, "--doc", "Names"), Outcome(status: 1, stdout: "", stderr: """
            survey: note: record 1: member[1] holds no answer and is left out
            survey: note: record 1: member[3] holds no answer and is left out
            survey: note: record 3: member[1] holds no answer and is left out
            survey: note: record 3: member[2] holds no answer and is left out
            survey: nothing imported: \(input.path) has 2 problems
            survey: record 2: household[1]/head: Head of household is required
            survey: record 3: member[3]/name: Name is required

            """), "repeat_count's member is refused in its place; one holding a key the form does not ask is judged")
        let good = try scratchFile("good.json", #"[{"n": 0, "member": [{}, {"name": "Ana"}, {"name": "  "}, {"name": "Bo"}]}]"#)
        let imported = try survey("import", good.path, "--doc", "Names")
        XCTAssertEqual(imported.stdout, "Imported 1 survey into “Names”\n", imported.stderr)
        XCTAssertEqual(try records("Names").first?["member"], .array([.dictionary(["name": .string("Ana")]),
                                                                     .dictionary(["name": .string("Bo")])]))
    }

    /// Whatever survey exports, survey imports: a survey added on the command line (its
    /// members made by `repeat_count`, with their default) and one imported with rosters,
    /// exported in each format that carries rosters and imported into a fresh document,
    /// come back with the same answers, with nothing to note.
    func testEveryFormatThatCarriesRostersImportsWhatItExported() throws {
        try makeDocument("Field")
        let added = try survey("add", "--doc", "Field", "--set", "x=15", "--set", "n=2")
        XCTAssertEqual(added.status, 0, added.stderr)
        let input = try scratchFile("visits.json", """
            [{"x": 3, "n": 1, "member": [{"role": "head", "age": 41}],
              "visit": [{"place": "Kisumu", "stop": [{"what": "fuel"}, {"what": "lunch"}]}, {"place": "Busia"}]}]
            """)
        let imported = try survey("import", input.path, "--doc", "Field")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let original = try records("Field")
        XCTAssertEqual(original.map { $0["member"] }, [
            .array([.dictionary(["role": .string("resident"), "number": .string("1")]),
                    .dictionary(["role": .string("resident"), "number": .string("2")])]),
            .array([.dictionary(["role": .string("head"), "age": .integer(41), "number": .string("1")])]),
        ])
        XCTAssertEqual(original.map { $0["visits"] }, [.string("0"), .string("2")])
        for format in ["json", "plist", "odk-csv"] {
            let out = root.appendingPathComponent("export-\(format)")
            let exported = try survey("export", "--doc", "Field", "--format", format, "--output", out.path)
            XCTAssertEqual(exported.status, 0, "\(format): \(exported.stderr)")
            let copy = "Copy-\(format)"
            try makeDocument(copy)
            let back = try survey("import", out.path, "--doc", copy, "--format", format)
            XCTAssertEqual(back, Outcome(status: 0, stdout: "Imported 2 surveys into “\(copy)”\n", stderr: ""), format)
            XCTAssertEqual(try records(copy), original, "\(format): the same surveys")
        }
    }
}
