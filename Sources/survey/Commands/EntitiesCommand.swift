import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyDatabase

/// `survey entities`: the entity lists beside the documents (`LIST.csv`, which the surveys
/// of a registration form create and update when they are stored, and which follow-up forms
/// read): a table for people, with the conflicts kept beside a list; CSV (ODK Central's
/// columns, formula-escaped as every CSV survey writes) or JSON for programs. And what a
/// person does to them by hand: `resolve` a conflict (as `survey resolve` an answer's),
/// a supervisor's `edit` and `retire` (kept on the team's database, so every laptop's sync
/// takes them), `--rebuild` (the lists derived again from the documents' surveys).
struct EntitiesCommand: Equatable {
    static let shape = "survey entities [--list NAME] [--format table|csv|json]"
    static let rebuildShape = "survey entities --rebuild [--list NAME]"
    static let resolveShape = "survey entities resolve --list NAME ID [PROPERTY] --mine|--theirs|--value TEXT"
    static let editShape = "survey entities edit --list NAME ID PROPERTY=VALUE... [--db URL]"
    static let retireShape = "survey entities retire --list NAME ID [--db URL]"

    enum Action: Equatable {
        case show
        case rebuild
        case resolve(id: String, property: String?, EntityList.Choice)
        /// `label=TEXT` sets the label; every other NAME=VALUE a property.
        case edit(id: String, label: String?, properties: [String: String])
        case retire(id: String)
    }

    var action: Action
    var list: String?
    var format: DataFormat
    var db: String?

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        list = options.entityList
        db = options.db
        format = try DataFormat.parse(options.format, allowed: [.table, .csv, .json], command: "entities") ?? .table
        var rest = words
        let sub = rest.popFirst()
        let shape: String
        switch sub {
        case nil:
            shape = options.rebuildEntities ? Self.rebuildShape : Self.shape
            action = options.rebuildEntities ? .rebuild : .show
        case "resolve":
            shape = Self.resolveShape
            guard let id = rest.popFirst() else { throw CommandLineOptions.UsageError(description: "missing id: \(shape)") }
            let property = rest.popFirst()
            var choices: [EntityList.Choice] = []
            if options.keepMine { choices.append(.mine) }
            if options.keepTheirs { choices.append(.theirs) }
            if let value = options.resolvedValue { choices.append(.value(value)) }
            guard choices.count == 1 else {
                throw CommandLineOptions.UsageError(description: (choices.isEmpty ? "say which value to keep" : "give one of")
                    + " --mine, --theirs or --value TEXT: \(shape)")
            }
            if case .value = choices[0], property == nil {
                throw CommandLineOptions.UsageError(description: "--value needs the PROPERTY it is for: \(shape)")
            }
            action = .resolve(id: id.trimmingWhitespace(), property: property, choices[0])
        case "edit":
            shape = Self.editShape
            guard let id = rest.popFirst() else { throw CommandLineOptions.UsageError(description: "missing id: \(shape)") }
            guard !rest.isEmpty else { throw CommandLineOptions.UsageError(description: "missing PROPERTY=VALUE: \(shape)") }
            var label: String?
            var properties: [String: String] = [:]
            for word in rest {
                guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                    throw CommandLineOptions.UsageError(description: "“\(word)” is not PROPERTY=VALUE: \(shape)")
                }
                let name = String(word[..<equals]), value = String(word[word.index(after: equals)...])
                if name == EntityConflict.labelKey {
                    label = value
                } else if name == "name" || name.hasPrefix("__") {
                    throw CommandLineOptions.UsageError(description: "“\(name)” is ODK's own column, not a property: label=TEXT changes the label")
                } else {
                    properties[name] = value
                }
            }
            rest = []
            action = .edit(id: id.trimmingWhitespace(), label: label, properties: properties)
        case "retire":
            shape = Self.retireShape
            guard let id = rest.popFirst() else { throw CommandLineOptions.UsageError(description: "missing id: \(shape)") }
            action = .retire(id: id.trimmingWhitespace())
        case let word?:
            throw CommandLineOptions.UsageError(description: "unknown entities command “\(word)” (use resolve, edit or retire): \(Self.shape)")
        }
        try ShellCommands.expectNoArguments(rest, shape: shape)
        if sub != nil || options.rebuildEntities {
            if options.format != nil { throw CommandLineOptions.UsageError(description: "--format goes with survey entities alone: \(Self.shape)") }
            if sub != nil, options.rebuildEntities { throw CommandLineOptions.UsageError(description: "--rebuild goes alone: \(Self.rebuildShape)") }
            if sub != nil, list == nil { throw CommandLineOptions.UsageError(description: "--list NAME says which list: \(shape)") }
        }
        if options.db != nil, ![.edit(id: "", label: nil, properties: [:]), .retire(id: "")].contains(where: { Self.sameKind($0, action) }) {
            throw CommandLineOptions.UsageError(description: "--db goes with entities edit and retire: \(Self.editShape)")
        }
        if case .resolve = action {} else if options.keepMine || options.keepTheirs || options.resolvedValue != nil {
            throw CommandLineOptions.UsageError(description: "--mine, --theirs and --value go with entities resolve: \(Self.resolveShape)")
        }
    }

    private static func sameKind(_ a: Action, _ b: Action) -> Bool {
        switch (a, b) {
        case (.edit, .edit), (.retire, .retire): return true
        default: return false
        }
    }

    func run(store: DocumentStore, clock: Questionnaire.Clock, environment: [String: String]) -> Int32 {
        switch action {
        case .show: return show(store: store)
        case .rebuild: return rebuild(store: store, clock: clock)
        case .resolve(let id, let property, let choice): return resolve(store: store, id: id, property: property, choice: choice)
        case .edit(let id, let label, let properties):
            return send(EntityEdit(list: list ?? "", entityID: id, label: label, properties: properties), store: store, environment: environment)
        case .retire(let id):
            return send(EntityEdit(list: list ?? "", entityID: id, retired: true), store: store, environment: environment)
        }
    }

    private func show(store: DocumentStore) -> Int32 {
        return ShellOutput.exitStatus {
            let names: [String]
            if let list {
                if let why = DocumentStore.entityListNameProblem(list) {
                    throw DocumentError("--list \(list): \(why)")
                }
                guard FileManager.default.fileExists(atPath: store.entityListURL(list).path) else {
                    let known = store.entityListNames()
                    throw DocumentError("There is no entity list \(list).csv beside the documents"
                        + (known.isEmpty ? "" : " (their lists: \(known.joined(separator: ", ")))"))
                }
                names = [list]
            } else {
                names = store.entityListNames()
            }
            let lists = try names.map { ($0, try store.entityList($0)) }
            switch format {
            case .csv: StandardOutput.write(Self.csvText(lists, named: list != nil))
            case .json: StandardOutput.write(Self.jsonText(lists))
            default:
                if lists.isEmpty {
                    ShellOutput.line("No entity list beside the documents yet: a form with an entities sheet makes one when a survey that registers is stored")
                } else if list != nil, let (name, one) = lists.first {
                    Self.entityLines(one).forEach(ShellOutput.line)
                    Self.conflictLines(one, name: name).forEach(ShellOutput.line)
                } else {
                    Self.summaryLines(lists).forEach(ShellOutput.line)
                    for (name, one) in lists where !one.conflicts.isEmpty {
                        ShellOutput.line("\(name).csv: \(counted(one.conflicts.count, "conflict")) (survey entities --list \(name))")
                    }
                }
                for (name, one) in lists where one.companionOutOfStep {
                    ShellOutput.error("\(name).csv and .\(name).entities.json beside it were not written together (a write was cut off, "
                        + "or the CSV was replaced): its conflicts may not be these rows', and nothing changes it until "
                        + "survey entities --rebuild --list \(name) derives it again")
                }
            }
            return 0
        }
    }

    private func rebuild(store: DocumentStore, clock: Questionnaire.Clock) -> Int32 {
        return ShellOutput.exitStatus {
            let changes = try store.rebuildEntityLists(only: list, clock: clock)
            if changes.isEmpty {
                ShellOutput.line("No document beside these has a form with an entities sheet: no entity list to rebuild")
            }
            for change in changes {
                let held = (try? store.entityList(change.list).entities.count) ?? 0
                ShellOutput.line("\(change.list).csv: rebuilt from the surveys, \(counted(held, "entity", "entities"))"
                    + (change.keptAsHeld > 0 ? ", \(change.keptAsHeld) kept as the list held \(change.keptAsHeld == 1 ? "it" : "them") (no survey registers \(change.keptAsHeld == 1 ? "it" : "them"))" : "")
                    + (change.conflicts > 0 ? ", \(counted(change.conflicts, "conflict")) (survey entities --list \(change.list))" : ""))
                if change.unreadableLogLines > 0 {
                    ShellOutput.line("\(change.list).csv: \(counted(change.unreadableLogLines, "line")) of .\(change.list).entities.log could not be read "
                        + "and were passed over (what they named was applied in the documents' order)")
                }
            }
            return 0
        }
    }

    private func resolve(store: DocumentStore, id: String, property: String?, choice: EntityList.Choice) -> Int32 {
        return ShellOutput.exitStatus {
            let list = list ?? ""
            let count = try store.resolveEntityConflict(list: list, id: id, property: property, by: choice)
            let left = (try? store.entityList(list).conflicts.count) ?? 0
            ShellOutput.line("Resolved \(count == 1 ? "1 conflict" : "\(count) conflicts") of \(id) in \(list).csv"
                + (left > 0 ? ": \(left) left in the list" : ""))
            return 0
        }
    }

    /// A supervisor's edit or retirement: kept on the team's database first (the server
    /// refuses anyone else, said in words), then taken into this laptop's list; the other
    /// laptops take it at their next sync.
    private func send(_ edit: EntityEdit, store: DocumentStore, environment: [String: String]) -> Int32 {
        if let why = DocumentStore.entityListNameProblem(edit.list) {
            ShellOutput.error("--list \(edit.list): \(why)")
            return 1
        }
        return ServerSession.run(db: db, environment: environment, id: edit.entityID) { server, _ in
            var kept = edit
            kept.change = try server.editEntity(edit)
            let what = edit.retired ? "retired" : "edited"
            do {
                let change = try store.takeOwnEntityEdit(kept)
                let here = change.missing.isEmpty ? "" : " (this laptop's list does not have it yet)"
                ShellOutput.line("\(edit.entityID) of \(edit.list): \(what)\(here); every laptop takes it at its next sync")
                return 0
            } catch {
                ShellOutput.error("\(edit.entityID) of \(edit.list): \(what) on the team's database, but this laptop's list was not changed "
                    + "(\((error as? DocumentError)?.message ?? "\(error)")): the next sync takes it")
                return 1
            }
        }
    }

    /// Each entity list's conflicts now, by name (a list that cannot be read counts none).
    static func conflictCounts(in store: DocumentStore) -> [String: Int] {
        var counts: [String: Int] = [:]
        for name in store.entityListNames() { counts[name] = (try? store.entityList(name).conflicts.count) ?? 0 }
        return counts
    }

    /// One list: its file's own columns (`name`, `label`, `__version`, the properties), as
    /// ODK reads it. Several: a `list` column first, and every list's properties.
    static func csvText(_ lists: [(String, EntityList)], named: Bool) -> String {
        var properties: [String] = []
        for (_, list) in lists { for column in list.columns where !properties.contains(column) { properties.append(column) } }
        let lead = named ? [] : ["list"]
        var rows = [lead + ["name", "label", "__version"] + properties]
        for (name, list) in lists {
            for entity in list.entities {
                rows.append((named ? [] : [name]) + [entity.id, entity.label, String(entity.version)]
                    + properties.map { entity.properties[$0] ?? "" })
            }
        }
        return CSV.text(rows.map { $0.map(SpreadsheetFormula.escaped) })
    }

    /// `[{"list": "households", "entities": [{"name": …, "label": …, "__version": 1, "phone": …}],
    /// "conflicts": [{"name": …, "property": "phone", "base": …, "mine": …, "theirs": …}]}]`.
    static func jsonText(_ lists: [(String, EntityList)]) -> String {
        PropertyValue.array(lists.map { name, list in
            .dictionary(["list": .string(name), "conflicts": .array(list.conflicts.map { c in
                .dictionary(["name": .string(c.id), "property": .string(c.property), "base": .string(c.base),
                             "mine": .string(c.mine), "theirs": .string(c.theirs)])
            }), "entities": .array(list.entities.map { entity in
                var fields: [String: PropertyValue] = ["name": .string(entity.id), "label": .string(entity.label),
                                                       "__version": .integer(entity.version)]
                for column in list.columns { fields[column] = .string(entity.properties[column] ?? "") }
                return .dictionary(fields)
            })])
        }).jsonText() + "\n"
    }

    static func summaryLines(_ lists: [(String, EntityList)]) -> [String] {
        var rows = [["LIST", "ENTITIES", "PROPERTIES"]]
        for (name, list) in lists {
            rows.append([TextTable.cut(name + ".csv"), String(list.entities.count), TextTable.cut(list.columns.joined(separator: ", "))])
        }
        return TextTable.lines(rows)
    }

    /// The list's conflicts, after its entities: each property changed here and on another
    /// laptop from the same base, this laptop's value the list's until it is resolved.
    static func conflictLines(_ list: EntityList, name: String) -> [String] {
        guard !list.conflicts.isEmpty else { return [] }
        var rows = [["NAME", "PROPERTY", "BASE", "MINE", "THEIRS"]]
        for c in list.conflicts { rows.append([c.id, c.property, TextTable.cut(c.base), TextTable.cut(c.mine), TextTable.cut(c.theirs)]) }
        return ["", "\(counted(list.conflicts.count, "conflict")) (survey entities resolve --list \(name) NAME [PROPERTY] --mine|--theirs|--value TEXT):"]
            + TextTable.lines(rows)
    }

    static func entityLines(_ list: EntityList) -> [String] {
        guard !list.entities.isEmpty else { return ["The list has no entity yet"] }
        var rows = [["NAME", "LABEL", "VERSION"] + list.columns.map { $0.uppercased() }]
        for entity in list.entities {
            rows.append([entity.id, TextTable.cut(entity.label), String(entity.version)]
                + list.columns.map { TextTable.cut(entity.properties[$0] ?? "") })
        }
        return TextTable.lines(rows)
    }

    /// After `survey add` or `survey import` stored `records`: the entities they register or
    /// update go into the folder's lists, and each list changed gets a line. A list that
    /// cannot be written is said, with what was stored (`stored`), and the status is 1: the
    /// surveys stay, and their next save (an edit in the app) writes the list.
    static func recordEntities(of records: [Record], in store: DocumentStore, questionnaire: Questionnaire,
                               clock: Questionnaire.Clock, stored: String) -> Int32 {
        // A form with a public_key keeps its finished surveys encrypted: they register no
        // entity, as ODK Central makes none from an encrypted submission.
        let records = questionnaire.form?.publicKey == nil ? records : records.filter(\.isIncomplete)
        do {
            let changes = try store.recordEntities(of: records, questionnaire: questionnaire, clock: clock)
            for change in changes where change.isWorthSaying {
                ShellOutput.line(change.summary)
            }
            return 0
        } catch {
            ShellOutput.error("\(stored), but the entity list was not updated: \(error); once that is fixed, survey entities --rebuild writes it again")
            return 1
        }
    }
}

extension EntitiesCommand: ReadsItsWords {
    static let name = "entities"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["entities"], synopsis: "[--list NAME] [--format table|csv|json]", arguments: [],
                    help: "the entity lists beside the documents (LIST.csv: name, label, __version, the properties), which surveys of a form with an entities sheet create and update when stored and follow-up forms read (select_one_from_file LIST.csv, instance('LIST')): each list with its count, or the entities of --list NAME and its conflicts"),
        CommandSpec(words: ["entities"], synopsis: "--rebuild [--list NAME]", arguments: [],
                    help: "derive the entity lists again from the documents' surveys (a list that could not be written, was damaged, or whose CSV and companion a crash left out of step): each survey's change replayed as it came here (.LIST.entities.log), then what the surveys hold now and the log lacks, registrations first, updates after them (an update whose entity is not there yet, tried again at the end); a supervisor's edits and conflicts resolved by hand are replayed, retirements and rows no survey registers kept"),
        CommandSpec(words: ["entities", "resolve"], synopsis: "--list NAME ID [PROPERTY] --mine|--theirs|--value TEXT", arguments: [.none, .none],
                    help: "settle an entity's conflict (a property changed here and on another laptop from the same version): keep mine, take theirs, or store TEXT"),
        CommandSpec(words: ["entities", "edit"], synopsis: "--list NAME ID PROPERTY=VALUE... [--db URL]", arguments: [.none],
                    help: "a supervisor's edit of an entity (label=TEXT for its label), kept on the team's PostgreSQL: every laptop takes it at its next sync"),
        CommandSpec(words: ["entities", "retire"], synopsis: "--list NAME ID [--db URL]", arguments: [.none],
                    help: "a supervisor retires an entity: it leaves the list (no follow-up form offers it) on every laptop at its next sync"),
    ]

    static let options: [OptionSpec] = [
        .format,
        OptionSpec(names: ["--list"], placeholder: "NAME", completion: .none,
                   help: "with entities: only the entity list NAME (the file NAME.csv beside the documents)") { $0.entityList = $1 },
        OptionSpec(names: ["--rebuild"], placeholder: nil, completion: .none,
                   help: "entities: derive the lists again from the documents' surveys") { options, _ in options.rebuildEntities = true },
    ] + ResolveCommand.options + DatabaseCommand.options

    func run(in context: CommandContext) -> Int32 {
        run(store: context.store, clock: context.clock, environment: ProcessInfo.processInfo.environment)
    }

    var changesDocuments: Bool { action != .show }
}
