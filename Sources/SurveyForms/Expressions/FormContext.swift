import FoundationEssentials
import SurveyValues

/// What an expression can see: the answer being checked (`.`), the other answers by name
/// (already as text, as they are stored), the clock for `today()` and `now()`, and the few
/// things ODK's functions need beyond answers. Everything that varies between runs (the
/// clock, the random source) comes from here, never from the system inside a function, so a
/// test pins it and two evaluations of the same survey agree.
///
/// The members after `answers` have defaults that give a flat form (no repeats) its results;
/// a questionnaire fills them all in from the survey and the instance a rule runs in
/// (`Questionnaire+Context`), as pyxform's binds read names in a roster.
public struct FormContext: Sendable {
    public var current: FormValue
    public var answers: @Sendable (String) -> FormValue
    public var now: Date
    public var timeZone: TimeZoneRule
    /// The choice a `choice_filter` is judging: its `name` and its other columns.
    public var choiceColumns: [String: String] = [:]

    /// Every value of `${name}` as a node-set, in document order: one per instance of the
    /// repeat it is in (`count(${member_age})`, `sum(${stems})`), and an empty list when the
    /// repeat has no instance. A question outside any repeat is one node, whatever its answer
    /// (so `count()` of it is 1, as JavaRosa counts an empty node). Default: `[answers(name)]`.
    public var nodeSet: @Sendable (String) -> [FormValue]
    /// The 1-based positions of the repeat instances the expression is evaluated in,
    /// outermost first: `position(..)` is the last, `position(../..)` the one before. Empty
    /// outside any repeat, where a position is 1.
    public var repeatPositions: [Int] = []
    /// `indexed-repeat(${name}, ${repeat1}, i1, ${repeat2}, i2, …)`: the value of `name` in
    /// instance `i1` (1-based) of `repeat1`, then instance `i2` of `repeat2` inside it, and so
    /// on. Default: a flat form's one node for index 1, the empty string for any other.
    public var indexedRepeat: @Sendable (_ name: String, _ path: [(repeat: String, index: Int)]) -> FormValue
    /// `jr:choice-name(value, '${question}')`: the label, in the language shown, of the choice
    /// named `choice` in the list of the select question `question`; nil when either is not
    /// there. Default: nil (the call is then the empty string, as JavaRosa's is).
    public var choiceLabel: @Sendable (_ question: String, _ choice: String) -> String?
    /// The items of a secondary instance, each its columns by name, for
    /// `instance('name')/root/item[…]` and `pulldata('name', …)`: a choice list of the form
    /// or a file beside it (`XLSForm.instanceRows`). Default: none, so such a call is empty.
    public var instance: @Sendable (_ name: String) -> [[String: String]]? = { _ in nil }
    /// `${last-saved#name}`: the answer `name` of the last survey saved in this document (ODK
    /// Collect's meaning: the most recent saved instance of the form), which a new, empty
    /// document does not have. Default: none, so it is empty, as in Collect.
    public var lastSaved: @Sendable (_ name: String) -> FormValue = { _ in .string("") }
    /// A number in [0, 1) for `random()`, and the randomness of `uuid()`. Default: the
    /// system's generator.
    public var random: @Sendable () -> Double

    public init(current: FormValue = .string(""), now: Date, timeZone: TimeZoneRule = .current,
                answers: @escaping @Sendable (String) -> FormValue) {
        self.current = current
        self.answers = answers
        self.now = now
        self.timeZone = timeZone
        self.nodeSet = { [answers] name in [answers(name)] }
        self.indexedRepeat = { [answers] name, path in
            // A flat form has one node per name: instance 1 is it, any other is empty.
            guard let index = path.last?.index else { return answers(name) }
            return index == 1 ? answers(name) : .string("")
        }
        self.choiceLabel = { _, _ in nil }
        self.random = { Double.random(in: 0..<1) }
    }
}
