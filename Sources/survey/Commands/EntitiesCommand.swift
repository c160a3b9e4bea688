import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey entities`: the entity lists beside the documents (`LIST.csv`, which the surveys
/// of a registration form create and update when they are stored, and which follow-up forms
/// read): a table for people; CSV (ODK Central's columns, formula-escaped as every CSV
/// survey writes) or JSON for programs.
struct EntitiesCommand: Equatable {
    static let shape = "survey entities [--list NAME] [--format table|csv|json]"

    var list: String?
    var format: DataFormat

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try ShellCommands.expectNoArguments(words, shape: Self.shape)
        list = options.entityList
        format = try DataFormat.parse(options.format, allowed: [.table, .csv, .json], command: "entities") ?? .table
    }

    func run(store: DocumentStore) -> Int32 {
        do {
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
                } else if list != nil, let (_, one) = lists.first {
                    Self.entityLines(one).forEach(ShellOutput.line)
                } else {
                    Self.summaryLines(lists).forEach(ShellOutput.line)
                }
            }
            return 0
        } catch {
            ShellOutput.failure(error)
            return 1
        }
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

    /// `[{"list": "households", "entities": [{"name": …, "label": …, "__version": 1, "phone": …}]}]`.
    static func jsonText(_ lists: [(String, EntityList)]) -> String {
        PropertyValue.array(lists.map { name, list in
            .dictionary(["list": .string(name), "entities": .array(list.entities.map { entity in
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
            for change in changes where change.created + change.updated > 0 || !change.missing.isEmpty {
                ShellOutput.line(change.summary)
            }
            return 0
        } catch {
            ShellOutput.error("\(stored), but the entity list was not updated: \(error)")
            return 1
        }
    }
}

extension EntitiesCommand: ReadsItsWords {
    static let name = "entities"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["entities"], synopsis: "[--list NAME] [--format table|csv|json]", arguments: [],
                    help: "the entity lists beside the documents (LIST.csv: name, label, __version, the properties), which surveys of a form with an entities sheet create and update when stored and follow-up forms read (select_one_from_file LIST.csv, instance('LIST')): each list with its count, or the entities of --list NAME"),
    ]

    static let options: [OptionSpec] = [
        .format,
        OptionSpec(names: ["--list"], placeholder: "NAME", completion: .none,
                   help: "with entities: only the entity list NAME (the file NAME.csv beside the documents)") { $0.entityList = $1 },
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store) }

    var changesDocuments: Bool { false }
}
