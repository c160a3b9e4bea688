/// The shapes records take on the command line. `table` is for people reading a terminal;
/// the others are for programs and the same bytes `survey export` writes. `odk-csv` (ODK's
/// CSV set, a folder of tables) and `odk-xml` (one ODK submission per survey, in ODK
/// Briefcase's storage layout) are folders, for export and (the CSV set) import.
enum DataFormat: String, Equatable, CaseIterable {
    case table, csv, json, plist
    case odkCSV = "odk-csv", odkXML = "odk-xml"

    /// Written as a folder of files rather than one stream.
    var isFolder: Bool { self == .odkCSV || self == .odkXML }

    /// `--format TEXT` checked against what the command offers; nil when not given.
    static func parse(_ text: String?, allowed: [DataFormat], command: String) throws -> DataFormat? {
        guard let text else { return nil }
        guard let format = DataFormat(rawValue: text.lowercased()), allowed.contains(format) else {
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            throw CommandLineOptions.UsageError(
                description: "unknown format “\(text)” for survey \(command) (use \(names))")
        }
        return format
    }

    /// From a file name's extension: .csv, .json, .plist, and .xml (what other tools often
    /// call XML property lists). nil otherwise.
    static func guess(fromPath path: String) -> DataFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "csv": return .csv
        case "json": return .json
        case "plist", "xml": return .plist
        default: return nil
        }
    }
}
