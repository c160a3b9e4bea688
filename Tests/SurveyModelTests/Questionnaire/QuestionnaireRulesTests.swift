import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The form's rules across fields (Questionnaire+Rules): relevant (own and the groups'),
/// hiding answers on a later change and bringing them back, required and constraint with the
/// designer's words, calculations in chains, choice_filter, defaults, metadata and the form's
/// id and version, and the list title.
final class QuestionnaireRulesTests: XCTestCase {
    private let clock = FormTestSupport.clock

    /// Skip logic on a question, on a group, and on a group inside it.
    private static let skipLogic = """
    survey,,,,,,,,,
    ,type,name,label,required,required_message,constraint,constraint_message,relevant,calculation
    ,integer,age,Age,yes,Say the age,. >= 0 and . <= 150,Age is 0 to 150,,
    ,select_one yn,smoker,Smokes?,yes,,,,${age} >= 12,
    ,integer,per_day,Cigarettes a day,,,. > 0 and . <= ${limit},,${smoker} = 'yes',
    ,begin group,work,Work,,,,,${age} >= 16,
    ,text,job,Job,yes,,,,,
    ,begin group,pay,Pay,,,,,${job} != 'none',
    ,decimal,wage,Hourly wage,${job} != '',Give the wage,. > 0,,,
    ,calculate,daily,,,,,,,${wage} * 8
    ,end group,,,,,,,,
    ,text,employer,Employer,,,,,,
    ,end group,,,,,,,,
    ,integer,limit,Limit,,,,,,
    ,note,thanks,Thanks,,,,,,
    choices,,,,,,,,,
    ,list_name,name,label,,,,,,
    ,yn,yes,Yes,,,,,,
    ,yn,no,No,,,,,,
    """

    private func skipLogic() throws -> Questionnaire { try FormTestSupport.questionnaire(Self.skipLogic) }

    // MARK: relevant

    func testRelevantShowsAQuestionOnlyWhenItsRuleHolds() throws {
        let q = try skipLogic()
        XCTAssertEqual(q.shown(Record([:])), ["age", "limit", "thanks"], "an empty age is not >= 12")
        XCTAssertEqual(q.shown(Record(["age": .integer(12)])), ["age", "smoker", "limit", "thanks"])
        XCTAssertEqual(q.shown(Record(["age": .integer(11)])), ["age", "limit", "thanks"])
        XCTAssertEqual(q.shown(Record(["age": .integer(12), "smoker": .string("yes")])),
                       ["age", "smoker", "per_day", "limit", "thanks"])
        XCTAssertFalse(q.isRelevant(q.index("per_day"), in: Record(["age": .integer(12), "smoker": .string("no")]), clock: clock))
        XCTAssertTrue(q.isRelevant(q.index("per_day"), in: Record(["age": .integer(12), "smoker": .string("yes")]), clock: clock))
    }

    func testAGroupsRelevantHidesEverythingInsideIt() throws {
        let q = try skipLogic()
        XCTAssertEqual(q.shown(Record(["age": .integer(15), "job": .string("nurse")])), ["age", "smoker", "limit", "thanks"],
                       "under 16 the whole work group is hidden, answered or not")
        XCTAssertEqual(q.shown(Record(["age": .integer(16)])),
                       ["age", "smoker", "work", "job", "pay", "wage", "daily", "employer", "limit", "thanks"])
        XCTAssertEqual(q.shown(Record(["age": .integer(16), "job": .string("none")])),
                       ["age", "smoker", "work", "job", "employer", "limit", "thanks"],
                       "the inner group is hidden, the rest of the outer one is not")
        let relevance = q.relevance(in: Record(["age": .integer(15), "job": .string("x")]), clock: clock)
        XCTAssertEqual(relevance.count, q.fields.count)
        XCTAssertFalse(relevance[q.index("wage")], "an inner group whose own rule holds is still inside a hidden one")
    }

    func testAQuestionWithoutRulesIsAlwaysShown() throws {
        let q = try FormTestSupport.household()
        XCTAssertTrue(q.relevance(in: Record([:]), clock: clock).enumerated().filter { !$0.element }.map { q.fields[$0.offset].key }
            .allSatisfy { ["household", "region", "district", "village", "members", "children", "adults", "water",
                           "water_other", "distance", "has_phone", "phone", "location", "visit_date", "visit_time", ""].contains($0) })
        XCTAssertEqual(q.shown(Record([:])).filter { ["fname", "rating", "confirm", "closing"].contains($0) },
                       ["fname", "closing", "rating", "confirm"])
    }

    // MARK: hiding and bringing back

    /// ODK keeps a hidden question's answer in memory and does not save it: `settled` moves it
    /// to `hidden`, through chains of relevance, and brings it back when it shows again.
    func testAnAnswerHiddenByALaterChangeComesBackWhenShownAgain() throws {
        let q = try skipLogic()
        let full = Record(["age": .integer(30), "smoker": .string("yes"), "per_day": .integer(5), "job": .string("nurse"),
                           "wage": .real(12.5), "employer": .string("Clinic"), "limit": .integer(40)])
        var hidden: [String: PropertyValue] = [:]
        let settled = q.settled(full, hidden: &hidden, clock: clock)
        XCTAssertEqual(settled.values["daily"], .string("100"), "the calculation is filled in")
        XCTAssertEqual(hidden, [:])

        var younger = settled
        younger.values["age"] = .integer(10)
        let hiding = q.settled(younger, hidden: &hidden, clock: clock)
        XCTAssertEqual(hiding.values, ["age": .integer(10), "limit": .integer(40)],
                       "smoker hides, so per_day (which reads smoker) hides too; the work group hides with its calculation")
        XCTAssertEqual(Set(hidden.keys), ["smoker", "per_day", "job", "wage", "daily", "employer"])
        XCTAssertEqual(hidden["per_day"], .integer(5))

        var older = hiding
        older.values["age"] = .integer(30)
        let back = q.settled(older, hidden: &hidden, clock: clock)
        XCTAssertEqual(back, settled, "every answer comes back as it was")
        XCTAssertEqual(hidden, [:])
    }

    func testOnlyWhatShowsAgainComesBack() throws {
        let q = try skipLogic()
        var hidden: [String: PropertyValue] = [:]
        let record = Record(["age": .integer(20), "smoker": .string("yes"), "per_day": .integer(5), "job": .string("cook")])
        var changed = q.settled(record, hidden: &hidden, clock: clock)
        changed.values["smoker"] = .string("no")
        changed = q.settled(changed, hidden: &hidden, clock: clock)
        XCTAssertNil(changed.values["per_day"])
        XCTAssertEqual(hidden, ["per_day": .integer(5)])
        changed.values["age"] = .integer(14)
        changed = q.settled(changed, hidden: &hidden, clock: clock)
        XCTAssertEqual(changed.values, ["age": .integer(14), "smoker": .string("no")])
        XCTAssertEqual(hidden, ["per_day": .integer(5), "job": .string("cook")])
        changed.values["age"] = .integer(40)
        changed = q.settled(changed, hidden: &hidden, clock: clock)
        XCTAssertEqual(changed.values, ["age": .integer(40), "smoker": .string("no"), "job": .string("cook")],
                       "the job shows again; per_day stays hidden while smoker is no")
        XCTAssertEqual(hidden, ["per_day": .integer(5)])
    }

    func testHouseholdConsentHidesTheHouseholdAndBringsItBack() throws {
        let q = try FormTestSupport.household()
        let answers = Record(["fname": .string("Ana"), "lname": .string("Lima"), "age": .integer(34), "consent": .string("yes"),
                              "region": .string("north"), "district": .string("lake"), "members": .integer(5),
                              "children": .integer(2), "has_phone": .string("yes"), "phone": .string("+254 700 000")])
        var hidden: [String: PropertyValue] = [:]
        let consented = q.settled(answers, hidden: &hidden, clock: clock)
        XCTAssertEqual(consented.values["adults"], .string("3"))
        var refused = consented
        refused.values["consent"] = .string("no")
        let without = q.settled(refused, hidden: &hidden, clock: clock)
        XCTAssertEqual(Set(without.values.keys), ["fname", "lname", "age", "consent"])
        XCTAssertEqual(hidden["phone"], .string("+254 700 000"))
        var again = without
        again.values["consent"] = .string("yes")
        XCTAssertEqual(q.settled(again, hidden: &hidden, clock: clock), consented)
    }

    // MARK: required

    func testRequiredYesUsesTheFormsMessageOrNamesTheQuestion() throws {
        let q = try skipLogic()
        let empty = Record([:])
        XCTAssertEqual(q.ruleProblem(q.index("age"), value: nil, in: empty, clock: clock), "Say the age")
        XCTAssertEqual(q.ruleProblem(q.index("age"), value: .string(""), in: empty, clock: clock), "Say the age")
        XCTAssertNil(q.ruleProblem(q.index("age"), value: .integer(0), in: empty, clock: clock), "0 is an answer")
        XCTAssertEqual(q.ruleProblem(q.index("smoker"), value: nil, in: empty, clock: clock), "Smokes? is required")
        XCTAssertNil(q.ruleProblem(q.index("smoker"), value: .string("no"), in: empty, clock: clock))
        XCTAssertNil(q.ruleProblem(q.index("employer"), value: nil, in: empty, clock: clock), "not required")
    }

    func testRequiredUnderAConditionAsksOnlyWhenItHolds() throws {
        let q = try skipLogic()
        let wage = q.index("wage")
        XCTAssertNil(q.ruleProblem(wage, value: nil, in: Record([:]), clock: clock), "no job: the wage may be left empty")
        XCTAssertEqual(q.ruleProblem(wage, value: nil, in: Record(["job": .string("nurse")]), clock: clock), "Give the wage")
        XCTAssertNil(q.ruleProblem(wage, value: .real(9), in: Record(["job": .string("nurse")]), clock: clock))
        XCTAssertTrue(try XCTUnwrap(q.field(forKey: "wage")).isRequired, "marked * even when only conditionally required")

        let csv = """
        survey,,,,
        ,type,name,label,required
        ,integer,age,Age,
        ,text,id_card,ID card,${age} >= 18
        """
        let adult = try FormTestSupport.questionnaire(csv)
        XCTAssertEqual(adult.ruleProblem(1, value: nil, in: Record(["age": .integer(18)]), clock: clock), "ID card is required")
        XCTAssertNil(adult.ruleProblem(1, value: nil, in: Record(["age": .integer(17)]), clock: clock))
        XCTAssertNil(adult.ruleProblem(1, value: nil, in: Record([:]), clock: clock))
    }

    // MARK: constraint

    func testAConstraintReadsTheAnswerAsDotAndOtherAnswersByName() throws {
        let q = try skipLogic()
        let age = q.index("age")
        XCTAssertNil(q.ruleProblem(age, value: .integer(0), in: Record([:]), clock: clock))
        XCTAssertNil(q.ruleProblem(age, value: .integer(150), in: Record([:]), clock: clock))
        XCTAssertEqual(q.ruleProblem(age, value: .integer(151), in: Record([:]), clock: clock), "Age is 0 to 150")
        XCTAssertEqual(q.ruleProblem(age, value: .integer(-1), in: Record([:]), clock: clock), "Age is 0 to 150")

        let perDay = q.index("per_day")
        let limit20 = Record(["limit": .integer(20)])
        XCTAssertNil(q.ruleProblem(perDay, value: .integer(20), in: limit20, clock: clock))
        XCTAssertEqual(q.ruleProblem(perDay, value: .integer(21), in: limit20, clock: clock),
                       "Cigarettes a day: the answer is not accepted by the form's rule", "no constraint_message: a plain one")
        XCTAssertEqual(q.ruleProblem(perDay, value: .integer(0), in: limit20, clock: clock),
                       "Cigarettes a day: the answer is not accepted by the form's rule")
        XCTAssertNotNil(q.ruleProblem(perDay, value: .integer(1), in: Record([:]), clock: clock),
                        "a limit not given is no number: the comparison fails, as in ODK")
        XCTAssertNil(q.ruleProblem(perDay, value: nil, in: limit20, clock: clock), "an empty answer is not constrained")
    }

    func testHouseholdConstraintsWithTheirMessages() throws {
        let q = try FormTestSupport.household()
        let record = Record(["members": .integer(4)])
        XCTAssertEqual(q.ruleProblem(q.index("children"), value: .integer(5), in: record, clock: clock),
                       "Cannot be more than the people living here")
        XCTAssertNil(q.ruleProblem(q.index("children"), value: .integer(4), in: record, clock: clock))
        XCTAssertEqual(q.ruleProblem(q.index("members"), value: .integer(41), in: record, clock: clock), "A household has 1 to 40 people")
        XCTAssertEqual(q.ruleProblem(q.index("distance"), value: .real(100.5), in: record, clock: clock), "Give the distance in km, 0 to 100")
        XCTAssertNil(q.ruleProblem(q.index("distance"), value: .real(0), in: record, clock: clock))
        XCTAssertEqual(q.ruleProblem(q.index("phone"), value: .string("call me"), in: record, clock: clock),
                       "Digits, spaces and + only, 6 to 20")
        XCTAssertNil(q.ruleProblem(q.index("phone"), value: .string("+254 700 000"), in: record, clock: clock))
        // today() is the clock's day in its zone: 2026-11-30 23:30 UTC is already Dec 1 at +01:00.
        XCTAssertNil(q.ruleProblem(q.index("visit_date"), value: .string("2026-12-01"), in: record, clock: clock))
        XCTAssertEqual(q.ruleProblem(q.index("visit_date"), value: .string("2026-12-02"), in: record, clock: clock),
                       "The visit cannot be in the future")
        let utc = Questionnaire.Clock(now: clock.now, timeZone: TimeZoneRule(secondsFromGMT: 0))
        XCTAssertEqual(q.ruleProblem(q.index("visit_date"), value: .string("2026-12-01"), in: record, clock: utc),
                       "The visit cannot be in the future")
    }

    /// ODK's answers are typed, so its dates compare and subtract as days; ours are text
    /// that looks the same, and must too.
    func testDatesCompareAndSubtractAsDays() throws {
        let csv = """
        survey,,,,,
        ,type,name,label,constraint,calculation
        ,date,born,Born,. <= today(),
        ,calculate,years,,,int((today() - ${born}) div 365.25)
        ,date,visit,Visit,. >= ${born} and . <= today(),
        ,dateTime,seen,Seen,. <= now(),
        """
        let q = try FormTestSupport.questionnaire(csv)
        var hidden: [String: PropertyValue] = [:]
        XCTAssertEqual(q.settled(Record(["born": .string("2000-11-30")]), hidden: &hidden, clock: clock).values["years"],
                       .string("26"), "9497 days to 2026-12-01 (today where the clock is)")
        XCTAssertEqual(q.settled(Record(["born": .string("2000-12-01")]), hidden: &hidden, clock: clock).values["years"],
                       .string("25"), "9496 days: 25.998 years by the form's own formula")
        XCTAssertEqual(q.settled(Record(["born": .string("2000-12-02")]), hidden: &hidden, clock: clock).values["years"],
                       .string("25"))
        let born = Record(["born": .string("2000-12-01")])
        XCTAssertNil(q.ruleProblem(q.index("visit"), value: .string("2026-12-01"), in: born, clock: clock))
        XCTAssertNil(q.ruleProblem(q.index("visit"), value: .string("2000-12-01"), in: born, clock: clock))
        XCTAssertNotNil(q.ruleProblem(q.index("visit"), value: .string("2000-11-30"), in: born, clock: clock))
        XCTAssertNotNil(q.ruleProblem(q.index("visit"), value: .string("2026-12-02"), in: born, clock: clock))
        XCTAssertNil(q.ruleProblem(q.index("born"), value: .string("1999-02-28"), in: Record([:]), clock: clock))
        XCTAssertNil(q.ruleProblem(q.index("seen"), value: .string("2026-12-01T00:30:00+01:00"), in: Record([:]), clock: clock))
        XCTAssertNotNil(q.ruleProblem(q.index("seen"), value: .string("2026-12-01T00:31:00+01:00"), in: Record([:]), clock: clock))

        func eval(_ text: String) throws -> FormValue {
            try FormExpression(parsing: text).evaluate(in: FormContext(now: clock.now, timeZone: clock.timeZone) { _ in .string("") })
        }
        XCTAssertEqual(try eval("'2024-03-01' - '2024-02-28'").number, 2, "2024 is a leap year")
        XCTAssertEqual(try eval("'1970-01-02'").number, 1)
        XCTAssertEqual(try eval("'1969-12-31'").number, -1)
        XCTAssertEqual(try eval("'2026-12-01T12:00:00Z' - '2026-12-01'").number, 0.5)
        XCTAssertTrue(try eval("'2023-02-29' > 0").boolean == false, "no such day: not a number")
        XCTAssertTrue(try eval("number('0x10')").number.isNaN, "XPath reads decimal digits only")
        XCTAssertTrue(try eval("number('inf')").number.isNaN)
        XCTAssertTrue(try eval("number('nan')").number.isNaN)
        XCTAssertEqual(try eval("number('0.0000001')").number, 1e-7, "a stored real reaches a rule so, and reads back")
        XCTAssertTrue(try eval("number('1e-07')").number.isNaN, "XPath's numbers have no exponent")
    }

    // MARK: problems

    func testProblemsListsTheShownQuestionsProblemsInFormOrder() throws {
        let q = try skipLogic()
        func problems(_ values: [String: PropertyValue]) -> [String] {
            q.problems(in: Record(values), clock: clock).map { "\(q.fields[$0.index].key): \($0.message)" }
        }
        XCTAssertEqual(problems([:]), ["age: Say the age"], "smoker and the work group are not shown without an age")
        XCTAssertEqual(problems(["age": .integer(151)]),
                       ["age: Age is 0 to 150", "smoker: Smokes? is required", "job: Job is required"])
        XCTAssertEqual(problems(["age": .integer(13), "smoker": .string("no"), "job": .string("")]), [],
                       "a hidden question's answer (or its absence) is no problem")
        XCTAssertEqual(problems(["age": .integer(30), "smoker": .string("yes"), "per_day": .integer(50), "limit": .integer(20),
                                 "job": .string("nurse")]),
                       ["per_day: Cigarettes a day: the answer is not accepted by the form's rule", "wage: Give the wage"])
        XCTAssertEqual(problems(["age": .string("thirty")]), ["age: Age must be a whole number"],
                       "a value of the wrong type is reported with the type's words")
        XCTAssertEqual(problems(["age": .string("30"), "smoker": .string("maybe"), "job": .string("x"), "wage": .string("12")]),
                       ["smoker: “maybe” is not one of the choices of Smokes?"],
                       "text the form would store as a number is fine: it is what an import gives")
        XCTAssertEqual(problems(["age": .real(30), "smoker": .string("no"), "job": .string("x"), "wage": .integer(12)]), [])
        XCTAssertEqual(problems(["age": .integer(20), "smoker": .string("no"), "job": .string("x"), "wage": .bool(true)]),
                       ["wage: Hourly wage must be a number, not a boolean"])
    }

    func testTheHouseholdExampleAcceptsACompleteSurvey() throws {
        let q = try FormTestSupport.household()
        var record = Record(["fname": .string("Ana"), "lname": .string("Lima"), "age": .integer(34), "sex": .string("female"),
                             "consent": .string("yes"), "region": .string("south"), "district": .string("delta"),
                             "village": .string("Kisumu"), "members": .integer(5), "children": .integer(2),
                             "water": .string("tap other"), "water_other": .string("Neighbour's tank"),
                             "distance": .real(0.5), "has_phone": .string("no"), "visit_date": .string("2026-11-30"),
                             "visit_time": .string("10:15"), "rating": .string("good"), "confirm": .string("OK")])
        XCTAssertEqual(q.problems(in: record, clock: clock).map(\.message), [])
        record.values["confirm"] = nil
        record.values["children"] = .integer(6)
        record.values["water"] = .string("tap")
        XCTAssertEqual(q.problems(in: record, clock: clock).map { "\(q.fields[$0.index].key): \($0.message)" },
                       ["children: Cannot be more than the people living here", "confirm: Answers read back is required"],
                       "water_other is no longer asked")
        XCTAssertEqual(q.problems(in: Record(["consent": .string("no")]), clock: clock).map { q.fields[$0.index].key },
                       ["fname", "lname", "age", "confirm"], "without consent the household questions are not asked")
    }

    // MARK: calculations

    /// Calculations settle in any order: ODK orders them by what they read, not by row.
    func testCalculationsChainInAnyOrder() throws {
        let csv = """
        survey,,,,
        ,type,name,label,calculation
        ,calculate,c1,,${c2} + 1
        ,calculate,c2,,${c3} + 1
        ,calculate,c3,,${c4} + 1
        ,calculate,c4,,${c5} + 1
        ,calculate,c5,,${c6} + 1
        ,calculate,c6,,${start} * 2
        ,integer,start,Start,
        ,calculate,label,,"concat('#', ${c1})"
        """
        let q = try FormTestSupport.questionnaire(csv)
        var hidden: [String: PropertyValue] = [:]
        let settled = q.settled(Record(["start": .integer(5)]), hidden: &hidden, clock: clock)
        XCTAssertEqual(settled.values, ["start": .integer(5), "c6": .string("10"), "c5": .string("11"), "c4": .string("12"),
                                        "c3": .string("13"), "c2": .string("14"), "c1": .string("15"), "label": .string("#15")])
        var cleared = settled
        cleared.values["start"] = nil
        XCTAssertEqual(q.settled(cleared, hidden: &hidden, clock: clock).values, ["label": .string("#")],
                       "a calculation that is no number (NaN) or empty is left out")
    }

    /// ODK Validate (JavaRosa, bundled with pyxform) accepts the chain above.
    func testODKAcceptsAChainInAnyOrder() throws {
        let csv = """
        survey,,,,
        ,type,name,label,calculation
        ,calculate,c1,,${c2} + 1
        ,calculate,c2,,${c3} + 1
        ,calculate,c3,,1
        """
        XCTAssertNil(try FormTestSupport.pyxform(csv, validate: true)["error"])
    }

    func testACalculationCanShowAQuestion() throws {
        let csv = """
        survey,,,,,
        ,type,name,label,calculation,relevant
        ,integer,members,Members,,
        ,integer,children,Children,,
        ,calculate,adults,,${members} - ${children},
        ,text,head,Head of household,,${adults} > 0
        """
        let q = try FormTestSupport.questionnaire(csv)
        var hidden: [String: PropertyValue] = [:]
        let some = q.settled(Record(["members": .integer(3), "children": .integer(1), "head": .string("Ana")]), hidden: &hidden, clock: clock)
        XCTAssertEqual(some.values["adults"], .string("2"))
        XCTAssertEqual(some.values["head"], .string("Ana"))
        var none = some
        none.values["children"] = .integer(3)
        let noAdults = q.settled(none, hidden: &hidden, clock: clock)
        XCTAssertEqual(noAdults.values["adults"], .string("0"))
        XCTAssertNil(noAdults.values["head"])
        XCTAssertEqual(hidden, ["head": .string("Ana")])
    }

    /// A form whose rules go round in a circle is refused when read, as ODK Validate refuses
    /// it; one that only looks circular (a constraint, a choice filter) is not. A `relevant` or
    /// `required` that reads only its own answer is accepted though ODK Validate refuses it
    /// (pyxform converts it: issue 18), the relevant with a warning; a calculation that reads
    /// itself is still refused.
    func testACycleBetweenRulesIsRefusedAsODKRefusesItButARuleReadingItsOwnAnswerIsNot() throws {
        let header = "survey,,,,,,,\n,type,name,label,relevant,calculation,required,constraint,choice_filter\n"
        let yn = "choices,,,\n,list_name,name,label\n,l,x,X\n,l,y,Y\n"
        let readsItself = "survey row 3, relevant: ${a}’s relevant reads its own answer: it is judged on the answer as it stands, "
            + "so an empty answer may hide the question for good"
        let cases: [(name: String, body: String, errors: [String], warnings: [String], odkAccepts: Bool)] = [
            ("itself", ",text,a,A,${a} = '',,,,\n", [], [readsItself], false),
            ("dot", ",text,a,A,. = '',,,,\n", [], [readsItself], false),
            ("required reads its own answer", ",text,a,A,,,. = '',,\n", [], [], false),
            ("calculation reads itself", ",calculate,a,,,${a} + 1,,,\n", ["survey row 3, calculation: ${a} depends on itself"], [], false),
            ("two calculations", ",calculate,a,,,${b} + 1,,,\n,calculate,b,,,${a} + 1,,,\n",
             ["survey row 3, calculation: ${a} depends on itself: ${a} → ${b} → ${a}"], [], false),
            ("relevant and calculation", ",text,a,A,${b} = '1',,,,\n,calculate,b,,,${a},,,\n",
             ["survey row 3, relevant: ${a} depends on itself: ${a} → ${b} → ${a}"], [], false),
            ("required", ",integer,a,A,,,${b} = 1,,\n,integer,b,B,,,${a} = 1,,\n",
             ["survey row 3, required: ${a} depends on itself: ${a} → ${b} → ${a}"], [], false),
            ("group", ",begin group,g,G,${x} = '1',,,,\n,text,x,X,,,,,\n,end group,,,,,,,\n",
             ["survey row 3, relevant: ${g} depends on itself: ${g} → ${x} → ${g} (a question inside a group depends on the group’s relevant)"],
             [], false),
            ("constraint", ",integer,a,A,,,,. > ${b},\n,integer,b,B,,,,. < ${a},\n", [], [], true),
            ("choice filter", ",select_one l,a,A,,,,,name != ${a}\n" + yn, [], [], true),
            ("chain", ",calculate,a,,,${b},,,\n,calculate,b,,,1,,,\n,text,c,C,${a} = 1,,${b} = 1,,\n", [], [], true),
        ]
        let verdicts = try FormTestSupport.odkValidates(cases.map { header + $0.body })
        for (test, odkAccepts) in zip(cases, verdicts) {
            XCTAssertEqual(odkAccepts, test.odkAccepts, "ODK Validate on \(test.name)")
            let result = XLSForm.read(try XLSFormSheets.csv(header + test.body))
            XCTAssertEqual(result.errors.map(\.description), test.errors, test.name)
            XCTAssertEqual(result.warnings.map(\.description), test.warnings, test.name)
        }
    }

    /// A `required` that reads its own answer (`pulldata(…, .)`, `. = ''`) is judged like a
    /// constraint, on the answer as it stands; a `relevant` that does is judged on it too, and
    /// the dependency graph has no edge from the question to itself, so settling is one pass.
    /// (The choice list is not named `ids`: pyxform refuses a list named like a `pulldata` file.)
    func testARuleReadingItsOwnAnswerIsJudgedOnTheAnswerAsItStands() throws {
        let csv = """
            survey,,,,
            ,type,name,label,relevant,required
            ,text,code,Code,,. = ''
            ,text,part,Part,,"pulldata('ids', 'must', 'name', .) = 'yes'"
            ,text,note,Note,. != 'n/a',
            choices,,,,
            ,list_name,name,label,must
            ,parts,P1,One,yes
            ,parts,P2,Two,no
            """
        let result = XLSForm.read(try XLSFormSheets.csv(csv))
        XCTAssertEqual(result.errors.map(\.description), [])
        XCTAssertEqual(result.warnings.map(\.row), [5], "only the relevant is worth a warning")
        let q = Questionnaire(form: try XCTUnwrap(result.form))
        let code = q.index("code"), part = q.index("part"), note = q.index("note")
        XCTAssertNotNil(q.ruleProblem(code, value: nil, in: Record(), clock: clock), "empty: its required holds")
        XCTAssertNil(q.ruleProblem(code, value: .string("x"), in: Record(), clock: clock))
        XCTAssertNil(q.ruleProblem(part, value: nil, in: Record(), clock: clock), "no id, no row of the list: not required")
        XCTAssertEqual(q.shown(Record()).filter { $0 == "note" }, ["note"])
        XCTAssertEqual(q.shown(Record(["note": .string("n/a")])).filter { $0 == "note" }, [])
        let graph = try XCTUnwrap(q.dependencies)
        XCTAssertFalse(graph.inputs[note].contains(note))
        XCTAssertNotNil(graph.order, "no cycle: settled in one pass")
    }

    // MARK: choice_filter

    func testChoiceFilterCascadesFromTheRegionToItsDistricts() throws {
        let q = try FormTestSupport.household()
        let district = q.index("district")
        func offered(_ values: [String: PropertyValue]) -> [String] {
            q.choices(for: district, in: Record(values), clock: clock).map(\.name)
        }
        XCTAssertEqual(offered([:]), [], "no region yet: no district matches")
        XCTAssertEqual(offered(["region": .string("north")]), ["hill", "lake"])
        XCTAssertEqual(offered(["region": .string("south")]), ["coast", "delta"])
        XCTAssertEqual(q.choices(for: q.index("region"), in: Record([:]), clock: clock).map(\.name), ["north", "south"],
                       "no filter: the whole list")
        XCTAssertEqual(q.choices(for: q.index("confirm"), in: Record([:]), clock: clock).map(\.name), ["OK"])
        XCTAssertEqual(q.choices(for: q.index("fname"), in: Record([:]), clock: clock), [])
        XCTAssertEqual(q.choices(for: q.index("water"), in: Record([:]), clock: clock).map(\.name),
                       ["tap", "well", "river", "rain", "other"])
    }

    /// A district of another region is refused, as ODK offers (and keeps) only the filtered
    /// choices; the same words as a name not in the list.
    func testAnAnswerOutsideTheFilteredChoicesIsAProblem() throws {
        let q = try FormTestSupport.household()
        let district = q.index("district")
        XCTAssertEqual(q.ruleProblem(district, value: .string("coast"), in: Record(["region": .string("north")]), clock: clock),
                       "“coast” is not one of the choices of District")
        XCTAssertNil(q.ruleProblem(district, value: .string("hill"), in: Record(["region": .string("north")]), clock: clock))
        XCTAssertNil(q.ruleProblem(district, value: nil, in: Record(["region": .string("north")]), clock: clock))
        let record = Record(["fname": .string("A"), "lname": .string("B"), "age": .integer(40), "consent": .string("yes"),
                             "region": .string("north"), "district": .string("delta"), "confirm": .string("OK")])
        XCTAssertEqual(q.problems(in: record, clock: clock).map { "\(q.fields[$0.index].key): \($0.message)" },
                       ["district: “delta” is not one of the choices of District"])
    }

    /// Changing the region puts a district of the old region aside (not saved) instead of
    /// leaving an answer the form no longer offers; changing back brings it back.
    func testACascadingAnswerTheParentNoLongerOffersIsPutAsideAndComesBack() throws {
        let q = try FormTestSupport.household()
        var hidden: [String: PropertyValue] = [:]
        let north = Record(["consent": .string("yes"), "region": .string("north"), "district": .string("lake")])
        XCTAssertEqual(q.settled(north, hidden: &hidden, clock: clock).values["district"], .string("lake"))
        var south = north
        south.values["region"] = .string("south")
        let moved = q.settled(south, hidden: &hidden, clock: clock)
        XCTAssertNil(moved.values["district"], "lake is not a southern district")
        XCTAssertEqual(hidden["district"], .string("lake"))
        var back = moved
        back.values["region"] = .string("north")
        XCTAssertEqual(q.settled(back, hidden: &hidden, clock: clock).values["district"], .string("lake"))
        XCTAssertNil(hidden["district"])
    }

    /// Bare choice-column names, `name`, `selected()` and numbers, as real forms write them;
    /// pyxform (and ODK Validate) accept every one of these filters.
    func testChoiceFiltersReadTheChoicesColumns() throws {
        let csv = """
        survey,,,,
        ,type,name,label,choice_filter
        ,integer,age,Age,
        ,select_multiple crop,grown,Crops grown,
        ,select_one crop,main,Main crop,"selected(${grown}, name)"
        ,select_one crop,second,Second crop,"selected(${grown}, name) and name != ${main}"
        ,select_one job,job,Job,min_age <= ${age}
        choices,,,,
        ,list_name,name,label,min_age
        ,crop,maize,Maize,
        ,crop,beans,Beans,
        ,crop,rice,Rice,
        ,job,herd,Herding,8
        ,job,drive,Driving,18
        ,job,retire,Retired,60
        """
        XCTAssertNil(try FormTestSupport.pyxform(csv, validate: true)["error"])
        let q = try FormTestSupport.questionnaire(csv)
        let record = Record(["age": .integer(18), "grown": .string("maize rice"), "main": .string("rice")])
        XCTAssertEqual(q.choices(for: q.index("main"), in: record, clock: clock).map(\.name), ["maize", "rice"])
        XCTAssertEqual(q.choices(for: q.index("second"), in: record, clock: clock).map(\.name), ["maize"])
        XCTAssertEqual(q.choices(for: q.index("job"), in: record, clock: clock).map(\.name), ["herd", "drive"],
                       "numbers compare as numbers: 8 <= 18, 60 > 18")
        XCTAssertEqual(q.choices(for: q.index("job"), in: Record(["age": .integer(7)]), clock: clock).map(\.name), [])
    }

    /// pyxform refuses or_other with a choice_filter (its `other` has no column to filter
    /// on); so does the reader.
    func testOrOtherWithAChoiceFilterIsRefusedAsPyxformRefusesIt() throws {
        let csv = """
        survey,,,,
        ,type,name,label,choice_filter
        ,select_one r,r,R,
        ,select_one d or_other,d,D,r = ${r}
        choices,,,,
        ,list_name,name,label,r
        ,r,n,N,
        ,d,x,X,n
        """
        let oracle = try FormTestSupport.pyxform(csv)
        XCTAssertEqual(oracle["error"] as? String, "[row : 3] Choice filter not supported with or_other.")
        XCTAssertEqual(XLSForm.read(try XLSFormSheets.csv(csv)).errors.map(\.description),
                       ["survey row 4, choice_filter: a choice_filter cannot be used with or_other"])
        XCTAssertEqual(XLSForm.read(try XLSFormSheets.csv(csv.replacingOccurrences(of: " or_other", with: ""))).errors, [])
    }

    // MARK: defaults

    private static let defaults = """
    survey,,,,,
    ,type,name,label,default,relevant
    ,integer,members,Members,1,
    ,text,village,Village,Springfield,
    ,select_one yn,consent,Consent,yes,
    ,date,visit,Visit,2026-01-15,
    ,decimal,distance,Distance,2.5,
    ,text,later,Later,x,${members} > 1
    choices,,,,,
    ,list_name,name,label,,
    ,yn,yes,Yes,,
    ,yn,no,No,,
    """

    func testDefaultsFillWhatIsStillUnansweredAsTheirType() throws {
        let q = try FormTestSupport.questionnaire(Self.defaults)
        XCTAssertEqual(q.defaultText(q.index("members"), clock: .wall), "1")
        XCTAssertEqual(q.defaultText(q.index("village"), clock: .wall), "Springfield")
        XCTAssertNil(Questionnaire.standard.defaultText(0, clock: .wall))
        let done = q.completed(Record([:]), clock: clock)
        XCTAssertEqual(done.values, ["members": .integer(1), "village": .string("Springfield"), "consent": .string("yes"),
                                     "visit": .string("2026-01-15"), "distance": .real(2.5)],
                       "stored as each type stores it; `later` is not shown (a default its type refuses is refused with the form: XLSFormCheckTests)")
        let given = q.completed(Record(["village": .string("Shelbyville"), "members": .integer(3)]), clock: clock)
        XCTAssertEqual(given.values["village"], .string("Shelbyville"), "an answer is never replaced by the default")
        XCTAssertEqual(given.values["later"], .string("x"), "shown now, so its default applies")
    }

    /// ODK puts every default in the survey from the start; a default that shows another
    /// question gives that question its default too.
    func testADefaultThatShowsAQuestionGivesItItsDefault() throws {
        let q = try FormTestSupport.questionnaire(Self.defaults.replacingOccurrences(of: ",integer,members,Members,1,",
                                                                                    with: ",integer,members,Members,4,"))
        XCTAssertEqual(q.completed(Record([:]), clock: clock).values["later"], .string("x"))
    }

    /// `today()` or an answer in a default is computed (pyxform's dynamic default); a
    /// plain default such as a date is its text, never arithmetic.
    func testADefaultWithAFunctionOrAnAnswerIsComputed() throws {
        let q = try FormTestSupport.questionnaire("""
        survey,,,,
        ,type,name,label,default
        ,text,village,Village,Springfield
        ,date,visit,Visit,today()
        ,date,fixed,Fixed,2026-01-15
        ,text,copy,Copy,${village}
        """)
        XCTAssertEqual(q.defaultText(q.index("visit"), clock: clock), "2026-12-01", "today() where the clock's zone is")
        XCTAssertEqual(q.defaultText(q.index("fixed"), clock: clock), "2026-01-15")
        XCTAssertEqual(q.defaultText(q.index("copy"), in: Record(["village": .string("Lakeside")]), clock: clock), "Lakeside")
        let done = q.completed(Record(["village": .string("Lakeside")]), clock: clock)
        XCTAssertEqual(done.values["visit"], .string("2026-12-01"))
        XCTAssertEqual(done.values["copy"], .string("Lakeside"))
    }

    // MARK: metadata, form id and version

    func testCompletedStampsMetadataAndTheFormsIDAndVersion() throws {
        let csv = """
        survey,,,,
        ,type,name,label,relevant
        ,start,started,,
        ,end,ended,,
        ,today,day,,
        ,deviceid,device,,
        ,username,enumerator,,
        ,text,name,Name,
        ,integer,age,Age,
        ,text,guardian,Guardian,${age} < 18
        ,note,done,Done,
        settings,,,,
        ,form_title,form_id,version,
        ,T,census_2026,7,
        """
        let q = try FormTestSupport.questionnaire(csv)
        let started = clock.now.addingTimeInterval(-600)
        let done = q.completed(Record(["name": .string("Ana"), "age": .integer(30), "guardian": .string("Rui")]),
                               started: started, device: DeviceMetadata(deviceID: "collect:abc123", username: "ana.lima"), clock: clock)
        XCTAssertEqual(done.values, [
            "started": .string("2026-12-01T00:20:00+01:00"), "ended": .string("2026-12-01T00:30:00+01:00"),
            "day": .string("2026-12-01"), "device": .string("collect:abc123"), "enumerator": .string("ana.lima"),
            "name": .string("Ana"), "age": .integer(30),
            "formID": .string("census_2026"), "formVersion": .string("7"),
        ], "the guardian of an adult is not asked, so not saved")
        XCTAssertEqual(Questionnaire.formIDKey, "formID")
        XCTAssertEqual(Questionnaire.formVersionKey, "formVersion")

        let utc = Questionnaire.Clock(now: clock.now, timeZone: TimeZoneRule(secondsFromGMT: 0))
        let plain = q.completed(Record(["name": .string("Ana")]), clock: utc)
        XCTAssertEqual(plain.values["started"], .string("2026-11-30T23:30:00Z"), "no start given: now")
        XCTAssertEqual(plain.values["ended"], .string("2026-11-30T23:30:00Z"))
        XCTAssertEqual(plain.values["day"], .string("2026-11-30"), "the day where the clock is")
        XCTAssertNil(plain.values["device"], "no device id: left out")
        XCTAssertNil(plain.values["enumerator"], "no user name: left out")
    }

    func testAFormWithoutIDOrVersionStampsNothing() throws {
        let q = try FormTestSupport.questionnaire("survey,,,\n,type,name,label\n,text,name,Name\n")
        XCTAssertEqual(q.completed(Record(["name": .string("Ana")]), clock: clock).values, ["name": .string("Ana")])
        let household = try FormTestSupport.household()
        let stamped = household.completed(Record(["fname": .string("Ana")]), clock: clock)
        XCTAssertEqual(stamped.values["formID"], .string("household"))
        XCTAssertEqual(stamped.values["formVersion"], .string("2026113001"))
        XCTAssertEqual(stamped.values["start"], .string("2026-12-01T00:30:00+01:00"))
        XCTAssertEqual(stamped.values["today"], .string("2026-12-01"))
    }

    // MARK: title

    func testTheTitleIsTheFormsInstanceName() throws {
        let q = try FormTestSupport.household()
        XCTAssertEqual(q.title(of: Record(["fname": .string("Ana"), "lname": .string("Lima")])), "Lima, Ana")
        XCTAssertEqual(q.title(of: Record(["fname": .string(" Ana\tMaria "), "lname": .string("Lima")])), "Lima,  Ana Maria",
                       "line breaks and tabs become spaces, so a title stays on its row")
        XCTAssertEqual(q.title(of: Record(["fname": .string("Ana"), "lname": .string("Lima")]), limit: 4), "Lima")
        XCTAssertEqual(q.title(of: Record(["lname": .string("Lima")])), "Lima,")
        XCTAssertEqual(q.title(of: Record([:])), "(no name)", "an instance name of nothing but \", \" names nothing")
        XCTAssertEqual(q.title(of: Record(["village": .string("Kisumu")])), "Kisumu",
                       "when the instance name is empty, the first text answers")
    }

    func testWithoutAnInstanceNameTheFirstTwoTextAnswersMakeTheTitle() throws {
        let csv = """
        survey,,,
        ,type,name,label
        ,integer,number,Number
        ,text,a,A
        ,select_one yn,pick,Pick
        ,text,b,B
        ,text,c,C
        choices,,,
        ,list_name,name,label
        ,yn,yes,Yes
        """
        let q = try FormTestSupport.questionnaire(csv)
        XCTAssertEqual(q.title(of: Record(["number": .integer(7), "a": .string("Ana"), "pick": .string("yes"),
                                           "b": .string("Lima"), "c": .string("Rua 1")])), "Ana, Lima")
        XCTAssertEqual(q.title(of: Record(["a": .string("  "), "b": .string("Lima"), "c": .string("Rua 1")])), "Lima, Rua 1",
                       "blank answers are skipped")
        XCTAssertEqual(q.title(of: Record(["c": .string("Rua 1")])), "Rua 1")
        XCTAssertEqual(q.title(of: Record(["number": .integer(7), "pick": .string("yes")])), "(no name)",
                       "only text answers name a survey")
        XCTAssertEqual(q.title(of: Record(["a": .string("Ana"), "b": .string("Lima")]), limit: 6), "Ana, L")
    }
}
