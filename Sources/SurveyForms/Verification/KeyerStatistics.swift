import FoundationEssentials
import SurveyValues

/// CSPro's operator statistics from a document's verification record: per keyer (login) and
/// day, the surveys keyed with their keys and time, and what verification found.
///
/// Who is counted for what: a survey's keys and time, its fields verified and its keyer
/// errors go to whoever keyed it (the `keyed` line's login; "(not recorded)" for a survey
/// keyed before the app wrote one, or from a shell); a verifier error, and the fields
/// verified as a verifier, go to the verifier. A verification is counted on the day it was
/// made, keying on the day the survey was added (local time).
public struct KeyerStatistics: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var login: String
        /// `YYYY-MM-DD`, local time; "" for a keyer's row over every day (`totals`).
        public var day: String
        public var surveysKeyed = 0
        public var keys = 0
        public var seconds = 0.0
        /// Fields of this keyer's surveys verified, and the keyer errors found among them.
        public var fieldsVerified = 0
        public var keyerErrors = 0
        /// Fields this login verified as a verifier, and its own slips among them.
        public var fieldsVerifiedAsVerifier = 0
        public var verifierErrors = 0

        public init(login: String, day: String) {
            self.login = login
            self.day = day
        }

        /// Keyer errors per field verified (0 when none was).
        public var keyerErrorRate: Double { fieldsVerified == 0 ? 0 : Double(keyerErrors) / Double(fieldsVerified) }
        public var verifierErrorRate: Double {
            fieldsVerifiedAsVerifier == 0 ? 0 : Double(verifierErrors) / Double(fieldsVerifiedAsVerifier)
        }
        public var keysPerSurvey: Double { surveysKeyed == 0 ? 0 : Double(keys) / Double(surveysKeyed) }
        public var secondsPerSurvey: Double { surveysKeyed == 0 ? 0 : seconds / Double(surveysKeyed) }

        mutating func add(_ other: Row) {
            surveysKeyed += other.surveysKeyed
            keys += other.keys
            seconds += other.seconds
            fieldsVerified += other.fieldsVerified
            keyerErrors += other.keyerErrors
            fieldsVerifiedAsVerifier += other.fieldsVerifiedAsVerifier
            verifierErrors += other.verifierErrors
        }
    }

    public static let unknownKeyer = "(not recorded)"

    /// One row per login and day with anything to count, by login then day.
    public let rows: [Row]

    public init(_ log: VerificationLog, timeZone: TimeZoneRule) {
        var keyerOf: [String: String] = [:]
        for entry in log.entries where entry.kind == .keyed { keyerOf[entry.survey] = entry.login }
        var byKey: [String: Row] = [:]
        func update(_ login: String, _ date: Date, _ change: (inout Row) -> Void) {
            let login = login.isEmpty ? Self.unknownKeyer : login
            let day = CivilTime(date, in: timeZone).dayText
            let key = login + "\u{0}" + day
            var row = byKey[key] ?? Row(login: login, day: day)
            change(&row)
            byKey[key] = row
        }
        for entry in log.entries {
            switch entry.kind {
            case .keyed:
                update(entry.login, entry.date) { row in
                    row.surveysKeyed += 1
                    row.keys += entry.keys ?? 0
                    row.seconds += entry.seconds ?? 0
                }
            case .same, .keyerError, .verifierError:
                update(keyerOf[entry.survey] ?? "", entry.date) { row in
                    row.fieldsVerified += 1
                    if entry.kind == .keyerError { row.keyerErrors += 1 }
                }
                update(entry.login, entry.date) { row in
                    row.fieldsVerifiedAsVerifier += 1
                    if entry.kind == .verifierError { row.verifierErrors += 1 }
                }
            case .chosen, .finished:
                break
            }
        }
        rows = byKey.values.sorted { ($0.login, $0.day) < ($1.login, $1.day) }
    }

    /// Each login over every day, in login order.
    public var totals: [Row] {
        var result: [Row] = []
        for row in rows {
            if result.last?.login != row.login { result.append(Row(login: row.login, day: "")) }
            result[result.count - 1].add(row)
        }
        return result
    }
}
