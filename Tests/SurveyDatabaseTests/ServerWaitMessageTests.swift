import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage

/// The words of a wait (`ServerWait.message`), without a server: who holds what, what may be
/// said of a session (its state only where PostgreSQL shows it), and when it is said.
final class ServerWaitMessageTests: XCTestCase {
    private let zone = TimeZoneRule(secondsFromGMT: 3 * 3600)
    /// 2024-05-01 07:02:30 UTC, 10:02 in `zone`.
    private let tenOhTwo = Date(timeIntervalSince1970: 1_714_546_950)

    private func bruno(_ pid: Int32 = 4121, application: String? = "psql") -> ServerWait.Holder {
        ServerWait.Holder(pid: pid, role: "bruno", application: application)
    }

    func testAnotherRolesSessionIsNamedByRoleProgramAndProcess() {
        let wait = ServerWait(holders: [bruno()], lock: .row(survey: true))
        XCTAssertEqual(wait.message(seconds: 2, zone: zone),
                       "waiting 2 s for the server: bruno's session (psql, pid 4121) holds a lock on a survey this needs")
        XCTAssertEqual(ServerWait(holders: [bruno(application: "")], lock: .row(survey: false)).message(seconds: 1, zone: zone),
                       "waiting 1 s for the server: bruno's session (pid 4121) holds a lock on a row this needs")
    }

    func testASessionOfYourOwnRoleSaysWhatItDoesAndSinceWhen() {
        var mine = ServerWait.Holder(pid: 77, role: "ana", application: "psql", isOwnRole: true,
                                     state: "idle in transaction", since: tenOhTwo)
        XCTAssertEqual(ServerWait(holders: [mine], lock: .row(survey: true)).message(seconds: 3, zone: zone),
                       "waiting 3 s for the server: another session of yours (psql, pid 77, idle in a transaction since 10:02)"
                       + " holds a lock on a survey this needs")
        mine.state = "active"
        XCTAssertEqual(ServerWait(holders: [mine], lock: .row(survey: true)).message(seconds: 3, zone: .utc),
                       "waiting 3 s for the server: another session of yours (psql, pid 77, running a statement since 07:02)"
                       + " holds a lock on a survey this needs")
        mine.state = "idle in transaction (aborted)"
        mine.since = nil
        XCTAssertEqual(ServerWait(holders: [mine], lock: .row(survey: true)).message(seconds: 3, zone: zone),
                       "waiting 3 s for the server: another session of yours (psql, pid 77, idle in a failed transaction)"
                       + " holds a lock on a survey this needs")
    }

    func testManyHoldersAreCountedPastTwo() {
        let two = ServerWait(holders: [bruno(), ServerWait.Holder(pid: 0, role: nil, application: nil)], lock: .row(survey: true))
        XCTAssertEqual(two.message(seconds: 4, zone: zone), "waiting 4 s for the server: bruno's session (psql, pid 4121)"
                       + " and a prepared transaction hold a lock on a survey this needs")
        let four = ServerWait(holders: [bruno(1), bruno(2), bruno(3), bruno(4)], lock: .table("survey.surveys"))
        XCTAssertEqual(four.message(seconds: 4, zone: zone), "waiting 4 s for the server: bruno's session (psql, pid 1),"
                       + " bruno's session (psql, pid 2) and 2 other sessions hold a lock on the table survey.surveys this needs")
        let three = ServerWait(holders: [bruno(1), bruno(2), ServerWait.Holder(pid: 9, role: nil, application: "")], lock: .advisory)
        XCTAssertEqual(three.message(seconds: 1, zone: zone), "waiting 1 s for the server: bruno's session (psql, pid 1),"
                       + " bruno's session (psql, pid 2) and 1 other session hold an advisory lock this needs"
                       + " (survey db init takes one while it upgrades the schema)")
        XCTAssertEqual(ServerWait(holders: [ServerWait.Holder(pid: 9, role: nil, application: nil)], lock: .other).message(seconds: 1, zone: zone),
                       "waiting 1 s for the server: a server process (pid 9) holds a lock this needs")
    }

    func testNoHolderSaysTheServerIsBusy() {
        XCTAssertEqual(ServerWait(holders: [], lock: nil).message(seconds: 3, zone: zone),
                       "waiting 3 s for the server (it is busy: no other session holds a lock this needs)")
        XCTAssertEqual(ServerWait(holders: [], lock: nil, waitEvent: "IO").message(seconds: 3, zone: zone),
                       "waiting 3 s for the server (it is reading or writing its disk: no other session holds a lock this needs)")
        XCTAssertEqual(ServerWait(holders: [], lock: .row(survey: true)).message(seconds: 2, zone: zone),
                       "waiting 2 s for the server (it waits for a lock another session has just let go)")
        XCTAssertEqual(ServerWait.unknown(seconds: 5), "waiting 5 s for the server")
    }

    /// A role or program name is another session's choice: no control character reaches a
    /// terminal, and it is cut short.
    func testNamesFromOtherSessionsAreMadePrintable() {
        let odd = ServerWait.Holder(pid: 5, role: "eve\u{1B}[2J", application: "x\u{07}\n" + String(repeating: "y", count: 100))
        let line = ServerWait(holders: [odd], lock: .row(survey: true)).message(seconds: 1, zone: zone)
        XCTAssertFalse(line.unicodeScalars.contains { $0.properties.generalCategory == .control }, line)
        XCTAssertTrue(line.hasPrefix("waiting 1 s for the server: eve\u{FFFD}[2J's session (x\u{FFFD}\u{FFFD}yyy"), line)
        XCTAssertFalse(line.contains(String(repeating: "y", count: 63)), line)
    }

    /// Every second up to five (a lock wait ends at five), then every five (a minute's
    /// statement gives a dozen lines).
    func testWaitsAreToldEverySecondThenEveryFive() {
        var told: [Int] = []
        var next = DatabaseConnection.nextReport(after: 0)
        while next <= 60 {
            told.append(next)
            next = DatabaseConnection.nextReport(after: next)
        }
        XCTAssertEqual(told, [1, 2, 3, 4, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60])
        XCTAssertEqual(DatabaseConnection.nextReport(after: 7), 10, "a slow look skips what it used up")
    }
}

/// The wait a line tells leaves out time the laptop was stopped (issue 28: a sync resumed
/// after SIGSTOP said it had waited 37 s for the server).
final class WaitClockTests: XCTestCase {
    func testTimeTheLaptopWasStoppedIsNotTheServersWait() {
        var clock = WaitClock()
        clock.step(asked: .seconds(1), took: .milliseconds(1_003))
        clock.step(asked: .seconds(1), took: .milliseconds(400))      // the answer came, or a signal
        XCTAssertEqual(clock.seconds, 1)
        clock.step(asked: .seconds(1), took: .seconds(37))            // stopped inside the poll
        XCTAssertEqual(clock.waited, .milliseconds(2_403))
        clock.step(asked: .seconds(3), took: .milliseconds(2_900))    // a slow look counts
        XCTAssertEqual(clock.seconds, 5)
        clock.step(asked: .seconds(1), took: .milliseconds(2_900))    // a busy scheduler's overrun counts too
        XCTAssertEqual(clock.seconds, 8)
        clock.step(asked: .seconds(1), took: .milliseconds(-5))       // a clock never runs back
        XCTAssertEqual(clock.seconds, 8)
    }
}
