import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Which forms `survey form check` accepts, beside pyxform's verdict on the same file: a table
/// of small forms, each with survey's exact error. They must agree, except where survey
/// refuses on purpose what pyxform passes (a name survey writes itself), and those rows say
/// so. What pyxform passes though it reads nothing (a bare word, a path to no question, text
/// that is not XPath, a default its question refuses) opens here too, with a warning.
final class XLSFormVerdictTests: XCTestCase {
    private struct Case {
        let title: String
        let csv: String
        /// survey's only error, nil when the form is accepted.
        let error: String?
        /// pyxform accepts what survey refuses, on purpose.
        var divergent = false
        /// survey's only warning, when the case is about one.
        var warning: String? = nil
    }

    private static func survey(_ rows: String, choices: String = "", settings: String = "") -> String {
        "survey,,,,\n,type,name,label,hint,default\n" + rows
            + (choices.isEmpty ? "" : "choices,,,,\n,list_name,name,label,,\n" + choices)
            + (settings.isEmpty ? "" : "settings,,,,\n" + settings)
    }

    private static let yesNo = ",yn,yes,Yes,,\n,yn,no,No,,\n"

    private static let cases: [Case] = [
        // Types
        Case(title: "a typo of integer", csv: survey(",interger,age,Age,,\n"),
             error: "survey row 3, type: unknown question type “interger”: did you mean “integer”?"),
        Case(title: "a list name run into select_one", csv: survey(",select_one_yn,q,Q,,\n", choices: yesNo),
             error: "survey row 3, type: unknown question type “select_one_yn”: did you mean “select_one yn”?"),
        Case(title: "select_one without its list", csv: survey(",select_one,q,Q,,\n", choices: yesNo),
             error: "survey row 3, type: unknown question type “select_one”: it needs the list_name of its choices, as in “select_one yesno”"),
        Case(title: "a typo of text", csv: survey(",txt,q,Q,,\n"),
             error: "survey row 3, type: unknown question type “txt”: did you mean “text”?"),
        Case(title: "nothing like a type", csv: survey(",zzzzzz,q,Q,,\n"),
             error: "survey row 3, type: unknown question type “zzzzzz”"),
        Case(title: "a geopoint: a real type, not collected here", csv: survey(",geopoint,where,Where,,\n"), error: nil),
        Case(title: "a repeat: real types, not collected here", csv: survey(",begin repeat,r,R,,\n,text,t,T,,\n,end repeat,,,,\n"), error: nil),
        Case(title: "or_other", csv: survey(",select_multiple yn or_other,q,Q,,\n", choices: yesNo), error: nil),
        // Names
        Case(title: "a name with a space", csv: survey(",text,first name,First,,\n"),
             error: "survey row 3, name: “first name” is not a valid name: names must begin with a letter or underscore; "
                 + "after the first character, names may contain letters, digits, underscores, hyphens, or periods"),
        Case(title: "a name starting with a digit", csv: survey(",text,1st,First,,\n"),
             error: "survey row 3, name: “1st” is not a valid name: names must begin with a letter or underscore; "
                 + "after the first character, names may contain letters, digits, underscores, hyphens, or periods"),
        Case(title: "names with hyphens, periods, underscores and accents", csv: survey(",text,a-b.c,A,,\n,text,_x,X,,\n,text,été,E,,\n"),
             error: nil),
        Case(title: "meta", csv: survey(",text,meta,M,,\n"), error: "survey row 3, name: the name “meta” is reserved for form metadata"),
        Case(title: "instanceID", csv: survey(",text,instanceID,Id,,\n"),
             error: "survey row 3, name: “instanceID” cannot be a question’s name: survey writes a key of that name itself, "
                 + "so the answer would be lost or mistaken for it; rename the question", divergent: true),
        Case(title: "formVersion inside a group, in other case", csv: survey(",begin group,g,G,,\n,text,FORMVERSION,V,,\n,end group,,,,\n"),
             error: "survey row 4, name: “FORMVERSION” cannot be a question’s name: survey writes a key of that name itself, "
                 + "so the answer would be lost or mistaken for it; rename the question", divergent: true),
        // The key an update's base is kept under is refused as itself only: a question named
        // so in another case (pyxform accepts it, and so did survey before bases were kept)
        // keeps its form.
        Case(title: "entitybase in another case", csv: survey(",text,entitybase,B,,\n"), error: nil),
        Case(title: "entityBase", csv: survey(",text,entityBase,B,,\n"),
             error: "survey row 3, name: “entityBase” cannot be a question’s name: survey writes a key of that name itself, "
                 + "so the answer would be lost or mistaken for it; rename the question", divergent: true),
        // Choices
        Case(title: "a choice named twice in one list", csv: survey(",select_one yn,q,Q,,\n", choices: yesNo + ",yn,yes,Oui,,\n"),
             error: "choices row 8, name: “yes” is already a choice of yn (row 6): choice names must be unique in each list; "
                 + "if this is intentional, use the setting allow_choice_duplicates"),
        Case(title: "a choice named twice, allowed by the settings",
             csv: survey(",select_one yn,q,Q,,\n", choices: yesNo + ",yn,yes,Oui,,\n", settings: ",allow_choice_duplicates,,,\n,yes,,,\n"),
             error: nil),
        // Labels
        Case(title: "a question with no label and no hint", csv: survey(",text,q,,,\n"),
             error: "survey row 3, label: “q” has no label or hint"),
        Case(title: "a note with no label", csv: survey(",note,n,,,\n"), error: "survey row 3, label: “n” has no label or hint"),
        Case(title: "a question with only a hint", csv: survey(",text,q,,Type it,\n"), error: nil),
        Case(title: "a group, a calculation and metadata need no label",
             csv: "survey,,,,\n,type,name,label,calculation\n,begin group,g,,\n,calculate,c,,1 + 1\n,end group,,,\n,start,start,,\n",
             error: nil),
        // Defaults
        Case(title: "a default the integer refuses", csv: survey(",integer,n,N,,many\n"), error: nil,
             warning: "survey row 3, default: the default “many” is not an answer this question takes: N must be a whole number; the question starts empty"),
        Case(title: "a default not in the list", csv: survey(",select_one yn,q,Q,,maybe\n", choices: yesNo), error: nil,
             warning: "survey row 3, default: the default “maybe” is not an answer this question takes: “maybe” is not one of the choices of Q; "
                 + "the question starts empty"),
        Case(title: "defaults each type takes, and a computed one",
             csv: survey(",integer,n,N,,3\n,select_one yn,q,Q,,yes\n,date,d,D,,2026-01-15\n,date,t,T,,today()\n", choices: yesNo),
             error: nil),
        // Rules that read nothing or cannot be read (issue 18): pyxform converts them.
        Case(title: "a bare word where a question was meant",
             csv: "survey,,,,\n,type,name,label,calculation\n,integer,a,A,\n,calculate,c,,because + 1\n", error: nil,
             warning: "survey row 4, calculation: “because” reads nothing: a bare word is a path below this question; write ${because} for a question"),
        Case(title: "a path to no question",
             csv: "survey,,,,\n,type,name,label,calculation\n,integer,a,A,\n,calculate,c,,/data/b + 1\n", error: nil,
             warning: "survey row 4, calculation: the path /data/b reaches no question of the form: it reads nothing"),
        Case(title: "text that is not XPath", csv: "survey,,,,\n,type,name,label,calculation\n,calculate,c,,£¥§\n", error: nil,
             warning: "survey row 3, calculation: “£¥§” cannot be read (unexpected “£”): nothing is computed, the value stays empty"),
        Case(title: "a relevant that reads its own answer", csv: "survey,,,,\n,type,name,label,relevant\n,text,a,A,. != 'n/a'\n", error: nil,
             warning: "survey row 3, relevant: ${a}’s relevant reads its own answer: it is judged on the answer as it stands, "
                 + "so an empty answer may hide the question for good"),
        Case(title: "a relevant that names no question", csv: "survey,,,,\n,type,name,label,relevant\n,text,a,A,${b} = 1\n",
             error: "survey row 3, relevant: unknown field ${b}"),
    ]

    func testSurveyAndPyxformGiveTheSameVerdict() throws {
        let verdicts = try Self.pyxformVerdicts(Self.cases.map(\.csv))
        for (test, pyxform) in zip(Self.cases, verdicts) {
            let result = XLSForm.read(try XLSFormSheets.csv(test.csv))
            XCTAssertEqual(result.errors.map(\.description), test.error.map { [$0] } ?? [], test.title)
            XCTAssertEqual(result.form == nil, test.error != nil, test.title)
            if let warning = test.warning { XCTAssertEqual(result.warnings.map(\.description), [warning], test.title) }
            if test.divergent {
                XCTAssertNil(pyxform, "\(test.title): pyxform accepts what survey refuses on purpose")
            } else {
                XCTAssertEqual(pyxform == nil, test.error == nil,
                               "\(test.title): survey \(test.error == nil ? "accepts" : "refuses"), pyxform says \(pyxform ?? "accepted")")
            }
        }
    }

    /// The reserved names are the keys the writers write: whatever `[ Add ]` stores beyond the
    /// questions' answers, the id, and the column `survey deleted` puts before the answers.
    func testEveryKeyTheAppWritesItselfIsAReservedName() throws {
        let form = try FormTestSupport.householdForm()
        let stored = Questionnaire(form: form).completed(Record([:]), device: DeviceMetadata(deviceID: "survey:host", username: "ana"), clock: FormTestSupport.clock)
        let own = Set(stored.values.keys).subtracting(form.questions.map(\.name))
        XCTAssertEqual(own, [Questionnaire.formIDKey, Questionnaire.formVersionKey])
        XCTAssertTrue(own.isSubset(of: Questionnaire.reservedKeys))
        XCTAssertTrue(Questionnaire.reservedKeys.contains(Record.instanceIDKey))
        XCTAssertTrue(Questionnaire.reservedKeys.contains(DeletedRecord.deletedAtKey))
        XCTAssertEqual(Questionnaire(form: form).recordIdentityKeys, Questionnaire.identityKeys)
    }

    /// For each form, nil when pyxform builds its XForm, else pyxform's error; one python3
    /// run for them all.
    private static func pyxformVerdicts(_ csvs: [String]) throws -> [String?] {
        guard (try? ChildProcess.run(["python3", "-c", "import pyxform"]).status) == 0 else {
            throw XCTSkip("pyxform is not installed for python3 (make test-deps, or python3 -m pip install pyxform)")
        }
        let folder = try FormTestSupport.writeForms(csvs)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let paths = folder.paths
        let script = #"""
        import json, sys
        from pyxform.xls2json import parse_file_to_json
        from pyxform import builder
        verdicts = []
        for path in sys.argv[1:]:
            try:
                d = parse_file_to_json(path, warnings=[])
                builder.create_survey_element_from_dict(d).to_xml(validate=False, warnings=[])
                verdicts.append(None)
            except Exception as e:
                verdicts.append(str(e) or type(e).__name__)
        print(json.dumps(verdicts))
        """#
        let run = try ChildProcess.run(["python3", "-c", script] + paths)
        XCTAssertEqual(run.status, 0, run.errors)
        let verdicts = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [Any])
        return verdicts.map { $0 as? String }
    }
}
