import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Records of a document with a designer's form, outside the app: the columns a file of
/// them has (form order, then instanceID, formID, formVersion, then unknown keys), and the
/// one gate every imported or scripted record passes (type, required, constraint,
/// relevant, choice_filter), which is a no-op beyond the type rules for the original five.
final class FormRecordsTests: TemporaryFolderTestCase {
    /// pyxform's CSV layout: the sheet name alone on its row, then its rows indented by one cell.
    static let tinyForm = """
        survey
        ,type,name,label,required,required_message,constraint,constraint_message,relevant,default,calculation,choice_filter
        ,start,start
        ,text,name,Name,yes,Say the name
        ,integer,age,Age,,,. >= 0 and . <= 120,Age is 0 to 120
        ,select_one yn,smokes,Smokes?,,,,,${age} >= 12
        ,integer,cigs,Cigarettes a day,yes,,,,${smokes} = 'yes'
        ,decimal,height,Height (m)
        ,select_one region,region,Region
        ,select_one town,town,Town,,,,,,,,region = ${region}
        ,select_multiple fruit,fruits,Fruits
        ,text,country,Country,,,,,,Kenya
        ,calculate,months,,,,,,,,${age} * 12
        ,note,thanks,Thanks
        choices
        ,list_name,name,label,region
        ,yn,yes,Yes
        ,yn,no,No
        ,region,north,North
        ,region,south,South
        ,town,hill,Hill,north
        ,town,coast,Coast,south
        ,fruit,apple,Apple
        ,fruit,mango,Mango
        settings
        ,form_title,form_id,version,instance_name
        ,Tiny,tiny,7,"concat(${name}, ' (', ${age}, ')')"
        """

    static func questionnaire(_ csv: String = tinyForm) throws -> Questionnaire {
        let result = XLSForm.read(try XLSFormSheets.csv(csv))
        XCTAssertEqual(result.errors, [])
        return Questionnaire(form: try XCTUnwrap(result.form))
    }

    static var householdURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/household.csv")
    }

    // MARK: - Columns

    func testColumnsAreTheFormsAnswersInOrderThenIdentityThenUnknownKeysSorted() throws {
        let household = Questionnaire(form: try XCTUnwrap(XLSForm.read(try XLSFormSheets.read(fileAt: Self.householdURL.path)).form))
        XCTAssertEqual(household.knownRecordKeys, [
            "start", "today", "fname", "lname", "age", "sex", "consent", "region", "district", "village", "members",
            "children", "adults", "water", "water_other", "distance", "has_phone", "phone", "location", "visit_date",
            "visit_time", "rating", "notes", "confirm", "instanceID", "formID", "formVersion",
        ], "no notes, no groups")
        let records = [Record(["fname": .string("Ana"), "zeta": .integer(1)]), Record(["alpha": .string("x")])]
        let table = household.csvTable(records)
        XCTAssertEqual(table.header, household.knownRecordKeys + ["alpha", "zeta"])
        XCTAssertEqual(table.rows[0].suffix(2), ["", "1"])
        XCTAssertEqual(table.rows[1].suffix(2), ["x", ""])
    }

    func testTheOriginalFiveKeepTheirExportShape() {
        let standard = Questionnaire.standard
        XCTAssertEqual(standard.knownRecordKeys, ["firstName", "lastName", "address", "phone", "age", "instanceID"])
        let document = SurveyDocument(records: [Record(["firstName": .string("Ana"), "formID": .string("x"),
                                                        "instanceID": .string("uuid:1"), "notes": .string("n")])])
        XCTAssertEqual(document.csvText(), "firstName,lastName,address,phone,age,instanceID\r\nAna,,,,,uuid:1\r\n",
                       "unknown keys (formID too) are not CSV columns without a form")
        XCTAssertEqual(document.jsonText(), """
            [
              {
                "firstName": "Ana",
                "lastName": null,
                "address": null,
                "phone": null,
                "age": null,
                "instanceID": "uuid:1",
                "formID": "x",
                "notes": "n"
              }
            ]

            """)
    }

    func testJSONHasEveryKnownKeyThenTheRecordsOwn() throws {
        let tiny = try Self.questionnaire()
        let document = SurveyDocument(records: [Record(["name": .string("Ana"), "age": .integer(30), "height": .real(1.5),
                                                        "old": .string("kept"), "formVersion": .string("6")])])
        XCTAssertEqual(document.jsonText(questionnaire: tiny), """
            [
              {
                "start": null,
                "name": "Ana",
                "age": 30,
                "smokes": null,
                "cigs": null,
                "height": 1.5,
                "region": null,
                "town": null,
                "fruits": null,
                "country": null,
                "months": null,
                "instanceID": null,
                "formID": null,
                "formVersion": "6",
                "old": "kept"
              }
            ]

            """)
    }

    // MARK: - The gate

    func testAnswersAreStoredAsODKStoresThemAndStampedWithTheForm() throws {
        let tiny = try Self.questionnaire()
        let check = tiny.checkImport([
            Record(["name": .string(" Ana "), "age": .string("30"), "smokes": .string("yes"), "cigs": .string("5"),
                    "height": .string("1.62"), "region": .string("north"), "town": .string("hill"),
                    "fruits": .string("mango apple mango"), "months": .string("360"), "old": .integer(4)]),
            Record(["name": .string("Bo"), "age": .integer(8), "formID": .string("tiny"), "formVersion": .string("6")]),
            Record(["name": .string("Cy"), "formID": .string("census")]),
        ], clock: .wall)
        XCTAssertEqual(check.problems, [])
        XCTAssertEqual(check.records, [
            Record(["name": .string("Ana"), "age": .integer(30), "smokes": .string("yes"), "cigs": .integer(5),
                    "height": .real(1.62), "region": .string("north"), "town": .string("hill"),
                    "fruits": .string("mango apple"), "months": .string("360"), "old": .integer(4),
                    "formID": .string("tiny"), "formVersion": .string("7")]),
            Record(["name": .string("Bo"), "age": .integer(8), "months": .string("96"), "formID": .string("tiny"),
                    "formVersion": .string("6")]),
            Record(["name": .string("Cy"), "formID": .string("census")]),
        ], "a record keeps the form id and version it was keyed with, and gets no other form's version; "
            + "the form computes its calculation")
        XCTAssertEqual(check.ignoredCalculations, [], "the value given is the form's")
    }

    func testEveryRuleOfTheFormRefusesWithItsMessageInFormOrder() throws {
        let tiny = try Self.questionnaire()
        let check = tiny.checkImport([
            Record(["name": .string("Ana"), "age": .string("130")]),
            Record(["age": .string("abc"), "height": .string("tall")]),
            Record(["name": .string("Cy"), "age": .string("30"), "smokes": .string("yes")]),
            Record(["name": .string("Di"), "age": .string("8"), "smokes": .string("no")]),
            Record(["name": .string("Ed"), "region": .string("north"), "town": .string("coast")]),
            Record(["name": .string("Fa"), "fruits": .string("apple kiwi")]),
            Record(["country": .string(""), "old": .string("only an unknown key")]),
        ], places: (2...8).map(ImportPlace.row), clock: .wall)
        XCTAssertEqual(check.problems.map(\.description), [
            "row 2: age \"130\": Age is 0 to 120",
            "row 3: name: Say the name",
            "row 3: age \"abc\": Age must be a whole number",
            "row 3: height \"tall\": Height (m) must be a number",
            "row 4: cigs: Cigarettes a day is required",
            "row 5: smokes \"no\": Smokes? is not asked in this survey (the form's relevant rule skips it): leave it empty",
            "row 6: town \"coast\": “coast” is not one of the choices of Town",
            "row 7: fruits \"apple kiwi\": “kiwi” is not one of the choices of Fruits",
            "row 8: every answer is empty",
        ])
    }

    func testMetadataAreKeptAsTheFileHasThemAndCalculationsAreTheForms() throws {
        let tiny = try Self.questionnaire()
        let check = tiny.checkImport([Record(["name": .string("Ana"), "age": .integer(30), "start": .string(" 2024-01-02T03:04:05Z "),
                                              "months": .real(1.5)]),
                                      Record(["name": .string("Bo"), "months": .string("12")])], clock: .wall)
        XCTAssertEqual(check.problems, [])
        XCTAssertEqual(check.records.first?.values["start"], .string("2024-01-02T03:04:05Z"))
        XCTAssertEqual(check.records.map { $0.values["months"] }, [.string("360"), nil], "computed by the form, the values given ignored")
        XCTAssertEqual(check.ignoredCalculations, ["months"], "named once")
    }

    func testTheOriginalFiveAreJudgedOnlyByTheirTypes() {
        let check = Questionnaire.standard.checkImport([Record(["firstName": .string("Ana"), "age": .string("200")])], clock: .wall)
        XCTAssertEqual(check.problems.map(\.description), ["record 1: age \"200\": Age must be a whole number from 0 to 150, or empty"])
        XCTAssertEqual(Questionnaire.standard.formProblems(in: Record(["age": .string("x")]), clock: .wall).count, 0)
        XCTAssertEqual(Questionnaire.standard.checkImport([Record(["firstName": .string("Ana")])], clock: .wall).records,
                       [Record(["firstName": .string("Ana")])], "no formID stamp without a form")
    }

    func testDefaultsAreTheNewFormsStartingAnswers() throws {
        let tiny = try Self.questionnaire()
        XCTAssertEqual(tiny.withDefaultTexts(Record(["name": .string("Ana")]), clock: .wall).values["country"], .string("Kenya"))
        XCTAssertEqual(tiny.withDefaultTexts(Record(["country": .string("Peru")]), clock: .wall).values["country"], .string("Peru"))
        XCTAssertEqual(Questionnaire.standard.withDefaultTexts(Record(), clock: .wall), Record())
        XCTAssertEqual(tiny.answerableFields.map(\.key),
                       ["name", "age", "smokes", "cigs", "height", "region", "town", "fruits", "country"])
        XCTAssertNil(tiny.unanswerableReason("age"))
        XCTAssertEqual(tiny.unanswerableReason("months"), "“months” is a calculate row, not a question a person answers")
        XCTAssertEqual(tiny.unanswerableReason("agee"), "there is no question named “agee”")
    }

    // MARK: - Files

    func testCSVOfAFormDocumentReadsBackWithEmptyCellsAsNoAnswer() throws {
        let tiny = try Self.questionnaire()
        let records = [Record(["name": .string("Ana"), "age": .integer(30), "height": .real(1.5),
                               "months": .string("360"), "instanceID": .string("uuid:a"), "formID": .string("tiny"),
                               "formVersion": .string("7"), "old": .string("from version 6")])]
        let text = SurveyDocument(records: records).csvText(questionnaire: tiny)
        XCTAssertEqual(text.components(separatedBy: "\r\n").first,
                       "start,name,age,smokes,cigs,height,region,town,fruits,country,months,instanceID,formID,formVersion,old")
        let read = try SurveyDocument.records(csv: text, questionnaire: tiny)
        XCTAssertEqual(tiny.checkImport(read, clock: .wall).records, records)
        // Identity columns are matched in any case, as instanceID always was.
        let typed = try SurveyDocument.records(csv: "NAME,FORMVERSION\nAna,5\n", questionnaire: tiny)
        XCTAssertEqual(typed, [Record(["name": .string("Ana"), "formVersion": .string("5")])])
    }

    func testAppendLeavesTheOriginalFivesEmptyAnswersOutOfAFormsRecords() throws {
        try store.save(SurveyDocument(), as: "Tiny")
        try store.append([Record(["name": .string("Ana")])], to: .existing("Tiny"), questionnaire: try Self.questionnaire())
        XCTAssertEqual(try store.load("Tiny").get().records.map(\.answers), [["name": .string("Ana")]])
        try store.append([Record(["firstName": .string("Bo")])], to: .existing("Tiny"), questionnaire: .standard)
        XCTAssertEqual(try store.load("Tiny").get().records.last?.answers,
                       ["firstName": .string("Bo"), "lastName": .string(""), "address": .string(""), "phone": .string("")],
                       "the original five still get every text answer")
    }

    /// Surveys kept by an interrupted session and put back into a form's document are shaped
    /// by that form: no empty answers to the original five are added to them.
    func testRecoveredSurveysPutBackIntoAFormsDocumentGetNoneOfTheOriginalFivesKeys() throws {
        try store.save(SurveyDocument(), as: "Tiny")
        try Self.tinyForm.write(to: folder.appendingPathComponent("Tiny.form.csv"), atomically: true, encoding: .utf8)
        try store.saveRecovery([Record(["name": .string("Ana"), "age": .integer(30)])], for: "Tiny", at: Date())
        let recovery = try XCTUnwrap(store.recoveries().first)
        XCTAssertEqual(try store.restore(recovery, clock: .wall).name, "Tiny")
        XCTAssertEqual(try store.load("Tiny").get().records.map(\.answers), [["name": .string("Ana"), "age": .integer(30)]])
    }
}
