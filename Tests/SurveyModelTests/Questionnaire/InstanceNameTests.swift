import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A survey's `instance_name` is worked out from the answers it names alone (each read out
/// of the packed survey, a roster whole when a name is inside it), and says what it said when
/// the whole survey was read for it.
final class InstanceNameTests: XCTestCase {
    static let form = """
    survey,,,,
    ,type,name,label,calculation
    ,text,village,Village,
    ,begin repeat,member,Member,
    ,text,name,Name,
    ,integer,age,Age,
    ,end repeat,,,
    ,text,notes,Notes,
    settings,,,,
    ,form_id,instance_name,,
    ,named,"concat(${village}, ': ', count(${member}), ' people, eldest ', max(${age}), ', first ', indexed-repeat(${name}, ${member}, 1))",,
    """

    func testANameReadingARosterReadsTheRosterAndNothingElse() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        var record = Record(["village": .string("Kirra"), "notes": .string("long notes")])
        for (name, age) in [("Ana", 40), ("Bo", 71), ("Cy", 9)] {
            record.insertInstance(of: "member", answers: ["name": .string(name), "age": .integer(age)])
        }
        XCTAssertEqual(q.name(of: record), "Kirra: 3 people, eldest 71, first Ana")
        let expression = try XCTUnwrap(q.form?.instanceName)
        XCTAssertEqual(Set(q.answers(namedBy: expression, in: record).keys), ["village", "member"], "not the notes")
        XCTAssertEqual(expression.evaluate(in: q.context(record, current: "", clock: .wall)).string,
                       "Kirra: 3 people, eldest 71, first Ana", "the whole survey read says the same")
    }

    /// A name that reads the clock reads the survey's own moment, as ODK names a survey once at
    /// finalizing: `today()` is the day it was finished, whenever the list is drawn, and a
    /// survey finished another day keeps its name (it read 1970 for a while: a reviewer's find).
    func testANameReadsTheDayTheSurveyWasFinished() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,
        ,type,name,label
        ,start,started,
        ,end,ended,
        ,text,village,Village
        settings,,,
        ,form_id,instance_name,
        ,dated,"concat(${village}, ' ', today())",
        """)
        let finished = Record(["village": .string("Kirra"), "started": .string("2026-03-04T11:00:00.000+00:00"),
                               "ended": .string("2026-03-04T12:00:00.000+00:00")])
        XCTAssertEqual(q.name(of: finished), "Kirra 2026-03-04")
        var started = finished
        started["ended"] = nil
        XCTAssertEqual(q.name(of: started), "Kirra 2026-03-04", "without an end, its start")
        var neither = finished
        neither["ended"] = nil
        neither["started"] = nil
        XCTAssertEqual(q.name(of: neither), "Kirra " + LocalDay.text(Date(), in: TimeZoneRule.current), "a survey not yet finished: today")
    }

    /// Without `instance_name` a survey is named as a keyer tells papers apart (issue 30): by
    /// its ID items; else by its first text answers, never the enumerator's name or phone (the
    /// same on every plot); else by the form's title and when it was started.
    func testASurveyWithoutAnInstanceNameIsNamedByWhatTellsPapersApart() throws {
        let form = """
        survey,,,
        ,type,name,label
        ,start,started,
        ,text,enumerator_name,Your name
        ,text,leader_phone,Your phone
        ,text,plot_code,Plot
        ,integer,trees,Trees
        settings,,,
        ,form_id,form_title,
        ,plots,Plot form,
        """
        let plain = try FormTestSupport.questionnaire(form)
        var plot = Record(["started": .string("2026-03-04T11:05:00.000+03:00"), "enumerator_name": .string("Ana"),
                           "leader_phone": .string("0712345678"), "plot_code": .string("P7"), "trees": .integer(3)])
        XCTAssertEqual(plain.name(of: plot), "P7", "not Ana, 0712345678 on every plot")
        plot["plot_code"] = nil
        XCTAssertEqual(plain.name(of: plot), "Plot form 2026-03-04 11:05", "nothing else: the form and when it was started")
        let identified = try FormTestSupport.questionnaire(form.replacingOccurrences(of: ",form_id,form_title,", with: ",form_id,form_title,id_items")
            .replacingOccurrences(of: ",plots,Plot form,", with: ",plots,Plot form,plot_code trees"))
        plot["plot_code"] = .string("P7")
        XCTAssertEqual(identified.name(of: plot), "P7, 3", "the form's ID items, in their order")
    }
}
