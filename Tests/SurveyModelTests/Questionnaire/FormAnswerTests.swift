import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Each XLSForm type's own rule at its bounds (`FieldSpec.parse`), the type stored (as ODK
/// submissions hold answers), and the same rule for values that did not come from the
/// keyboard (`accepts`, `imported`).
final class FormAnswerTests: XCTestCase {
    private static let csv = """
    survey,,,
    ,type,name,label
    ,integer,count,Count
    ,decimal,weight,Weight
    ,date,born,Born
    ,time,woke,Woke
    ,dateTime,seen,Seen
    ,select_one yn,smoker,Smokes?
    ,select_multiple fruit,fruits,Fruits
    ,select_one num,floor,Floor
    ,acknowledge,ok,Read back
    ,text,notes,Notes
    choices,,,
    ,list_name,name,label
    ,yn,yes,Yes
    ,yn,no,No
    ,fruit,apple,Apple
    ,fruit,mango,Mango
    ,fruit,kiwi,Kiwi
    ,num,1,First
    ,num,2,Second
    """

    private var questionnaire: Questionnaire!

    override func setUpWithError() throws {
        questionnaire = try FormTestSupport.questionnaire(Self.csv)
    }

    private func field(_ key: String) -> FieldSpec { questionnaire.field(forKey: key)! }

    /// What typing `text` stores, as `integer(42)` / `none`, or the message.
    private func stored(_ text: String, _ key: String) -> String {
        switch field(key).parse(text) {
        case .success(let value?): return "\(value)"
        case .success(nil): return "none"
        case .failure(let error): return error.message
        }
    }

    func testIntegerIsASCIIDigitsWithAnOptionalSignStoredAsAnInteger() {
        XCTAssertEqual(field("count").kind, .wholeNumber(Int.min...Int.max))
        XCTAssertEqual(stored("42", "count"), "integer(42)")
        XCTAssertEqual(stored("0", "count"), "integer(0)")
        XCTAssertEqual(stored("-7", "count"), "integer(-7)")
        XCTAssertEqual(stored("+7", "count"), "integer(7)", "an optional sign is either sign, as xsd:int writes it")
        XCTAssertEqual(stored(" 012 ", "count"), "integer(12)")
        XCTAssertEqual(stored("9223372036854775807", "count"), "integer(9223372036854775807)")
        XCTAssertEqual(stored("-9223372036854775808", "count"), "integer(-9223372036854775808)", "the lowest Int is a whole number too")
        XCTAssertEqual(stored("", "count"), "none")
        XCTAssertEqual(stored(" \t", "count"), "none")
        for bad in ["4.5", "1e2", "12a", "-", "+", "--1", "+-1", "1 000", "٤٢", "４２", "9223372036854775808", "0x10", "−5"] {
            XCTAssertEqual(stored(bad, "count"), "Count must be a whole number", bad)
        }
    }

    func testDecimalIsStoredAsARealEvenWhenWhole() {
        XCTAssertEqual(field("weight").kind, .decimal)
        XCTAssertEqual(stored("1.5", "weight"), "real(1.5)")
        XCTAssertEqual(stored("3", "weight"), "real(3.0)", "a decimal answer is a real, never an integer")
        XCTAssertEqual(stored("-0.25", "weight"), "real(-0.25)")
        XCTAssertEqual(stored(".5", "weight"), "real(0.5)")
        XCTAssertEqual(stored(" 2.75 ", "weight"), "real(2.75)")
        XCTAssertEqual(stored("", "weight"), "none")
        for bad in ["1,5", "abc", "1.2.3", "-", ".", "1e999", "nan", "inf", "Infinity", "١٫٥", "1 5", "0x1p3"] {
            XCTAssertEqual(stored(bad, "weight"), "Weight must be a number", bad)
        }
    }

    func testDateIsARealCalendarDayIncludingLeapDays() {
        XCTAssertEqual(stored("2024-02-29", "born"), "string(\"2024-02-29\")", "2024 is a leap year")
        XCTAssertEqual(stored("2000-02-29", "born"), "string(\"2000-02-29\")", "divisible by 400: leap")
        XCTAssertEqual(stored("2024-12-31", "born"), "string(\"2024-12-31\")")
        XCTAssertEqual(stored("2024-01-01", "born"), "string(\"2024-01-01\")")
        XCTAssertEqual(stored(" 1999-04-30 ", "born"), "string(\"1999-04-30\")")
        XCTAssertEqual(stored("", "born"), "none")
        for bad in ["2023-02-29", "1900-02-29", "2024-02-30", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-00",
                    "2024-01-32", "2024-1-5", "24-01-05", "2024/01/05", "05-01-2024", "2024-01-05T10:00", "today",
                    "٢٠٢٤-٠٢-٢٩", "２０２４-０２-２９", "0000-01-01"] {
            XCTAssertEqual(stored(bad, "born"), "Born must be a date, YYYY-MM-DD", bad)
        }
    }

    func testTimeIsHoursAndMinutesWithOptionalSeconds() {
        XCTAssertEqual(stored("00:00", "woke"), "string(\"00:00\")")
        XCTAssertEqual(stored("23:59", "woke"), "string(\"23:59\")")
        XCTAssertEqual(stored("23:59:59", "woke"), "string(\"23:59:59\")")
        XCTAssertEqual(stored("07:05:00", "woke"), "string(\"07:05:00\")")
        XCTAssertEqual(stored("", "woke"), "none")
        for bad in ["24:00", "23:60", "12:30:60", "7:30", "0730", "12:3", "12:30:5", "12h30", "١٢:٣٠", "12:30 pm"] {
            XCTAssertEqual(stored(bad, "woke"), "Woke must be a time, HH:MM", bad)
        }
    }

    func testDateTimeIsISO8601WithAZone() {
        for good in ["2026-11-18T10:06:40+01:00", "2026-11-18T10:06:40Z", "2026-11-18T10:06:40.250Z",
                     "2024-02-29T23:59:59-05:00", "2026-11-18T00:00:00Z"] {
            XCTAssertEqual(stored(good, "seen"), "string(\"\(good)\")", good)
        }
        XCTAssertEqual(stored("", "seen"), "none")
        for bad in ["2026-11-18T10:06:40", "2026-11-18", "2026-11-18 10:06:40Z", "2023-02-29T10:00:00Z",
                    "2026-04-31T10:00:00Z", "2026-11-18T24:00:00Z", "2026-11-18T10:60:00Z", "2026-13-01T10:00:00Z",
                    "2026-11-18T10:06Z", "yesterday"] {
            XCTAssertEqual(stored(bad, "seen"), "Seen must be a date and time, YYYY-MM-DDTHH:MM:SS±HH:MM", bad)
        }
    }

    func testSelectOneIsOneNameFromItsList() {
        XCTAssertEqual(field("smoker").kind, .choice(list: "yn", names: ["yes", "no"], multiple: false))
        XCTAssertEqual(stored("yes", "smoker"), "string(\"yes\")")
        XCTAssertEqual(stored(" no ", "smoker"), "string(\"no\")")
        XCTAssertEqual(stored("", "smoker"), "none")
        XCTAssertEqual(stored("Yes", "smoker"), "“Yes” is not one of the choices of Smokes?", "names are matched exactly, as ODK does")
        XCTAssertEqual(stored("maybe", "smoker"), "“maybe” is not one of the choices of Smokes?")
        XCTAssertEqual(stored("yes no", "smoker"), "“yes no” is not one of the choices of Smokes?", "select_one holds one name")
        XCTAssertEqual(stored("1", "floor"), "string(\"1\")", "a numeric choice name is stored as its name, text")
    }

    func testSelectMultipleIsNamesSeparatedBySpaces() {
        XCTAssertEqual(field("fruits").kind, .choice(list: "fruit", names: ["apple", "mango", "kiwi"], multiple: true))
        XCTAssertEqual(stored("mango", "fruits"), "string(\"mango\")")
        XCTAssertEqual(stored("kiwi apple", "fruits"), "string(\"kiwi apple\")", "in the order chosen")
        XCTAssertEqual(stored("  apple   mango  ", "fruits"), "string(\"apple mango\")", "one space between names")
        XCTAssertEqual(stored("apple mango apple", "fruits"), "string(\"apple mango\")", "each name once")
        XCTAssertEqual(stored("", "fruits"), "none")
        XCTAssertEqual(stored("apple pear", "fruits"), "“pear” is not one of the choices of Fruits")
        XCTAssertEqual(stored("apple,mango", "fruits"), "“apple,mango” is not one of the choices of Fruits")
    }

    func testAcknowledgeIsOKOrNothing() {
        XCTAssertEqual(field("ok").kind, .acknowledge)
        XCTAssertEqual(field("ok").choiceLabels, ["OK": "OK"])
        XCTAssertEqual(stored("OK", "ok"), "string(\"OK\")")
        XCTAssertEqual(stored("ok", "ok"), "string(\"OK\")", "stored as ODK writes it")
        XCTAssertEqual(stored("", "ok"), "none")
        for bad in ["yes", "1", "true", "OKAY"] {
            XCTAssertEqual(stored(bad, "ok"), "Read back is answered OK, or left empty", bad)
        }
    }

    func testTextOfAFormIsTrimmedAndAnEmptyAnswerIsLeftOut() {
        XCTAssertEqual(field("notes").kind, .text(maxLength: Int.max))
        XCTAssertFalse(field("notes").storesEmptyText)
        XCTAssertEqual(stored("  Ana Lima ", "notes"), "string(\"Ana Lima\")")
        XCTAssertEqual(stored("   ", "notes"), "none", "ODK leaves an unanswered question out")
    }

    func testControlCharactersAreRefusedByEveryType() {
        for key in ["weight", "born", "woke", "seen", "smoker", "fruits", "ok", "notes"] {
            XCTAssertEqual(stored("1\u{1}", key), "\(field(key).label) cannot hold control characters", key)
            XCTAssertEqual(stored("\u{85}", key), "\(field(key).label) cannot hold control characters", key)
        }
        // An integer is judged as the original age is: digits or nothing.
        XCTAssertEqual(stored("1\u{1}", "count"), "Count must be a whole number")
    }

    func testStoredValuesAreAcceptedOnlyInTheStoredType() {
        XCTAssertTrue(field("count").accepts(.integer(-3)))
        XCTAssertFalse(field("count").accepts(.string("3")))
        XCTAssertFalse(field("count").accepts(.real(3)))
        XCTAssertTrue(field("weight").accepts(.real(2.5)))
        XCTAssertFalse(field("weight").accepts(.integer(2)), "a decimal is stored as a real")
        XCTAssertFalse(field("weight").accepts(.string("2.5")))
        XCTAssertTrue(field("born").accepts(.string("2024-02-29")))
        XCTAssertFalse(field("born").accepts(.string("2023-02-29")))
        XCTAssertFalse(field("born").accepts(.date(Date(timeIntervalSince1970: 0))))
        XCTAssertTrue(field("woke").accepts(.string("06:30")))
        XCTAssertTrue(field("seen").accepts(.string("2026-11-18T10:06:40Z")))
        XCTAssertTrue(field("fruits").accepts(.string("kiwi apple")))
        XCTAssertFalse(field("fruits").accepts(.string("kiwi  apple")), "not as ODK writes it")
        XCTAssertFalse(field("smoker").accepts(.string("maybe")))
        XCTAssertTrue(field("ok").accepts(.string("OK")))
        XCTAssertFalse(field("ok").accepts(.string("ok")))
        XCTAssertFalse(field("ok").accepts(.bool(true)))
        XCTAssertTrue(field("notes").accepts(.string("x")))
        for key in ["count", "weight", "born", "smoker", "ok", "notes"] {
            XCTAssertTrue(field(key).accepts(nil), "no answer is always accepted by the type: \(key)")
        }
    }

    func testImportedValuesBecomeWhatTheFormWouldStore() {
        func imported(_ value: PropertyValue, _ key: String) -> String {
            switch field(key).imported(value) {
            case .success(let v?): return "\(v)"
            case .success(nil): return "none"
            case .failure(let error): return error.message
            }
        }
        XCTAssertEqual(imported(.string("35"), "count"), "integer(35)")
        XCTAssertEqual(imported(.real(42), "count"), "integer(42)", "42.0 from a JSON writer")
        XCTAssertEqual(imported(.real(42.5), "count"), "Count must be a whole number")
        XCTAssertEqual(imported(.bool(true), "count"), "Count must be a whole number")
        XCTAssertEqual(imported(.integer(2), "weight"), "real(2.0)")
        XCTAssertEqual(imported(.real(2.5), "weight"), "real(2.5)")
        XCTAssertEqual(imported(.string("2.5"), "weight"), "real(2.5)")
        XCTAssertEqual(imported(.real(.infinity), "weight"), "Weight must be a number, not a real number")
        XCTAssertEqual(imported(.string("2024-02-29"), "born"), "string(\"2024-02-29\")")
        XCTAssertEqual(imported(.integer(20240229), "born"), "Born must be a date, YYYY-MM-DD")
        XCTAssertEqual(imported(.integer(2), "floor"), "string(\"2\")", "a numeric choice name from JSON")
        XCTAssertEqual(imported(.integer(3), "floor"), "“3” is not one of the choices of Floor")
        XCTAssertEqual(imported(.string(""), "smoker"), "none")
        XCTAssertEqual(imported(.bool(true), "ok"), "Read back must be text, not a boolean")
        XCTAssertEqual(imported(.string(""), "notes"), "none")
        XCTAssertEqual(imported(.integer(5), "notes"), "Notes must be text, not an integer")
    }

    /// A time is checked byte by byte: exactly what the pattern it stands for matches, over
    /// every two-character hour and minute of digits, colons and neighbours, with and
    /// without seconds, and text around them.
    func testATimeIsWhatItsPatternMatches() throws {
        let pattern = try Regex(#"^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$"#).matchingSemantics(.unicodeScalar)
        let characters = ["0", "1", "2", "3", "5", "6", "9", ":", "/", ";", "a", "٣", "\n"]
        var checked = 0
        for a in characters { for b in characters { for c in characters { for d in characters {
            for text in ["\(a)\(b):\(c)\(d)", "\(a)\(b):\(c)\(d):\(d)\(c)", "12:\(c)\(d):\(a)\(b)", "\(a)\(b)\(c)\(d)"] {
                XCTAssertEqual(FieldSpec.isTime(text), text.contains(pattern), text.debugDescription)
                checked += 1
            }
        } } } }
        for text in ["", "1:30", "01:30 ", " 01:30", "01:30\n", "01:30:00\n", "23:59:59", "24:00", "00:00:60", "01:30:5", "01:30:599"] {
            XCTAssertEqual(FieldSpec.isTime(text), text.contains(pattern), text.debugDescription)
        }
        XCTAssertGreaterThan(checked, 100_000)
        XCTAssertTrue(FieldSpec.isTime("23:59:59"))
    }
}
