import FoundationEssentials
import SurveyValues

/// Independent double entry (issue 30; CSPro's "compare data files"): two documents keyed
/// from the same papers by two keyers, paired survey by survey, and every answer where they
/// differ. Surveys pair by their instanceID (copies of one document) or by the answers that
/// identify a paper (`--by plot_id`, CSPro's ID items): two keyers give the same paper two
/// different instanceIDs. Pure: the caller reads the documents.
///
/// Compared: what a keyer keys. Left out: ids (the survey's and each roster member's),
/// the form's id and version, and the questions a keyer never keys (calculations, metadata
/// such as `start` or `deviceid`, notes): they differ between keyers by design, or follow
/// from an answer that is reported already. An answer missing and an empty answer are the
/// same blank on paper. Roster members pair by their place, the order they are on the paper.
public struct DocumentDiff: Equatable, Sendable {
    /// One answer the two documents hold differently; nil: blank on that side.
    public struct Difference: Equatable, Sendable {
        public var survey: String
        public var field: String
        public var a: String?
        public var b: String?
    }

    public var differences: [Difference] = []
    /// Surveys paired and compared.
    public var paired = 0
    /// Surveys of one side with no partner on the other (by their key).
    public var onlyInA: [String] = []
    public var onlyInB: [String] = []
    /// Keys that more than one survey of a side has: not paired, since which paper is which
    /// cannot be told (CSPro flags them too).
    public var duplicatesInA: [String] = []
    public var duplicatesInB: [String] = []
    /// Surveys with a blank in an identifying answer: no key to pair them by.
    public var unkeyedInA = 0
    public var unkeyedInB = 0

    public var isSame: Bool {
        differences.isEmpty && onlyInA.isEmpty && onlyInB.isEmpty && duplicatesInA.isEmpty && duplicatesInB.isEmpty
            && unkeyedInA == 0 && unkeyedInB == 0
    }

    /// `by`: the answers that identify a paper (empty: the instanceID). `questionnaire`
    /// names the questions a keyer does not key.
    public init(_ a: [Record], _ b: [Record], by keys: [String] = [], questionnaire: Questionnaire = .standard) {
        let byID = keys.isEmpty
        let skipped = Self.notKeyed(in: questionnaire).union(Self.neverCompared).union(keys)
        func key(_ record: Record) -> String? {
            if byID { return record.instanceID.flatMap { $0.isEmpty ? nil : $0 } }
            var parts: [String] = []
            for name in keys {
                guard let value = record[name].flatMap(Self.leafText), !value.isEmpty else { return nil }
                parts.append("\(name)=\(value)")
            }
            // Joined by a byte no answer is keyed with, so `a="x b=y"` never meets `a="x", b="y"`.
            return parts.joined(separator: Self.keySeparator)
        }
        func index(_ records: [Record], unkeyed: inout Int, duplicates: inout [String]) -> [String: Record] {
            var found: [String: Record] = [:]
            var twice: Set<String> = []
            for record in records {
                guard let key = key(record) else { unkeyed += 1; continue }
                if found.updateValue(record, forKey: key) != nil { twice.insert(key) }
            }
            for key in twice { found[key] = nil }
            duplicates = twice.sorted()
            return found
        }
        let left = index(a, unkeyed: &unkeyedInA, duplicates: &duplicatesInA)
        let right = index(b, unkeyed: &unkeyedInB, duplicates: &duplicatesInB)
        // A key one side holds twice is said once, as a duplicate, not also as "only in".
        let (twiceA, twiceB) = (Set(duplicatesInA), Set(duplicatesInB))
        onlyInA = left.keys.filter { right[$0] == nil && !twiceB.contains($0) }.sorted().map(Self.shown)
        onlyInB = right.keys.filter { left[$0] == nil && !twiceA.contains($0) }.sorted().map(Self.shown)
        duplicatesInA = duplicatesInA.map(Self.shown)
        duplicatesInB = duplicatesInB.map(Self.shown)
        for survey in left.keys.sorted() {
            guard let mine = left[survey], let theirs = right[survey] else { continue }
            paired += 1
            var one: [String: String] = [:], other: [String: String] = [:]
            Self.flatten(.dictionary(mine.values), "", skipping: skipped, into: &one)
            Self.flatten(.dictionary(theirs.values), "", skipping: skipped, into: &other)
            for field in Set(one.keys).union(other.keys).sorted(by: Self.fieldOrder) where one[field] != other[field] {
                differences.append(Difference(survey: Self.shown(survey), field: field, a: one[field], b: other[field]))
            }
        }
    }

    static let keySeparator = "\u{1F}"
    static func shown(_ key: String) -> String { key.split(separator: "\u{1F}", omittingEmptySubsequences: false).joined(separator: " ") }

    /// Ids (the survey's, a member's), the form's id and version, and ODK's metadata by their
    /// usual names (for a document read without its form, a copy on a stick): they differ
    /// between keyers by design.
    static let neverCompared: Set<String> = Set(AnswerMerge.memberIDKeys).union([
        Questionnaire.formIDKey, Questionnaire.formVersionKey,
        "start", "end", "today", "deviceid", "subscriberid", "simserial", "phonenumber", "username", "email", "audit",
    ])

    /// Names of the questions no keyer keys, in the survey and in every roster's members.
    static func notKeyed(in questionnaire: Questionnaire) -> Set<String> {
        var names: Set<String> = []
        for scope in [questionnaire] + questionnaire.rosterScopes {
            for (i, field) in scope.fields.enumerated() where scope.repeatAtRow(FieldIndex(i)) == nil {
                switch field.kind {
                case .calculated, .metadata, .note, .notCollected, .groupStart, .groupEnd: names.insert(field.key)
                default: break
                }
            }
        }
        return names
    }

    /// Every keyed answer by its path (`member[2]/name`), as text; blanks left out. Walked
    /// with a stack, not recursion: a document from a stick is untrusted, its nesting too.
    static func flatten(_ value: PropertyValue, _ path: String, skipping: Set<String>, into out: inout [String: String]) {
        var stack: [(PropertyValue, String)] = [(value, path)]
        while let (value, path) = stack.popLast() {
            switch value {
            case .dictionary(let answers):
                for (key, answer) in answers where !skipping.contains(key) {
                    stack.append((answer, path.isEmpty ? key : path + "/" + key))
                }
            case .array(let items) where !items.isEmpty && items.allSatisfy({ if case .dictionary = $0 { true } else { false } }):
                for (place, member) in items.enumerated() { stack.append((member, "\(path)[\(place + 1)]")) }
            default:
                if let text = leafText(value), !text.isEmpty { out[path] = text }
            }
        }
    }

    /// An answer as a keyer reads it: text as it is, a number as written, a list of
    /// choices space-separated (ODK's select_multiple); nil for what is not an answer.
    static func leafText(_ value: PropertyValue) -> String? {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .array(let items): return items.compactMap(leafText).joined(separator: " ")
        case .date, .data, .dictionary: return ConflictListing.compactJSON(value)
        }
    }

    /// Paths in reading order: `member[2]` before `member[10]`.
    static func fieldOrder(_ a: String, _ b: String) -> Bool {
        var (x, y) = (Array(a.utf8)[...], Array(b.utf8)[...])
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        while let p = x.first, let q = y.first {
            if isDigit(p), isDigit(q) {
                let m = x.prefix(while: isDigit), n = y.prefix(while: isDigit)
                let (m1, n1) = (m.drop { $0 == 0x30 }, n.drop { $0 == 0x30 })
                if m1.count != n1.count { return m1.count < n1.count }
                if !m1.elementsEqual(n1) { return m1.lexicographicallyPrecedes(n1) }
                (x, y) = (x.dropFirst(m.count), y.dropFirst(n.count))
            } else {
                if p != q { return p < q }
                (x, y) = (x.dropFirst(), y.dropFirst())
            }
        }
        return x.isEmpty && !y.isEmpty
    }
}

extension DocumentDiff {
    /// `survey diff --format json`: the differences (a blank side is `null`), then what could
    /// not be paired.
    public func jsonText(a: String, b: String) -> String {
        func text(_ value: String?) -> PropertyValue? { value.map(PropertyValue.string) }
        let rows: [PropertyValue] = differences.map { d in
            var row: [String: PropertyValue] = ["survey": .string(d.survey), "field": .string(d.field)]
            row["a"] = text(d.a)
            row["b"] = text(d.b)
            return .dictionary(row)
        }
        func side(_ name: String, only: [String], duplicates: [String], unkeyed: Int) -> PropertyValue {
            .dictionary(["document": .string(name), "only": .array(only.map(PropertyValue.string)),
                         "duplicates": .array(duplicates.map(PropertyValue.string)), "unkeyed": .integer(unkeyed)])
        }
        let whole: PropertyValue = .dictionary([
            "paired": .integer(paired), "differences": .array(rows),
            "a": side(a, only: onlyInA, duplicates: duplicatesInA, unkeyed: unkeyedInA),
            "b": side(b, only: onlyInB, duplicates: duplicatesInB, unkeyed: unkeyedInB),
        ])
        return whole.jsonText() + "\n"
    }

    /// `--format csv`: survey, field, and each side's value, with a header naming the two
    /// documents; a survey one side lacks is a row with field `(survey)`.
    /// Each cell as the export writes it: a formula (`=`, `+`, `-`, `@`) behind a `'`, so a
    /// keyed `=HYPERLINK(…)` does not run when the supervisor opens the file.
    public func csvRows(a: String, b: String) -> [[String]] {
        var rows = [["survey", "field", a, b]]
        rows += differences.map { [$0.survey, $0.field, $0.a ?? "", $0.b ?? ""] }
        rows += onlyInA.map { [$0, "(survey)", "present", ""] }
        rows += onlyInB.map { [$0, "(survey)", "", "present"] }
        return rows.map { $0.map(SpreadsheetFormula.escaped) }
    }

    /// "2 answers differ in 1 of 40 surveys paired; 1 only in A": the last line of the table.
    public func summary(a: String, b: String) -> String {
        let surveys = Set(differences.map(\.survey)).count
        var parts = [differences.isEmpty ? "no answer differs in \(counted(paired, "survey")) paired"
            : "\(counted(differences.count, "answer")) \(differences.count == 1 ? "differs" : "differ") in \(surveys) of \(counted(paired, "survey")) paired"]
        if !onlyInA.isEmpty { parts.append("\(onlyInA.count) only in \(a)") }
        if !onlyInB.isEmpty { parts.append("\(onlyInB.count) only in \(b)") }
        for (name, keys) in [(a, duplicatesInA), (b, duplicatesInB)] where !keys.isEmpty {
            parts.append("\(counted(keys.count, "key")) on more than one survey in \(name) (not compared: \(keys.prefix(3).joined(separator: ", "))\(keys.count > 3 ? ", …" : ""))")
        }
        for (name, count) in [(a, unkeyedInA), (b, unkeyedInB)] where count > 0 {
            parts.append("\(counted(count, "survey")) in \(name) with a blank identifying answer (not compared)")
        }
        return parts.joined(separator: "; ")
    }
}
