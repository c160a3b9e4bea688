import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// `survey verify`: which surveys are verified by double entry, through the real binary:
/// every Nth from a start (CSPro's frequency and start), a seeded random percentage that
/// chooses the same surveys again, what is already chosen never chosen twice, incomplete
/// surveys left out, and the listing of how far each is verified.
final class VerifyCommandTests: CLITestCase {
    private func plots(_ count: Int, incomplete: Set<Int> = []) throws {
        let records = (1...count).map { i in
            var r = Record(["firstName": .string("P\(i)"), "lastName": .string("Plot"), "instanceID": .string("uuid:p-\(i)")])
            if incomplete.contains(i) { r.values["incomplete"] = .bool(true) }
            return r
        }
        try store.save(SurveyDocument(records: records), as: "Plots")
    }

    private func chosen() throws -> [String] {
        try store.verificationLog(for: "Plots").chosen
    }

    func testEveryNthFromAStartAndTheListing() throws {
        try plots(10, incomplete: [5])
        let run = try survey("verify", "--doc", "Plots", "--every", "3", "--start", "2")
        XCTAssertEqual(run.status, 0, run.stderr)
        // The 2nd, 5th (incomplete: not a candidate, so the count runs over complete ones) …
        XCTAssertEqual(try chosen(), ["uuid:p-2", "uuid:p-6", "uuid:p-9"])
        XCTAssertEqual(run.stdout.split(separator: "\n").map(String.init), [
            "Chose 3 surveys of 9 for verification",
            "#  Survey    Id        Verification",
            "2  Plot, P2  uuid:p-2  waiting",
            "6  Plot, P6  uuid:p-6  waiting",
            "9  Plot, P9  uuid:p-9  waiting",
        ])
        // Again: nothing new; the entries say who chose.
        let again = try survey("verify", "--doc", "Plots", "--every", "3", "--start", "2")
        XCTAssertTrue(again.stdout.hasPrefix("Chose 0 surveys of 9 for verification (3 more already chosen)\n"), again.stdout)
        XCTAssertEqual(try chosen().count, 3)
        XCTAssertTrue(try store.verificationLog(for: "Plots").entries.allSatisfy { !$0.login.isEmpty })
        // A verification under way is listed as such.
        try store.appendVerification([VerificationEntry(kind: .same, survey: "uuid:p-6", path: "firstName", login: "v", date: Date()),
                                      VerificationEntry(kind: .finished, survey: "uuid:p-9", login: "v", date: Date())], for: "Plots")
        let listed = try survey("verify", "--doc", "Plots")
        XCTAssertEqual(listed.status, 0)
        XCTAssertTrue(listed.stdout.contains("uuid:p-6  partly verified (1 question)"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("uuid:p-9  verified"), listed.stdout)
    }

    func testRandomWithASeedChoosesTheSameSurveysAgain() throws {
        try plots(40)
        XCTAssertEqual(try survey("verify", "--doc", "Plots", "--random", "25", "--seed", "7").status, 0)
        let first = try chosen()
        XCTAssertFalse(first.isEmpty)
        XCTAssertLessThan(first.count, 40)
        try FileManager.default.removeItem(at: store.verificationURL(for: "Plots"))
        XCTAssertEqual(try survey("verify", "--doc", "Plots", "--random", "25%", "--seed", "7").status, 0)
        XCTAssertEqual(try chosen(), first, "the same seed, the same surveys")
        try FileManager.default.removeItem(at: store.verificationURL(for: "Plots"))
        XCTAssertEqual(try survey("verify", "--doc", "Plots", "--random", "25", "--seed", "8").status, 0)
        XCTAssertNotEqual(try chosen(), first)
    }

    func testRefusedChoicesWriteNothing() throws {
        try plots(3)
        for (arguments, message) in [
            (["--random", "10"], "survey: --random needs --seed S, so that the same surveys can be chosen again"),
            (["--every", "2", "--random", "10", "--seed", "1"], "survey: choose by --every or by --random, not both"),
            (["--start", "2"], "survey: --start goes with --every"),
            (["--every", "0"], "survey: --every takes a whole number from 1, got “0”"),
            (["--random", "120", "--seed", "1"], "survey: --random takes a percentage from 0 to 100, got “120”"),
        ] {
            let run = try survey(["verify", "--doc", "Plots"] + arguments)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertTrue(run.stderr.hasPrefix(message), run.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.verificationURL(for: "Plots").path))
        let none = try survey("verify", "--doc", "Plots")
        XCTAssertTrue(none.stdout.hasPrefix("No survey of “Plots” is chosen for verification"), none.stdout)
    }
}
