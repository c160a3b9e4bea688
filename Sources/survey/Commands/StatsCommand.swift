import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey stats`: CSPro's operator statistics from the document's verification record
/// (`KeyerStatistics`): per keyer and day, the surveys keyed with their keys and time, the
/// fields verified and the keyer errors in them, and the verifier errors: a table for
/// people, CSV (formula-escaped, as every CSV survey writes) or JSON for programs.
struct StatsCommand: Equatable {
    static let shape = "survey stats [--doc NAME] [--format table|csv|json]"

    var doc: String?
    var format: DataFormat

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try ShellCommands.expectNoArguments(words, shape: Self.shape)
        doc = options.doc
        format = try DataFormat.parse(options.format, allowed: [.table, .csv, .json], command: "stats") ?? .table
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        return ShellOutput.exitStatus {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            _ = try store.load(target.name).get()
            let stats = KeyerStatistics(try store.verificationLog(for: target.name), timeZone: .current)
            switch format {
            case .csv: StandardOutput.write(Self.csvText(stats))
            case .json: StandardOutput.write(Self.jsonText(stats))
            default:
                if stats.rows.isEmpty {
                    ShellOutput.line("Nothing counted yet in “\(target.name)”: the app counts surveys added from its New form and questions verified with v")
                } else {
                    Self.tableLines(stats).forEach(ShellOutput.line)
                }
            }
            return 0
        }
    }

    static let columns = ["login", "day", "surveys_keyed", "keys", "seconds", "keys_per_survey", "seconds_per_survey",
                          "fields_verified", "keyer_errors", "keyer_error_rate",
                          "fields_verified_as_verifier", "verifier_errors", "verifier_error_rate"]

    static func values(_ row: KeyerStatistics.Row) -> [PropertyValue] {
        [.string(row.login), .string(row.day), .integer(row.surveysKeyed), .integer(row.keys), .real(rounded(row.seconds)),
         .real(rounded(row.keysPerSurvey)), .real(rounded(row.secondsPerSurvey)),
         .integer(row.fieldsVerified), .integer(row.keyerErrors), .real(rounded(row.keyerErrorRate, places: 4)),
         .integer(row.fieldsVerifiedAsVerifier), .integer(row.verifierErrors), .real(rounded(row.verifierErrorRate, places: 4))]
    }

    static func rounded(_ x: Double, places: Int = 1) -> Double {
        let scale = places == 4 ? 10_000.0 : 10.0
        return (x * scale).rounded() / scale
    }

    static func csvText(_ stats: KeyerStatistics) -> String {
        CSV.text([columns] + stats.rows.map { row in
            values(row).map { value in
                switch value {
                case .string(let text): return SpreadsheetFormula.escaped(text)
                case .integer(let n): return String(n)
                case .real(let x): return "\(x)"
                default: return ""
                }
            }
        })
    }

    static func jsonText(_ stats: KeyerStatistics) -> String {
        PropertyValue.array(stats.rows.map { row in
            .dictionary(Dictionary(uniqueKeysWithValues: zip(columns, values(row))))
        }).jsonText() + "\n"
    }

    /// Per keyer and day; the rates as percentages, the time per survey in minutes and seconds.
    static func tableLines(_ stats: KeyerStatistics) -> [String] {
        var rows = [["KEYER", "DAY", "SURVEYS", "KEYS/SURVEY", "TIME/SURVEY", "VERIFIED", "KEYER ERRORS", "VERIFIER ERRORS"]]
        for row in stats.rows {
            rows.append([TextTable.cut(row.login), row.day, String(row.surveysKeyed),
                         row.surveysKeyed == 0 ? "-" : String(Int(row.keysPerSurvey.rounded())),
                         row.surveysKeyed == 0 ? "-" : minutes(row.secondsPerSurvey),
                         String(row.fieldsVerified),
                         "\(row.keyerErrors) (\(percent(row.keyerErrorRate)))",
                         "\(row.verifierErrors) of \(row.fieldsVerifiedAsVerifier) (\(percent(row.verifierErrorRate)))"])
        }
        return TextTable.lines(rows)
    }

    static func minutes(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return "\(s / 60):" + (s % 60 < 10 ? "0" : "") + String(s % 60)
    }

    static func percent(_ rate: Double) -> String {
        let tenths = Int((rate * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }
}

extension StatsCommand: ReadsItsWords {
    static let name = "stats"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["stats"], synopsis: "[--doc NAME] [--format table|csv|json]", arguments: [],
                    help: "keyer statistics (CSPro's operator statistics): per keyer and day, surveys keyed, keys and time per survey, fields verified, keyer and verifier errors and their rates"),
    ]

    static let options: [OptionSpec] = [.format]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered) }

    var changesDocuments: Bool { false }
}
