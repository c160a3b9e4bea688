import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The form as a tree apart from the answers: repeats hold their own rows (named or unnamed
/// `end repeat`, `begin_repeat`, nested), each node has the path pyxform gives it, and a
/// repeat's questions are no longer top-level fields.
final class FormTreeTests: XCTestCase {
    /// A household roster: members, each with a health group and their own plots' trees.
    static let roster = """
    survey,,,,,,
    ,type,name,label,repeat_count,relevant,constraint
    ,text,village,Village,,,
    ,integer,size,People living here,,,
    ,begin repeat,member,Member,${size},${size} > 0,
    ,text,name,Name,,,
    ,begin group,health,Health,,,
    ,integer,age,Age,,,. < 130
    ,end group,,,,,
    ,begin_repeat,plot,Plot,2,,
    ,decimal,area,Area,,,
    ,end_repeat,plot,,,,
    ,end repeat,,,,,
    ,text,name_other,Anything else,,,
    settings,,,,,,
    ,form_id,,,,,
    ,roster,,,,,
    """

    func testARepeatsRowsAreItsOwnNotTopLevelFields() throws {
        let q = try FormTestSupport.questionnaire(Self.roster)
        // The old reader listed name, age and area as top-level fields, keyed once per survey.
        XCTAssertEqual(q.fields.map(\.key), ["village", "size", "member", "name_other"])
        XCTAssertEqual(q.fields[2].kind, .notCollected("begin repeat"))
        XCTAssertEqual(q.repeats.map(\.path), ["/data/member", "/data/member/plot"])
        let member = try XCTUnwrap(q.repeatNode(forField: FieldIndex(2)))
        XCTAssertEqual(member.children.map(\.name), ["name", "health", "plot"])
        XCTAssertEqual(q.instanceQuestionnaire(for: member).fields.map(\.key), ["name", "health", "age", "", "plot"])
        let plot = try XCTUnwrap(q.node(atPath: "/data/member/plot"))
        XCTAssertEqual(plot.repeats, ["member"])
        XCTAssertEqual(q.instanceQuestionnaire(for: plot).fields.map(\.key), ["area"])
        XCTAssertEqual(q.node(atPath: "/data/member/plot/area")?.repeats, ["member", "plot"])
        XCTAssertEqual(q.node(atPath: "/data/member/health/age")?.answerPath([1]).description, "member[2]/age")
    }

    func testRepeatCountAndRelevantAreKeptOnTheRepeat() throws {
        let q = try FormTestSupport.questionnaire(Self.roster)
        let member = try XCTUnwrap(q.node(atPath: "/data/member"))
        let plot = try XCTUnwrap(q.node(atPath: "/data/member/plot"))
        XCTAssertEqual(member.question?.repeatCount, .field("size"))
        XCTAssertEqual(plot.question?.repeatCount, .number(2))
        XCTAssertNotNil(member.question?.relevant)
        XCTAssertEqual(q.repeatCount(of: member, in: Record(["size": .integer(3)]), clock: FormTestSupport.clock), 3)
        XCTAssertNil(q.repeatCount(of: member, in: Record(), clock: FormTestSupport.clock), "no size yet: not known")
        XCTAssertEqual(q.repeatCount(of: plot, in: Record(), parent: [.init(name: "member", index: 0)], clock: FormTestSupport.clock), 2)
        // The repeat's relevant hides it like any row's.
        XCTAssertEqual(q.relevance(in: Record(["size": .integer(0)]), clock: FormTestSupport.clock)[2], false)
    }

    /// Every question's path is the `nodeset` of its bind in the XForm pyxform makes.
    func testPathsAreThoseOfPyxformsXForm() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("roster-\(UUID().uuidString).csv")
        try Data(Self.roster.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let script = #"""
            import json, re, sys
            from pyxform import xls2xform
            xml = xls2xform.convert(xlsform=sys.argv[1]).xform
            print(json.dumps(sorted(set(re.findall(r'<bind nodeset="([^"]+)"', xml)))))
            """#
        let run = try ChildProcess.run(["python3", "-c", script, url.path])
        XCTAssertEqual(run.status, 0, run.errors)
        let binds = try XCTUnwrap(try JSONSerialization.jsonObject(with: run.stdout) as? [String])
            .filter { !$0.contains("/meta/") && !$0.hasSuffix("/plot_count") }   // pyxform's own: the id, a literal count
        let q = try FormTestSupport.questionnaire(Self.roster)
        let ours = q.tree.flatMap(\.descendants).filter { $0.kind == .question || $0.relevantBind }.map(\.path).sorted()
        XCTAssertEqual(ours, binds)
    }

    func testEndRowsNamedOrNotAndTheOtherSpellingsRead() throws {
        for (begin, end) in [("begin repeat", "end repeat"), ("begin_repeat", "end_repeat"), ("begin  repeat", "end repeat"),
                             ("begin repeat", "end_repeat"), ("Begin Repeat", "End Repeat")] {
            for endName in ["", "r"] {
                let q = try FormTestSupport.questionnaire("survey,,,\n,type,name,label\n,\(begin),r,R\n,text,t,T\n,\(end),\(endName),\n,text,after,After\n")
                XCTAssertEqual(q.fields.map(\.key), ["r", "after"], "\(begin) … \(end) \(endName)")
                XCTAssertEqual(q.repeats.first?.children.map(\.name), ["t"])
            }
        }
    }

    func testBlocksThatDoNotCloseInOrderAreRefusedWhereTheyAre() throws {
        func errors(_ rows: String) throws -> [String] {
            XLSForm.read(try XLSFormSheets.csv("survey,,,\n,type,name,label\n" + rows)).errors.map(\.description)
        }
        // The end group then closes the group, and the repeat is left open.
        XCTAssertEqual(try errors(",begin repeat,r,R\n,begin group,g,G\n,text,t,T\n,end repeat,,\n,end group,,\n"), [
            "survey row 3, type: the repeat “r” has no end repeat",
            "survey row 6, type: end repeat where the group “g” of row 4 is still open: end it first",
        ])
        XCTAssertEqual(try errors(",begin group,g,G\n,begin repeat,r,R\n,end group,,\n,end repeat,,\n"), [
            "survey row 3, type: the group “g” has no end group",
            "survey row 5, type: end group where the repeat “r” of row 4 is still open: end it first",
        ])
        XCTAssertEqual(try errors(",text,t,T\n,end repeat,,\n"), ["survey row 4, type: end repeat without a begin repeat"])
        XCTAssertEqual(try errors(",begin loop over yn,l,L\n,integer,n,N\n,end loop,,\nchoices,,,\n,list_name,name,label\n,yn,yes,Yes\n"), [])
        XCTAssertEqual(try errors(",begin loop over nolist,l,L\n,integer,n,N\n,end loop,,\n"),
                       ["survey row 3, type: no choice list named nolist"])
        XCTAssertEqual(try errors(",begin loop over yn,l,L\n,integer,n,N\n"), ["survey row 3, type: the loop “l” has no end loop"])
        XCTAssertEqual(try errors(",begin loop over yn,l,L\n,begin group,g,G\n,end loop,,\n,end group,,\n"), [
            "survey row 3, type: the loop “l” has no end loop",
            "survey row 5, type: end loop where the group “g” of row 4 is still open: end it first",
        ])
    }

    /// A name is a key of one record: the top level or an instance. Inside a repeat it may be
    /// a name used outside; twice in one record it is kept under its group path (two groups),
    /// or refused (two at one place).
    func testNamesAreUniqueWithinTheRecordTheyAreKeptIn() throws {
        let outsideAndIn = ",text,name,Name\n,begin repeat,member,M\n,text,name,Name\n,end repeat,,\n"
        XCTAssertEqual(XLSForm.read(try XLSFormSheets.csv("survey,,,\n,type,name,label\n" + outsideAndIn)).errors, [])
        let twoGroups = ",begin group,a,A\n,text,q,Q\n,end group,,\n,begin group,b,B\n,text,q,Q\n,end group,,\n"
        let read = XLSForm.read(try XLSFormSheets.csv("survey,,,\n,type,name,label\n" + twoGroups))
        XCTAssertEqual(read.errors, [])
        XCTAssertEqual(read.form?.questions.map(\.name), ["a", "a/q", "", "b", "b/q", ""])
        let repeatAndQuestion = ",integer,member,How many\n,begin repeat,member,M\n,text,n,N\n,end repeat,,\n"
        XCTAssertEqual(XLSForm.read(try XLSFormSheets.csv("survey,,,\n,type,name,label\n" + repeatAndQuestion)).errors.map(\.description),
                       ["survey row 4, name: “member” is already the name of row 3"])
        let sameGroupNameApart = ",begin group,a,A\n,begin group,g,G\n,text,x,X\n,end group,,\n,end group,,\n,begin group,g,G\n,text,y,Y\n,end group,,\n"
        XCTAssertEqual(XLSForm.read(try XLSFormSheets.csv("survey,,,\n,type,name,label\n" + sameGroupNameApart)).errors, [])
    }
}

private extension FormNode {
    /// pyxform writes a bind for a repeat only when it has a `relevant`.
    var relevantBind: Bool { kind == .repeat && question?.relevant != nil }
}
