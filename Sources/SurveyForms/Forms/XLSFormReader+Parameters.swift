import FoundationEssentials
import SurveyValues

/// The `parameters` column as pyxform 4.5 judges it (`parsing/parameters.py`, its checks in
/// `xls2json.py` and `validators/pyxform/question_types`): `key=value` pairs, the keys each
/// question type takes, and the values each key takes. A form pyxform refuses for its
/// parameters is refused here at the row, for pyxform's reason in its words; what pyxform
/// takes is kept (most parameters ask for something a terminal does not do, `randomize`,
/// `max-pixels`, `quality`, and change nothing here). A type pyxform gives no parameters
/// check (`integer`, `date`…) takes any.
extension XLSFormReader {
    /// The question types pyxform checks parameters of, by the keys they take.
    enum ParameterFamily: Equatable {
        case audit, select, selectFromFile, range, text, image, audio, backgroundAudio, geopoint, geoshapeOrTrace

        /// pyxform's accepted keys (its `Parameters…` enums), sorted as its message lists them.
        var accepted: [String] {
            switch self {
            case .audit: ["identify-user", "location-max-age", "location-min-interval", "location-priority", "track-changes", "track-changes-reasons"]
            case .select: ["randomize", "seed"]
            case .selectFromFile: ["label", "randomize", "seed", "value"]
            case .range: ["end", "placeholder", "start", "step", "tick_interval", "tick_labelset"]
            case .text: ["rows"]
            case .image: ["app", "max-pixels"]
            case .audio, .backgroundAudio: ["quality"]
            case .geopoint: ["allow-mock-accuracy", "capture-accuracy", "reference-geometry", "warning-accuracy"]
            case .geoshapeOrTrace: ["allow-mock-accuracy", "incremental", "reference-geometry"]
            }
        }

        /// The family of a row's `type`, spelled as pyxform matches it (after its aliases:
        /// `image` is its `photo`; `location` is no `geopoint` to this check).
        init?(type raw: String) {
            let type = raw.trimmingWhitespace()
            switch type {
            case "audit": self = .audit
            case "range": self = .range
            case "text": self = .text
            case "photo", "image", "add image prompt", "add photo prompt": self = .image
            case "audio", "add audio prompt": self = .audio
            case "background-audio": self = .backgroundAudio
            case "geopoint": self = .geopoint
            case "geoshape", "geotrace": self = .geoshapeOrTrace
            default:
                guard let command = Self.selectCommand(type) else { return nil }
                self = command.hasSuffix("_from_file") ? .selectFromFile : .select
            }
        }

        /// pyxform's `RE_SELECT`: a select command, one list name, and an optional `or_other`.
        static func selectCommand(_ type: String) -> String? {
            let commands = ["add select one prompt using", "add select multiple prompt using", "select all that apply from",
                            "select one from", "select1", "select_one", "select one", "select_multiple", "select all that apply",
                            "select_one_external", "select_one_from_file", "select_multiple_from_file", "rank"]
            for command in commands where type.hasPrefix(command + " ") {
                let rest = type.dropFirst(command.count + 1).split(separator: " ", omittingEmptySubsequences: false)
                guard let list = rest.first, !list.isEmpty, !list.contains(where: \.isWhitespace) else { continue }
                let other = rest.dropFirst().joined(separator: " ")
                if other.isEmpty || ["or specify other", "or_other", "or other"].contains(other) { return command }
            }
            return nil
        }
    }

    /// pyxform's parse of the column: `key=value` pairs, blanks, commas or semicolons between
    /// them (blanks around `=` too); keys lowercased, values too but for `label` and `value`.
    /// nil when the text is not pairs (pyxform refuses the row whatever its type).
    static func parsedParameters(_ text: String) -> [String: String]? {
        var tokens: [String] = []
        var current = ""
        for c in text {
            if c.isWhitespace || c == "," || c == ";" || c == "=" {
                if !current.isEmpty { tokens.append(current); current = "" }
                if c == "=" { tokens.append("=") }
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        guard tokens.count % 3 == 0 else { return nil }
        var result: [String: String] = [:]
        for i in stride(from: 0, to: tokens.count, by: 3) {
            let (key, equals, value) = (tokens[i], tokens[i + 1], tokens[i + 2])
            guard key != "=", equals == "=", value != "=" else { return nil }
            let name = key.lowercased()
            result[name] = ["label", "value"].contains(name) ? value : value.lowercased()
        }
        return result
    }

    /// Checks a row's `parameters` as pyxform does for its type; the first problem is the
    /// row's error (pyxform stops at it). `geoReferences` collects each `reference-geometry`,
    /// judged when the whole form is read.
    mutating func checkParameters(_ text: String?, type: String, question: XLSForm.Question, choices: [String: [XLSForm.Choice]]) {
        let row = question.row
        func refuse(_ message: String) {
            errors.append(XLSFormProblem(sheet: "survey", row: row, column: "parameters", message: message))
        }
        guard let text, !text.trimmingWhitespace().isEmpty else {
            if XLSFormReader.ParameterFamily(type: type) == .range { checkRange(question, parameters: [:], choices: choices) }
            return
        }
        guard let parameters = Self.parsedParameters(text) else {
            return refuse("parameters must be in the form of 'key1=value1 key2=value2': “\(text)” is not")
        }
        guard let family = ParameterFamily(type: type) else { return }
        let extra = Set(parameters.keys).subtracting(family.accepted)
        guard extra.isEmpty else {
            return refuse("the accepted parameter keys for this question type are '\(family.accepted.joined(separator: ", "))'. "
                + "The following are invalid parameter key(s): '\(extra.sorted().joined(separator: ", "))'")
        }
        if let problem = Self.parameterProblem(family, parameters, question: question) { return refuse(problem) }
        switch family {
        case .range: checkRange(question, parameters: parameters, choices: choices)
        case .geopoint, .geoshapeOrTrace:
            if let target = parameters["reference-geometry"] { geoReferences.append((target, row)) }
        default: break
        }
    }

    /// What pyxform says of a type's parameter values (but a range's, `checkRange`), nil
    /// when it takes them.
    private static func parameterProblem(_ family: ParameterFamily, _ p: [String: String], question: XLSForm.Question) -> String? {
        let trueOrFalse: Set<String> = ["true", "false"]
        switch family {
        case .audit:
            if let v = p["track-changes"], !trueOrFalse.contains(v) { return "track-changes must be set to true or false: '\(v)' is an invalid value" }
            if let v = p["track-changes-reasons"], v != "on-form-edit" { return "track-changes-reasons must be set to on-form-edit, not '\(v)'" }
            if let v = p["identify-user"], !trueOrFalse.contains(v) { return "identify-user must be set to true or false: '\(v)' is an invalid value" }
            let location = ["location-priority", "location-min-interval", "location-max-age"]
            guard location.contains(where: { p[$0] != nil }) else { return nil }
            guard let priority = p["location-priority"], let minText = p["location-min-interval"], let maxText = p["location-max-age"] else {
                return "to include location information in the audit, 'location-priority', 'location-min-interval', "
                    + "and 'location-max-age' are required parameters"
            }
            guard ["no-power", "low-power", "balanced", "high-accuracy"].contains(priority) else {
                return "parameter location-priority must be set to no-power, low-power, balanced, or high-accuracy: '\(priority)' is an invalid value"
            }
            guard let minimum = pythonInt(minText) else { return "parameter location-min-interval must have an integer value" }
            guard minimum >= 0 else { return "parameter location-min-interval must be greater than or equal to zero" }
            guard let maximum = pythonInt(maxText) else { return "parameter location-max-age must have an integer value" }
            guard maximum >= 0 else { return "parameter location-max-age must be greater than or equal to zero" }
            guard maximum >= minimum else { return "parameter location-max-age must be greater than or equal to location-min-interval" }
            return nil
        case .select, .selectFromFile:
            if family == .selectFromFile {
                for name in ["value", "label"] where p[name].map({ !isXMLName($0) }) ?? false {
                    return "the 'parameters (\(name))' value is invalid. Names must begin with a letter or underscore. "
                        + "After the first character, names may contain letters, digits, underscores, hyphens, or periods"
                }
            }
            if let randomize = p["randomize"] {
                guard trueOrFalse.contains(randomize) else { return "randomize must be set to true or false: '\(randomize)' is an invalid value" }
                if let seed = p["seed"], !isReference(seed), pythonFloat(seed) == nil {
                    return "seed value must be a number or a reference to another field, not '\(seed)'"
                }
            } else if p["seed"] != nil {
                return "parameters must include randomize=true to use a seed"
            }
            return nil
        case .text:
            if let rows = p["rows"], pythonInt(rows) == nil { return "parameter rows must have an integer value" }
            return nil
        case .image:
            if let pixels = p["max-pixels"], pythonInt(pixels) == nil { return "parameter max-pixels must have an integer value" }
            // pyxform checks `app` only where it uses it: no appearance, or `annotate`.
            if let app = p["app"], question.appearance == nil || question.appearance == "annotate",
               let problem = androidPackageProblem(app) {
                return problem
            }
            return nil
        case .audio, .backgroundAudio:
            let qualities: Set<String> = family == .audio ? ["voice-only", "low", "normal", "external"] : ["voice-only", "low", "normal"]
            if let quality = p["quality"], !qualities.contains(quality) {
                return "invalid value for quality: '\(quality)' (\(qualities.sorted().joined(separator: ", ")))"
            }
            return nil
        case .geopoint:
            if let v = p["capture-accuracy"], pythonFloat(v) == nil { return "the 'capture-accuracy' parameter must have a numeric value" }
            if let v = p["warning-accuracy"], pythonFloat(v) == nil { return "the 'warning-accuracy' parameter must have a numeric value" }
            if let v = p["allow-mock-accuracy"], !trueOrFalse.contains(v) { return "the 'allow-mock-accuracy' parameter must be either 'true' or 'false'" }
            return nil
        case .geoshapeOrTrace:
            if let v = p["incremental"], !["yes", "true", "true()"].contains(v) {
                return "for geoshape and geotrace questions, the 'incremental' parameter may either be 'true' or not included"
            }
            if let v = p["allow-mock-accuracy"], !trueOrFalse.contains(v) { return "the 'allow-mock-accuracy' parameter must be either 'true' or 'false'" }
            return nil
        case .range:
            return nil
        }
    }

    /// pyxform's `reference-geometry` targets: a secondary instance (a choice list, an entity
    /// list, a list file's base name) or `${name}` of a repeat.
    mutating func checkGeoReferences(_ form: XLSForm) {
        var instances = Set(form.choices.keys).union(form.entities.map(\.list))
        var repeats: Set<String> = []
        for q in form.allQuestions {
            switch q.kind {
            case .selectOne(let list, _), .selectMultiple(let list, _):
                if XLSForm.isFileList(list) { instances.insert(String(list.split(separator: ".").first ?? "")) }
            case .beginRepeat: repeats.insert(q.name)
            case .notCollected(let type):
                let words = type.split(whereSeparator: \.isWhitespace)
                if let first = words.first, ["xml-external", "csv-external"].contains(first.lowercased()) { instances.insert(q.name) }
                if let first = words.first, first.lowercased().hasSuffix("_from_file"), words.count > 1 {
                    instances.insert(String(words[1].split(separator: ".").first ?? ""))
                }
            default: break
            }
        }
        for (target, row) in geoReferences {
            if instances.contains(target) { continue }
            if Self.isReference(target), repeats.contains(String(target.dropFirst(2).dropLast())) { continue }
            errors.append(XLSFormProblem(sheet: "survey", row: row, column: "parameters",
                                         message: "the 'reference-geometry' parameter must either match a secondary instance name "
                                             + "(a choices list_name, an entities list_name, or the base name of an attached file), "
                                             + "or be a reference variable containing the name of a repeat: “\(target)” is neither"))
        }
    }

    /// `${name}` and nothing else.
    static func isReference(_ text: String) -> Bool {
        text.hasPrefix("${") && text.hasSuffix("}") && text.count > 3 && isXMLName(String(text.dropFirst(2).dropLast()))
    }

    /// Python's `int(text)`: an optional sign and digits (underscores between them).
    static func pythonInt(_ text: String) -> Int? {
        let t = String(text.trimmingWhitespace().filter { $0 != "_" })
        return Int(t.hasPrefix("+") ? String(t.dropFirst()) : t)
    }

    /// Python's `float(text)`: a decimal or exponent number, or inf/nan.
    static func pythonFloat(_ text: String) -> Double? {
        let t = text.trimmingWhitespace().lowercased()
        if ["inf", "+inf", "-inf", "infinity", "+infinity", "-infinity", "nan", "+nan", "-nan"].contains(t) { return .nan }
        guard t.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.e_".contains($0)) }) else { return nil }
        return Double(String(t.filter { $0 != "_" }))
    }

    /// pyxform's Android package name rule for an image's `app`, nil when it takes the name.
    static func androidPackageProblem(_ name: String) -> String? {
        let prefix = "parameter 'app' has an invalid Android package name - "
        if name.trimmingWhitespace().isEmpty { return prefix + "package name is missing" }
        if !name.contains(".") { return prefix + "the package name must have at least one '.' separator" }
        if name.hasSuffix(".") { return prefix + "the package name cannot end in a '.' separator" }
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        if segments.contains(where: \.isEmpty) { return prefix + "package segments must be of non-zero length" }
        if segments.contains(where: { $0.hasPrefix("_") }) {
            return prefix + "the character '_' cannot be the first character in a package name segment"
        }
        if segments.contains(where: { $0.first?.isNumber == true }) {
            return prefix + "a digit cannot be the first character in a package name segment"
        }
        if name.unicodeScalars.contains(where: { !($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "_")) }) {
            return prefix + "the package name can only include letters (a-z, A-Z), numbers (0-9), dots (.), and underscores (_)"
        }
        return nil
    }
}
