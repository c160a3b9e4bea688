import CPostgres
import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// libpq, loaded the first time survey talks to a database (DECISIONS.md, "libpq is loaded,
/// not linked"). The binary needs no libpq5 to start, key surveys or run any command but
/// the database ones; those say "install libpq5" when it is missing.
///
/// `SURVEY_LIBPQ` names another file to load (a libpq built elsewhere, or in tests a path
/// that does not exist, to see the refusal on a machine that has libpq5).
enum LibPQ {
    static let soname = "libpq.so.5"

    private static let lock = Lock()
    nonisolated(unsafe) private static var outcome: Result<UnsafePointer<spq_table>, DatabaseError>?

    /// Loads libpq once per process (later calls return the first outcome): the table of its
    /// functions every `spq_*` wrapper is handed. Never freed: it lives as long as the process.
    static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> UnsafePointer<spq_table> {
        try lock.withLock {
            if outcome == nil { outcome = attempt(path: environment["SURVEY_LIBPQ"].flatMap { $0.isEmpty ? nil : $0 } ?? soname) }
            return try outcome!.get()
        }
    }

    private static func attempt(path: String) -> Result<UnsafePointer<spq_table>, DatabaseError> {
        var error = [CChar](repeating: 0, count: 512)
        let table = UnsafeMutablePointer<spq_table>.allocate(capacity: 1)
        table.initialize(to: spq_table())
        if spq_load(table, path, &error, error.count) == 1 { return .success(UnsafePointer(table)) }
        table.deallocate()
        let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .failure(DatabaseError(.libraryMissing,
            "install libpq5 to sync (sudo apt-get install libpq5): PostgreSQL's client library could not be loaded (\(why))"))
    }
}
