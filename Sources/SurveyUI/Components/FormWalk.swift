import SurveyValues
import SurveyForms

/// The walk's numbering of its entries (`FormWalk.EntryNumber`), as the form's state names it.
public typealias EntryNumber = FormWalk.EntryNumber

/// The form as the screen walks it: the top level's questions and, where a repeat (a roster)
/// stands, its heading ("Household member 2 of 4") followed by the questions of the one
/// instance shown, nested repeats within it the same way. CSPro and ODK Collect both key a
/// roster one member at a time; PgUp/PgDn pick the member, so the form stays one column
/// of questions whatever the roster's size.
///
/// The highlight (`FormItem.field(i)`) counts entries of this outline. A flat form's outline
/// is its fields one for one (`entries` nil, nothing built), so every flat form behaves
/// exactly as before.
public struct FormWalk: Sendable {
    /// An entry's place in the walk: what the highlight counts (`FormItem.field`). Typed, so
    /// it is never taken for a question's row in its scope (`FieldIndex`, what the form's
    /// rules go by), a node of the interview's tree (`InterviewTree.RowNumber`) or a line of
    /// the screen. A roster's walk puts a member's questions after its heading, so the same
    /// question has a different entry number in every member shown, and the same row.
    /// A literal reads as an entry number (`.field(3)` in a test): a literal is never another
    /// numbering's value passed by mistake, which is what the type is for.
    public struct EntryNumber: Hashable, Sendable, Strideable, CustomStringConvertible, ExpressibleByIntegerLiteral {
        public let index: Int
        public init(_ index: Int) { self.index = index }
        public init(integerLiteral index: Int) { self.index = index }
        public func advanced(by n: Int) -> EntryNumber { EntryNumber(index + n) }
        public func distance(to other: EntryNumber) -> Int { other.index - index }
        public static func + (a: EntryNumber, n: Int) -> EntryNumber { EntryNumber(a.index + n) }
        public static func - (a: EntryNumber, n: Int) -> EntryNumber { EntryNumber(a.index - n) }
        /// How many entries `b` is before `a`.
        public static func - (a: EntryNumber, b: EntryNumber) -> Int { a.index - b.index }
        public var description: String { "entry \(index)" }
    }

    /// A repeat's place in the outline: which instance is shown, of how many.
    public struct RepeatHeading: Equatable, Sendable {
        /// The repeat's name, as its instances are stored under it.
        public var name: String
        public var label: String
        /// The instances around the repeat (empty for a repeat at the top level).
        public var parent: [AnswerPath.Step]
        /// The instance shown, from 0 (0 when there is none).
        public var shown: Int
        /// Instances the form shows: those stored, or as many as `repeat_count` asks if more.
        public var count: Int
        /// `repeat_count`: exactly that many, no adding or deleting by hand.
        public var fixedCount: Int?
        /// The survey holds something else than members under the roster's name (an older
        /// form's answer): kept as it is, never keyed over.
        public var holdsOtherValue = false
        /// How `FormState` remembers which instance is shown.
        public var selectionKey: String { RepeatHeading.selectionKey(parent: parent, name: name) }
        /// The steps to the instance shown.
        public var steps: [AnswerPath.Step] { parent + [AnswerPath.Step(name: name, index: shown)] }

        static func selectionKey(parent: [AnswerPath.Step], name: String) -> String {
            (parent.map { "\($0.name)[\($0.index)]" } + [name]).joined(separator: "/")
        }
    }

    public struct Entry: Sendable {
        /// A repeat's heading, else nil: a question (or a group heading, a note) of its scope.
        public var heading: RepeatHeading?
        /// The instances around it, outermost first (empty at the top level).
        public var steps: [AnswerPath.Step]
        /// Its row among its scope's fields (not its place in the walk: the index entries go by).
        public var fieldIndex: FieldIndex
        /// Its scope's questionnaire, in `FormWalk.scopes`.
        var scope: Int
        /// Whether it shows: its own `relevant`, its groups', its repeat's.
        public var isShown: Bool
        /// A member's question: its answer in the record the outline was built from, read
        /// once with the member (reading it by path decodes the whole roster each time: with
        /// two rosters of 20, a sixth of every frame).
        var storedValue: PropertyValue? = nil
    }

    /// The top level's questionnaire first, then one per instance shown.
    let scopes: [Questionnaire]
    /// nil: a flat form, one entry per field of `scopes[0]`.
    public let entries: [Entry]?
    private let topRelevance: [Bool]
    /// The record the entries' `storedValue`s were read from.
    private let record: Record
    /// That record's answers, read out once (nil: not read): a top-level answer is looked up
    /// here rather than scanned for in the record's packed bytes, once per row a frame shows.
    private let values: [String: PropertyValue]?
    /// `fields` of a roster's outline, gathered once (each frame asks for them).
    private let entryFields: [FieldSpec]

    /// A flat form (or the original five): the fields themselves; with the record the rules
    /// were asked of and its answers, when they were read.
    init(flat questionnaire: Questionnaire, relevance: [Bool], record: Record = Record(), values: [String: PropertyValue]? = nil) {
        scopes = [questionnaire]
        entries = nil
        topRelevance = relevance
        self.record = record
        self.values = values
        entryFields = []
    }

    public var count: Int { entries?.count ?? scopes[0].fields.count }
    public var isFlat: Bool { entries == nil }
    public var indices: Range<EntryNumber> { EntryNumber(0)..<EntryNumber(count) }

    public func field(_ i: EntryNumber) -> FieldSpec {
        guard let entries else { return scopes[0].fields[i.index] }
        return scopes[entries[i.index].scope].fields[entries[i.index].fieldIndex.row]
    }

    /// The questionnaire that judges entry `i`, and its row there.
    public func scope(of i: EntryNumber) -> (questionnaire: Questionnaire, fieldIndex: FieldIndex) {
        guard let entries else { return (scopes[0], FieldIndex(i.index)) }
        return (scopes[entries[i.index].scope], entries[i.index].fieldIndex)
    }

    public func steps(_ i: EntryNumber) -> [AnswerPath.Step] { entries?[i.index].steps ?? [] }
    public func heading(_ i: EntryNumber) -> RepeatHeading? { entries?[i.index].heading }
    public func isShown(_ i: EntryNumber) -> Bool { entries?[i.index].isShown ?? topRelevance[i.index] }

    /// Entry `i` as the form's rules name it: its row in its scope and the members around it.
    public func place(_ i: EntryNumber) -> QuestionPlace { QuestionPlace(scope(of: i).fieldIndex, at: steps(i)) }

    /// Where entry `i`'s answer is kept.
    public func path(_ i: EntryNumber) -> AnswerPath { AnswerPath(steps(i), field(i).key) }

    /// Entry `i`'s stored answer in `record`.
    public func value(_ i: EntryNumber, in record: Record) -> PropertyValue? {
        // The record it was built from (the same storage: compared at once), else by path.
        let built = values != nil && record.hasIdenticalBytes(self.record)
        guard let entries else { return built ? values?[field(i).key] : record[field(i).key] }
        let entry = entries[i.index]
        if entry.steps.isEmpty { return built ? values?[field(i).key] : record[field(i).key] }
        return record.hasIdenticalBytes(self.record) ? entry.storedValue : record.value(at: path(i))
    }

    /// Entry `i`'s stored answer as text, as the form shows it (`FieldSpec.screenText`).
    public func storedText(_ i: EntryNumber, in record: Record) -> String {
        field(i).screenText(value(i, in: record))
    }

    /// The default a New form offers for entry `i`. (The form's rules are asked of the top
    /// level's questionnaire with the steps to the member, which knows what each name means
    /// there, as pyxform's binds do.)
    public func defaultText(_ i: EntryNumber, in record: Record, clock: Questionnaire.Clock) -> String? {
        FormInstance(scopes[0], record: record, clock: clock).defaultText(at: place(i))
    }

    /// What is wrong with `value` as entry `i`'s answer in `record`, by its scope's rules.
    public func ruleProblem(_ i: EntryNumber, value: PropertyValue?, in record: Record, clock: Questionnaire.Clock) -> String? {
        FormInstance(scopes[0], record: record, clock: clock).problem(at: place(i), value: value)
    }

    /// The same with the record's answers as read once (`FormRuleCache.values`).
    func ruleProblem(_ i: EntryNumber, value: PropertyValue?, values: [String: PropertyValue], clock: Questionnaire.Clock) -> String? {
        FormInstance(scopes[0], values: values, clock: clock).problem(at: place(i), value: value)
    }

    /// Whether entry `i` must be answered now (its `required`, read in its member).
    public func isRequired(_ i: EntryNumber, in record: Record, clock: Questionnaire.Clock) -> Bool {
        FormInstance(scopes[0], record: record, clock: clock).isRequired(place(i))
    }

    /// The same, with the survey's answers as read once for the frame.
    func isRequired(_ i: EntryNumber, values: @escaping @Sendable () -> [String: PropertyValue], clock: Questionnaire.Clock) -> Bool {
        FormInstance(scopes[0], reading: values, clock: clock).isRequired(place(i))
    }

    /// The choices entry `i` offers now.
    public func choices(_ i: EntryNumber, in record: Record, clock: Questionnaire.Clock) -> [XLSForm.Choice] {
        FormInstance(scopes[0], record: record, clock: clock).choices(at: place(i))
    }

    /// Whether entry `i` is read-only in its form.
    /// Whether the designer gave entry `i` a label (the questionnaire names one without a
    /// label by its name).
    public func hasOwnLabel(_ i: EntryNumber) -> Bool {
        let (questionnaire, index) = scope(of: i)
        guard let question = questionnaire.form?.questions[index.row] else { return true }
        return question.labels.values.contains { !$0.isEmpty }
    }

    public func isReadOnly(_ i: EntryNumber) -> Bool {
        let (questionnaire, index) = scope(of: i)
        return questionnaire.form?.questions[index.row].readOnly ?? false
    }

    /// The fields of every entry, in order (a repeat's heading stands as its row).
    public var fields: [FieldSpec] { entries == nil ? scopes[0].fields : entryFields }

    /// The entry of a repeat's heading, by its selection key.
    public func headingEntry(_ key: String) -> EntryNumber? {
        entries?.firstIndex { $0.heading?.selectionKey == key }.map { EntryNumber($0) }
    }

    /// The heading of the innermost repeat entry `i` is in (its own, for a heading).
    public func enclosingHeading(of i: EntryNumber) -> EntryNumber? {
        guard let entries else { return nil }
        if entries[i.index].heading != nil { return i }
        let steps = entries[i.index].steps
        guard let last = steps.last else { return nil }
        let key = RepeatHeading.selectionKey(parent: Array(steps.dropLast()), name: last.name)
        return headingEntry(key)
    }

    /// Entries of the instance a heading shows, nested ones included.
    public func instanceEntries(of heading: EntryNumber) -> [EntryNumber] {
        guard let entries, let h = entries[heading.index].heading, h.count > 0 else { return [] }
        let steps = h.steps
        return entries.indices.filter { $0 > heading.index && entries[$0].steps.starts(with: steps) }.map { EntryNumber($0) }
    }

    /// The answers of the member `steps` lead to (the survey's own for none); nil when the
    /// survey holds no such member.
    static func answers(at steps: ArraySlice<AnswerPath.Step>, in values: [String: PropertyValue]) -> [String: PropertyValue]? {
        guard let first = steps.first else { return values }
        guard case .array(let items)? = values[first.name], items.indices.contains(first.index),
              case .dictionary(let answers) = items[first.index] else { return nil }
        return Self.answers(at: steps.dropFirst(), in: answers)
    }

    // MARK: Building

    /// The outline of `record` under `questionnaire`, showing for each repeat the instance
    /// `selection` names (the first by default). `topRelevance` is the top level's.
    ///
    /// `memberRelevance`: a member's relevance (`relevance(at:values:)`) when the caller
    /// keeps it, so a member drawn and judged is evaluated once.
    static func make(_ questionnaire: Questionnaire, record: Record, values: [String: PropertyValue]? = nil, selection: [String: Int],
                     topRelevance: [Bool], clock: Questionnaire.Clock,
                     memberRelevance: (([AnswerPath.Step]) -> [Bool])? = nil) -> FormWalk {
        guard questionnaire.form?.questions.contains(where: { $0.kind == .beginRepeat }) == true else {
            return FormWalk(flat: questionnaire, relevance: topRelevance, record: record, values: values)
        }
        let values = values ?? record.values
        var builder = Builder(top: questionnaire, record: record, values: values, selection: selection, clock: clock,
                              memberRelevance: memberRelevance)
        builder.walk(questionnaire, steps: [], relevance: topRelevance, shown: true)
        return FormWalk(scopes: builder.scopes, entries: builder.entries, topRelevance: topRelevance, record: record, values: values)
    }

    private init(scopes: [Questionnaire], entries: [Entry], topRelevance: [Bool], record: Record, values: [String: PropertyValue]) {
        self.scopes = scopes
        self.entries = entries
        self.topRelevance = topRelevance
        self.record = record
        self.values = values
        entryFields = entries.map { scopes[$0.scope].fields[$0.fieldIndex.row] }
    }

    private struct Builder {
        let top: Questionnaire
        let record: Record
        /// The record's answers, read out once for the whole walk.
        let values: [String: PropertyValue]
        let selection: [String: Int]
        let clock: Questionnaire.Clock
        let memberRelevance: (([AnswerPath.Step]) -> [Bool])?
        var scopes: [Questionnaire] = []
        var entries: [Entry] = []

        init(top: Questionnaire, record: Record, values: [String: PropertyValue], selection: [String: Int], clock: Questionnaire.Clock,
             memberRelevance: (([AnswerPath.Step]) -> [Bool])?) {
            self.top = top
            self.record = record
            self.values = values
            self.selection = selection
            self.clock = clock
            self.memberRelevance = memberRelevance
        }


        /// How many members of the repeat `name` the answers hold (a list of dictionaries).
        static func members(of name: String, in answers: [String: PropertyValue]) -> Int {
            guard case .array(let items)? = answers[name] else { return 0 }
            return items.reduce(0) { count, item in if case .dictionary = item { count + 1 } else { count } }
        }

        mutating func walk(_ questionnaire: Questionnaire, steps: [AnswerPath.Step], relevance: [Bool], shown: Bool) {
            let scope = scopes.count
            scopes.append(questionnaire)
            // The member's answers, read once for all its questions.
            let member = FormWalk.answers(at: steps[...], in: values)
            for i in questionnaire.fields.indices {
                let isShown = shown && (relevance.indices.contains(i) ? relevance[i] : true)
                let row = FieldIndex(i)
                guard let node = questionnaire.repeatAtRow(row) else {
                    entries.append(Entry(heading: nil, steps: steps, fieldIndex: row, scope: scope, isShown: isShown,
                                         storedValue: member?[questionnaire.fields[i].key]))
                    continue
                }
                let stored = Self.members(of: node.name, in: steps.isEmpty ? values : member ?? [:])
                let fixed = FormInstance(top, values: values, clock: clock).repeatCount(of: node, parent: steps)
                let count = max(stored, fixed ?? 0)
                let key = RepeatHeading.selectionKey(parent: steps, name: node.name)
                let chosen = min(max(0, selection[key] ?? 0), max(0, count - 1))
                // "Stems of tree with tag number ${tag}": the label shows the answers it names, read
                // in the member around the roster.
                var label = questionnaire.fields[i].label
                if label.namesAnAnswer { label = questionnaire.filledIn(label, from: Questionnaire.scoped(record, steps)) }
                var heading = RepeatHeading(name: node.name, label: label, parent: steps,
                                            shown: chosen, count: count, fixedCount: fixed)
                if stored == 0, let value = (steps.isEmpty ? values : member ?? [:])[node.name] {
                    if case .array = value {} else { heading.holdsOtherValue = true }
                }
                entries.append(Entry(heading: heading, steps: steps, fieldIndex: row, scope: scope, isShown: isShown))
                guard count > 0 else { continue }
                let inner = questionnaire.instanceQuestionnaire(for: node)
                let innerSteps = heading.steps
                let innerRelevance = isShown
                    ? memberRelevance?(innerSteps) ?? FormInstance(top, values: values, clock: clock).relevance(at: innerSteps)
                    : Array(repeating: false, count: inner.fields.count)
                walk(inner, steps: innerSteps, relevance: innerRelevance, shown: isShown)
            }
        }
    }
}
