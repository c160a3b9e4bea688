import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey conflicts`: the answers changed differently here and on another laptop, kept with
/// the three values (base, mine, theirs) until `survey resolve` settles them.
struct ConflictsCommand: Equatable {
    static let shape = "survey conflicts [--doc NAME] [--format table|json]"

    var doc: String?
    var format: DataFormat

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try ShellCommands.expectNoArguments(words, shape: Self.shape)
        doc = options.doc
        format = try DataFormat.parse(options.format, allowed: [.table, .json], command: "conflicts") ?? .table
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        return ShellOutput.exitStatus {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let records = Array(try store.load(target.name).get().records)
            let ledger = try store.syncLedger(for: target.name)
            if format == .json {
                StandardOutput.write(ConflictListing.jsonText(ledger, records: records))
            } else {
                Self.table(ledger, records: records).forEach(ShellOutput.line)
                // The entity lists' conflicts are the folder's, not the document's: named here,
                // listed and resolved by survey entities.
                for name in store.entityListNames() {
                    let count = (try? store.entityList(name).conflicts.count) ?? 0
                    if count > 0 { ShellOutput.line("\(name).csv: \(counted(count, "entity conflict")) (survey entities --list \(name))") }
                }
            }
            return 0
        }
    }

    /// ID, FIELD, BASE, MINE, THEIRS, aligned; long values cut to 30 characters (the id and
    /// field whole: `resolve` takes them). MINE is the survey's answer now, what `--mine` keeps.
    static func table(_ ledger: SyncLedger, records: [Record]) -> [String] {
        let header = ["ID", "FIELD", "BASE", "MINE", "THEIRS"]
        let rows: [[String]] = ledger.conflictList(holding: records).map { id, field in
            let whole = field.path.isWholeSurvey
            return [id, field.path.description,
                    whole ? (field.base == nil ? "-" : "(kept)") : ConflictListing.cellText(field.base, wholeSurvey: false),
                    ConflictListing.cellText(field.mine, wholeSurvey: whole, base: field.base, member: field.path.isMember),
                    ConflictListing.cellText(field.theirs, wholeSurvey: whole, base: field.base, member: field.path.isMember)].enumerated().map { $0 < 2 ? $1 : TextTable.cut($1) }
        }
        return TextTable.lines([header] + rows)
    }
}

extension ConflictsCommand: ReadsItsWords {
    static let name = "conflicts"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["conflicts"], synopsis: "[--doc NAME] [--format table|json]", arguments: [],
                    help: "the answers changed differently here and elsewhere (by sync or merge), not yet resolved: id, field, base, mine, theirs; (survey) is a survey edited on one side and deleted on the other"),
    ]

    static let options: [OptionSpec] = [.format]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered) }

    var changesDocuments: Bool { false }
}
