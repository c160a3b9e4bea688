import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Documents to CSV and back: header, display text, column matching and whole-file refusals.
final class DocumentCSVTests: XCTestCase {
    private func fixture(_ name: String) throws -> SurveyDocument {
        try SurveyDocument(propertyListData: TestSupport.fixtureData(name))
    }

    func testSeedExportsHeaderAndRowsInQuestionnaireOrder() throws {
        XCTAssertEqual(try fixture("seed-serialized.xml").csvText(), """
            firstName,lastName,address,phone,age,instanceID\r
            John,Smith,123 Any St.,555-1234,20,\r
            Doris,Jones,789 Town St.,555-1234,40,\r

            """)
    }

    func testValuesAreExportedAsTheFormShowsThem() {
        let document = SurveyDocument(records: [
            Record(["firstName": .string("A, \"B\""), "age": .string("thirty"), "notes": .string("not exported")]),
            Record(["lastName": .string("two\nlines"), "age": .real(4.5)]),
        ])
        XCTAssertEqual(document.csvText(), "firstName,lastName,address,phone,age,instanceID\r\n"
                       + "\"A, \"\"B\"\"\",,,,thirty,\r\n"
                       + ",\"two\nlines\",,,4.5,\r\n")
    }

    func testTheIDComesRightAfterTheFiveAnswersAndOtherKeysStayOut() throws {
        let id = "uuid:0f8fad5b-d9cb-469f-a165-70867728950e"
        let document = SurveyDocument(records: [
            Record.sample(first: "Ana"), Record.sample(first: "Bo"),
        ])
        var withID = document
        withID.records[0].values[Record.instanceIDKey] = .string(id)
        withID.records[0].values["notes"] = .string("not exported")
        XCTAssertEqual(withID.csvText(), "firstName,lastName,address,phone,age,instanceID\r\n"
                       + "Ana,Lima,Rua 1,555,30,\(id)\r\n"
                       + "Bo,Lima,Rua 1,555,30,\r\n")
    }

    func testTheIDColumnComesBackInAnyCaseTrimmedAndEmptyMeansNone() throws {
        let text = "firstName,InstanceId\r\nAna, uuid:abc \r\nBo,\r\n"
        let records = try SurveyDocument.records(csv: text)
        XCTAssertEqual(records.map(\.instanceID), ["uuid:abc", nil])
        XCTAssertEqual(records[0].values.keys.sorted(), ["firstName", "instanceID"])
    }

    func testAnExportedIDRoundTrips() throws {
        var record = Record.sample()
        record.values[Record.instanceIDKey] = .string("uuid:0f8fad5b-d9cb-469f-a165-70867728950e")
        let text = SurveyDocument(records: [record]).csvText()
        let check = Questionnaire.standard.checkImport(try SurveyDocument.records(csv: text), clock: .wall)
        XCTAssertEqual(check.records, [record])
    }

    func testAnEmptyDocumentIsJustTheHeader() {
        XCTAssertEqual(SurveyDocument().csvText(), "firstName,lastName,address,phone,age,instanceID\r\n")
    }

    func testFixturesRoundTripTheFiveFields() throws {
        for name in ["seed-serialized.xml", "plistlib-unicode.plist"] {
            let document = try fixture(name)
            let check = Questionnaire.standard.checkImport(try SurveyDocument.records(csv: document.csvText()), clock: .wall)
            XCTAssertEqual(check.problems, [], name)
            let five = Questionnaire.standard.fields.map(\.key)
            XCTAssertEqual(check.records.map { $0.values.filter { five.contains($0.key) } },
                           document.records.map { $0.values.filter { five.contains($0.key) } }, name)
        }
    }

    func testAwkwardAnswersRoundTrip() throws {
        let records = [
            Record.sample(first: "Zoë, \"Zo\"", last: "O'Brien", address: "1 Main St\r\nFlat 2\nBack", phone: "", age: 0),
            Record.sample(first: " lead", last: "trail ", address: ",", phone: "\"", age: nil),
            Record.sample(first: "👩‍👩‍👧", last: "山田", address: "\t", phone: "+1 (555) 010", age: 150),
        ]
        let text = SurveyDocument(records: records).csvText()
        let check = Questionnaire.standard.checkImport(try SurveyDocument.records(csv: text), clock: .wall)
        XCTAssertEqual(check.problems, [])
        // Everything but the blanks around answers, which are stored trimmed as the form stores them.
        var trimmed = records
        trimmed[1] = Record.sample(first: "lead", last: "trail", address: ",", phone: "\"", age: nil)
        trimmed[2].values["address"] = .string("")
        XCTAssertEqual(check.records, trimmed)
    }

    func testHeaderMatchesKeysAndLabelsIgnoringCaseAndBlanks() throws {
        let text = "\u{FEFF} First Name ,LASTNAME,age,Notes,phone\r\nAna,Lima,30,likes tea,\r\n"
        XCTAssertEqual(try SurveyDocument.records(csv: text), [Record([
            "firstName": .string("Ana"), "lastName": .string("Lima"), "age": .string("30"),
            "Notes": .string("likes tea"), "phone": .string(""),
        ])])
    }

    func testEmptyLinesAreSkippedAndMissingColumnsStayAbsent() throws {
        let text = "lastName\n\nLima\n\nNúñez\n\n"
        XCTAssertEqual(try SurveyDocument.records(csv: text),
                       [Record(["lastName": .string("Lima")]), Record(["lastName": .string("Núñez")])])
    }

    func testTheSeparatorIsWhatTheHeaderHoldsMost() throws {
        XCTAssertEqual(CSV.separator(guessedFrom: "a,b;c,d\n;;;;;;"), ",")
        XCTAssertEqual(CSV.separator(guessedFrom: "\r\na;b;c\n"), ";")
        XCTAssertEqual(CSV.separator(guessedFrom: "\"a,b,c\"\t\"d;e\""), "\t")
        XCTAssertEqual(CSV.separator(guessedFrom: "firstName"), ",")
        XCTAssertEqual(CSV.separator(guessedFrom: "a;b,c"), ",", "a tie goes to the comma")
        let numbered = try SurveyDocument.numberedRecords(csv: "Last name;First name\r\n\"Lima; Jr\";Ana\r\n\r\nNg;Bo")
        XCTAssertEqual(numbered.map(\.row), [2, 4], "the header is row 1 and the empty line row 3")
        XCTAssertEqual(numbered.map(\.record), [Record(["lastName": .string("Lima; Jr"), "firstName": .string("Ana")]),
                                                 Record(["lastName": .string("Ng"), "firstName": .string("Bo")])])
    }

    func testWholeFileRefusals() {
        let cases: [(String, String)] = [
            ("", "the CSV text is empty: it needs a header row naming the columns"),
            ("\r\n\r\n", "the CSV text is empty: it needs a header row naming the columns"),
            ("firstName,,age\r\n", "column 2 has no name in the header row"),
            ("firstName,First name\r\n", "columns 1 and 2 of the header both name “firstName”"),
            ("notes,notes\r\n", "columns 1 and 2 of the header both name “notes”"),
            ("name,town\r\nAna,Rio\r\n", "the header row names none of the survey's columns (firstName, lastName, address, phone, age); "
             + "it was split at commas, the separator it holds most (of commas, semicolons and tabs)"),
            ("name\ttown;x\tz\r\n", "the header row names none of the survey's columns (firstName, lastName, address, phone, age); "
             + "it was split at tabs, the separator it holds most (of commas, semicolons and tabs)"),
            ("firstName,age\r\nAna,3\r\nBo,4,extra\r\n", "row 3: 3 values, but the header names 2 columns"),
            ("firstName,age\r\nAna\r\n", "row 2: 1 value, but the header names 2 columns"),
            ("\nfirstName,age\r\n\r\n\"Ana\nLima\",3\r\nBo\r\n", "row 5: 1 value, but the header names 2 columns"),
            ("firstName\r\n\"Ana", "line 2: a quoted field is never closed"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try SurveyDocument.records(csv: text), text.debugDescription) { error in
                XCTAssertEqual((error as? DocumentError)?.message, message, text.debugDescription)
            }
        }
    }
}
