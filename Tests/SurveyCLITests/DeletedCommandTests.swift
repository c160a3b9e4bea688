import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey deleted` lists what `.NAME.deleted.plist` keeps; `survey undelete ID` brings one
/// back. The children run with TZ=UTC, so table times are the UTC ones.
final class DeletedCommandTests: CLITestCase {
    /// 2023-11-14 22:13:20 UTC, and a minute later.
    private let first = Date(timeIntervalSince1970: 1_700_000_000)
    private let second = Date(timeIntervalSince1970: 1_700_000_060)
    private let anaID = "uuid:aaaaaaaa-0000-4000-8000-000000000001"
    private let boID = "uuid:bbbbbbbb-0000-4000-8000-000000000002"

    private func person(_ first: String, _ last: String, id: String?) -> Record {
        var values: [String: PropertyValue] = ["firstName": .string(first), "lastName": .string(last),
                                               "address": .string(""), "phone": .string("")]
        if let id { values["instanceID"] = .string(id) }
        return Record(values)
    }

    /// Field holds Cy; Ana and Bo were deleted from it, a minute apart.
    private func fieldWithTwoDeleted() throws {
        try store.save(SurveyDocument(records: [person("Cy", "Ng", id: "uuid:cccccccc-0000-4000-8000-000000000003")]),
                       as: "Field")
        try store.appendDeleted([person("Ana", "Lima", id: anaID)], for: "Field", at: first)
        try store.appendDeleted([person("Bo", "", id: boID)], for: "Field", at: second)
    }

    func testTheTableSaysWhenWhoAndTheIDOldestFirst() throws {
        try fieldWithTwoDeleted()
        XCTAssertEqual(try survey("deleted"), Outcome(status: 0, stdout: """
            DELETED           ID                                         NAME
            2023-11-14 22:13  uuid:aaaaaaaa-0000-4000-8000-000000000001  Lima, Ana
            2023-11-14 22:14  uuid:bbbbbbbb-0000-4000-8000-000000000002  Bo

            """, stderr: ""))
    }

    func testNothingDeletedPrintsTheHeaderOnly() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(try survey("deleted", "--doc", "field"), Outcome(status: 0, stdout: "DELETED  ID  NAME\n", stderr: ""))
        XCTAssertEqual(try survey("deleted", "--format", "json").stdout, "[]\n")
        XCTAssertEqual(try folderContents(), ["Field.plist"], "listing creates nothing")
    }

    func testAnEntryWithoutAnIDShowsADash() throws {
        try store.save(SurveyDocument(), as: "Field")
        let entry = Record(["deletedAt": .date(first), "record": .dictionary(["firstName": .string("Old")])])
        try SurveyDocument(records: [entry]).propertyListData().write(to: store.deletedURL(for: "Field"))
        XCTAssertEqual(try survey("deleted").stdout, """
            DELETED           ID  NAME
            2023-11-14 22:13  -   Old

            """)
    }

    func testCSVAndJSONCarryTheDateInUTCAndTheWholeSurvey() throws {
        try fieldWithTwoDeleted()
        XCTAssertEqual(try survey("deleted", "--format", "csv"), Outcome(status: 0, stdout:
            "deletedAt,firstName,lastName,address,phone,age,instanceID\r\n"
            + "2023-11-14T22:13:20Z,Ana,Lima,,,,\(anaID)\r\n"
            + "2023-11-14T22:14:20Z,Bo,,,,,\(boID)\r\n", stderr: ""))
        XCTAssertEqual(try survey("deleted", "--format", "json").stdout, """
            [
              {
                "deletedAt": "2023-11-14T22:13:20Z",
                "record": {
                  "firstName": "Ana",
                  "lastName": "Lima",
                  "address": "",
                  "phone": "",
                  "age": null,
                  "instanceID": "\(anaID)"
                }
              },
              {
                "deletedAt": "2023-11-14T22:14:20Z",
                "record": {
                  "firstName": "Bo",
                  "lastName": "",
                  "address": "",
                  "phone": "",
                  "age": null,
                  "instanceID": "\(boID)"
                }
              }
            ]

            """)
    }

    func testUndeletePutsTheSurveyBackAtTheEnd() throws {
        try fieldWithTwoDeleted()
        XCTAssertEqual(try survey("undelete", anaID), Outcome(
            status: 0, stdout: "Brought back Lima, Ana into “Field” as survey 2\n", stderr: ""))
        XCTAssertEqual(try store.load("Field").get().records.map(\.listTitle), ["Ng, Cy", "Lima, Ana"])
        XCTAssertEqual(try store.load("Field").get().records.last, person("Ana", "Lima", id: anaID))
        XCTAssertEqual(store.deletedRecords(for: "Field").map(\.record.instanceID), [boID])
        XCTAssertEqual(try survey("undelete", boID, "--doc", "Field").status, 0)
        XCTAssertEqual(try folderContents(), ["Field.plist"], "the emptied list is gone")
    }

    func testUndeleteRefusalsExitOneWithTheReasonAndChangeNothing() throws {
        try fieldWithTwoDeleted()
        XCTAssertEqual(try survey("undelete", anaID).status, 0)
        let document = try fileBytes(store.url(for: "Field"))
        let deleted = try fileBytes(store.deletedURL(for: "Field"))
        // Put Ana on the list again, as if deleted once more but also still in the document.
        try store.appendDeleted([person("Ana", "Lima", id: anaID)], for: "Field", at: second)
        let listed = try fileBytes(store.deletedURL(for: "Field"))
        XCTAssertEqual(try survey("undelete", "uuid:nope"), Outcome(
            status: 1, stdout: "", stderr: "survey: No deleted survey of “Field” has the id uuid:nope\n"))
        XCTAssertEqual(try survey("undelete", anaID), Outcome(status: 1, stdout: "", stderr:
            "survey: \(anaID) is already in “Field” (record 2, Lima, Ana): nothing brought back\n"))
        XCTAssertEqual(try fileBytes(store.url(for: "Field")), document)
        XCTAssertEqual(try fileBytes(store.deletedURL(for: "Field")), listed)
        XCTAssertNotEqual(listed, deleted)
        XCTAssertEqual(try survey("undelete", anaID, "--doc", "Nope"),
                       Outcome(status: 1, stdout: "", stderr: "survey: “Nope” does not exist\n"))
        XCTAssertEqual(try survey("deleted", "--doc", "Nope"),
                       Outcome(status: 1, stdout: "", stderr: "survey: “Nope” does not exist\n"))
    }

    func testTheListFollowsItsDocumentThroughRenameTrashAndRestore() throws {
        try fieldWithTwoDeleted()
        XCTAssertEqual(try survey("docs", "rename", "Field", "Farm").status, 0)
        XCTAssertEqual(try survey("docs", "rm", "Farm").status, 0)
        XCTAssertEqual(try folderContents(), [".trash"])
        XCTAssertEqual(try survey("docs", "restore").stdout, "Restored “Farm”\n")
        XCTAssertEqual(try folderContents(), [".Farm.deleted.plist", ".trash", "Farm.plist"])
        XCTAssertEqual(try survey("undelete", boID, "--doc", "Farm").stdout, "Brought back Bo into “Farm” as survey 2\n")
    }

    func testNothingDeletedIsSaidSo() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(try survey("undelete", anaID),
                       Outcome(status: 1, stdout: "", stderr: "survey: “Field” has no deleted surveys\n"))
    }

    func testAnUnreadableListIsReportedAndLeftAlone() throws {
        try store.save(SurveyDocument(), as: "Field")
        try Data("garbage".utf8).write(to: store.deletedURL(for: "Field"))
        let outcome = try survey("undelete", anaID)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.hasPrefix("survey: .Field.deleted.plist: not a property list"), outcome.stderr)
        XCTAssertEqual(try fileBytes(store.deletedURL(for: "Field")), Data("garbage".utf8))
    }

    func testUsageErrors() throws {
        try store.save(SurveyDocument(), as: "Field")
        let cases: [([String], String)] = [
            (["undelete"], "survey: missing id: survey undelete ID [--doc NAME] (survey deleted lists them)"),
            (["undelete", "a", "b"], "survey: unexpected argument “b”: survey undelete ID [--doc NAME]"),
            (["undelete", "a", "--format", "csv"], "survey: --format only works with survey list, export, import, deleted, diff, stats, entities, conflicts and history"),
            (["deleted", "x"], "survey: unexpected argument “x”: survey deleted [--doc NAME] [--format table|csv|json]"),
            (["deleted", "--format", "plist"], "survey: unknown format “plist” for survey deleted (use table, csv, json)"),
        ]
        for (arguments, message) in cases {
            let outcome = try survey(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init), message, "\(arguments)")
        }
    }
}
