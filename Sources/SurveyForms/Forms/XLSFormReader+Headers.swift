import FoundationEssentials
import SurveyValues

/// A sheet's header row as pyxform 4.5 judges it (`get_excel_column_headers`,
/// `dealias_and_group_headers`), refused for its reasons: the same column headed twice in a
/// workbook, two names of one column (`name` and its alias `value`, `calculation` and
/// `calculate`), a survey sheet without a `type` column, a choices sheet without `name`.
/// survey's own reading (`XLSFormColumn`) would take the first of two such columns and ask
/// nothing of a sheet without types; pyxform cannot say which was meant, nor can survey.
extension XLSFormReader {
    /// pyxform's header aliases and known columns for each sheet it reads (`aliases.py`, the
    /// slot names of `MultipleChoiceQuestion`, `Option` and `Survey`). An alias to a pair is a
    /// grouped column (`relevant` is `bind::relevant`).
    struct HeaderRules {
        let aliases: [String: [String]]
        let columns: Set<String>
        /// Columns the sheet must have (pyxform: the survey sheet always, others when they hold rows).
        let required: [String]

        static let survey = HeaderRules(aliases: [
            "sms_field": ["sms_field"], "sms_option": ["sms_option"], "sms_separator": ["sms_separator"],
            "sms_allow_media": ["sms_allow_media"], "sms_date_format": ["sms_date_format"],
            "sms_datetime_format": ["sms_datetime_format"], "sms_response": ["sms_response"],
            "compact_tag": ["instance", "odk:tag"], "read_only": ["bind", "readonly"], "readonly": ["bind", "readonly"],
            "relevant": ["bind", "relevant"], "caption": ["label"], "appearance": ["control", "appearance"],
            "relevance": ["bind", "relevant"], "required": ["bind", "required"], "constraint": ["bind", "constraint"],
            "constraining_message": ["bind", "jr:constraintMsg"], "constraint_message": ["bind", "jr:constraintMsg"],
            "calculation": ["bind", "calculate"], "calculate": ["bind", "calculate"], "command": ["type"],
            "tag": ["name"], "value": ["name"], "image": ["media", "image"], "big-image": ["media", "big-image"],
            "audio": ["media", "audio"], "video": ["media", "video"], "count": ["control", "jr:count"],
            "repeat_count": ["control", "jr:count"], "jr:count": ["control", "jr:count"], "autoplay": ["control", "autoplay"],
            "rows": ["control", "rows"], "noapperrorstring": ["bind", "jr:noAppErrorString"],
            "no_app_error_string": ["bind", "jr:noAppErrorString"], "requiredmsg": ["bind", "jr:requiredMsg"],
            "required_message": ["bind", "jr:requiredMsg"], "body": ["control"], "save_to": ["bind", "entities:saveto"],
        ], columns: ["actions", "bind", "choice_filter", "choices", "control", "default", "extra_data", "guidance_hint", "hint",
                     "instance", "itemset", "label", "list_name", "media", "name", "parameters", "parent", "query", "sms_field",
                     "trigger", "type"],
        required: ["type"])

        static let list = HeaderRules(aliases: [
            "caption": ["label"], "list_name": ["list name"], "value": ["name"], "image": ["media", "image"],
            "big-image": ["media", "big-image"], "audio": ["media", "audio"], "video": ["media", "video"],
        ], columns: ["extra_data", "label", "media", "name", "parent", "sms_option"], required: [])

        static let choices = HeaderRules(aliases: list.aliases, columns: list.columns, required: ["name"])

        static let settings = HeaderRules(aliases: [
            "form_title": ["title"], "set_form_title": ["title"], "form_id": ["id_string"], "set_form_id": ["id_string"],
            "prefix": ["compact_prefix"],
        ], columns: ["add_none_option", "allow_choice_duplicates", "attribute", "auto_delete", "auto_send", "bind", "children",
                     "choices", "clean_text_values", "client_editable", "control", "default_language", "delimiter",
                     "entity_version", "extra_data", "file_name", "flat", "hint", "id_string", "instance", "instance_name",
                     "instance_xmlns", "label", "media", "name", "namespaces", "omit_instanceID", "parent", "prefix",
                     "public_key", "setgeopoint_by_triggering_ref", "setvalues_by_triggering_ref", "sms_allow_media",
                     "sms_date_format", "sms_datetime_format", "sms_field", "sms_keyword", "sms_response", "sms_separator",
                     "style", "submission_url", "title", "type", "version"],
        required: [])

        static let entities = HeaderRules(aliases: ["list_name": ["dataset"]],
                                          columns: ["create_if", "dataset", "entity_id", "label", "repeat", "update_if"], required: [])

        /// By sheet, as pyxform reads them (`osm` as a list).
        static let bySheet: [(sheet: String, rules: HeaderRules)] = [
            ("settings", settings), ("external_choices", list), ("choices", choices), ("entities", entities),
            ("survey", survey), ("osm", list),
        ]
    }

    /// A header as pyxform's `process_header` reads it: the column (its first token, aliases
    /// resolved; a grouped column is several, as `media::image`) and the rest (a language),
    /// and whether that is another name than the one written.
    static func pyxformHeader(_ header: String, doubleColon: Bool, rules: HeaderRules) -> (tokens: [String], renamed: Bool) {
        func snake(_ text: String) -> String {
            text.split(whereSeparator: \.isWhitespace).joined(separator: "_").lowercased()
        }
        if rules.columns.contains(header), rules.aliases[header] == nil { return ([header], false) }
        let normal = snake(header)
        if rules.columns.contains(normal), rules.aliases[normal] == nil { return ([normal], normal != header) }
        var tokens: [String]
        if doubleColon || header.contains("::") {
            tokens = header.split(separator: "::", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        } else {
            tokens = header.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            // `jr:count` written with single colons stays one token.
            if let jr = tokens.firstIndex(of: "jr"), jr + 1 < tokens.count {
                tokens = Array(tokens[..<jr]) + ["jr:" + tokens[jr + 1]] + Array(tokens[(jr + 2)...])
            }
        }
        let first = snake(tokens[0])
        if let alias = rules.aliases[first] {
            return (alias + tokens.dropFirst(), alias.count > 1 || alias[0] != header)
        }
        if rules.columns.contains(first) { return ([first] + tokens.dropFirst(), first != header) }
        return (tokens, false)
    }

    /// Each sheet pyxform reads, its header judged as pyxform judges it.
    mutating func checkHeaders(_ sheets: XLSFormSheets, survey: [XLSFormSheets.Row]) {
        for (name, rules) in HeaderRules.bySheet {
            guard let rows = name == "survey" ? survey : sheets.sheet(named: name) else { continue }
            let meaningful = rows.filter { row in row.cells.contains { !$0.trimmingWhitespace().isEmpty } }
            guard let header = meaningful.first else {
                if name == "survey" { refuseMissing(rules.required, sheet: name, row: nil) }
                continue
            }
            let hasRows = meaningful.count > 1
            let cleaned = header.cells.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            // A workbook's header that repeats one before it (pyxform compares the cell as
            // written with the headers before it, blanks trimmed).
            if sheets.isWorkbook {
                for (i, raw) in header.cells.enumerated() where !cleaned[i].isEmpty && cleaned[..<i].contains(raw) {
                    errors.append(XLSFormProblem(sheet: name, row: header.number, column: cleaned[i],
                                                 message: "two columns are headed “\(cleaned[i])”: pyxform refuses a duplicate column header "
                                                     + "(which one is meant?); rename or remove one"))
                }
            }
            // pyxform dealiases a sheet other than the survey only when it has rows.
            guard name == "survey" || hasRows else { continue }
            var texts = cleaned.filter { !$0.isEmpty }
            // pyxform drops `id_string` where `form_id` heads a column too (with a warning).
            if name == "settings", texts.contains("form_id") { texts.removeAll { $0 == "id_string" } }
            let doubleColon = texts.contains { $0.contains("::") }
            var seen: [[String]: String] = [:]
            var done: Set<String> = []
            for text in texts where done.insert(text).inserted {
                let (tokens, renamed) = Self.pyxformHeader(text, doubleColon: doubleColon, rules: rules)
                if let other = seen[tokens], renamed {
                    errors.append(XLSFormProblem(sheet: name, row: header.number, column: text,
                                                 message: "“\(other)” and “\(text)” are names of the same column: rename or remove one of them"))
                }
                seen[tokens] = text
            }
            let firsts = Set(seen.keys.compactMap(\.first))
            refuseMissing(rules.required.filter { !firsts.contains($0) }, sheet: name, row: header.number)
        }
    }

    private mutating func refuseMissing(_ columns: [String], sheet: String, row: Int?) {
        guard row != nil else {
            if !columns.isEmpty {
                errors.append(XLSFormProblem(sheet: sheet, row: nil, column: nil,
                                             message: "the \(sheet) sheet is empty: its first row heads the columns (type, name, label), "
                                                 + "each row after it is a question"))
            }
            return
        }
        for column in columns {
            errors.append(XLSFormProblem(sheet: sheet, row: row, column: column,
                                         message: "the \(sheet) sheet has no “\(column)” column: its first row must head the columns, "
                                             + "and “\(column)” is required"))
        }
    }
}
