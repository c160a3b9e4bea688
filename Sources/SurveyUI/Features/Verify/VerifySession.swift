import FoundationEssentials
import SurveyValues
import SurveyForms

/// Verify mode (CSPro's double entry, issue 30): one survey re-keyed from paper, question by
/// question, the fields blank. What the rules make of each answer is `VerificationRules`;
/// this holds where the verifier is: the survey, its questions verification asks, which are
/// already verified (from the document's verification record, so a survey left half done
/// resumes), the answer being typed, and a first differing try waiting for its second.
public struct VerifySession: Equatable, Sendable {
    /// One question to verify: where it is, how the form asks it, and what is stored.
    public struct Question: Equatable, Sendable {
        public var path: AnswerPath
        public var label: String
        public var field: FieldSpec
        public var stored: PropertyValue?
        /// The members around it, outermost first (`tree 2 › stem 1`); "" at the top.
        public var place: String

        public var storedText: String { field.screenText(stored) }
    }

    public private(set) var survey: String
    public private(set) var title: String
    public private(set) var questions: [Question]
    /// Paths (`AnswerPath.description`) already verified, in any sitting.
    public private(set) var settled: Set<String>
    public private(set) var input = TextInput(text: "")
    /// The first try that differed from the stored answer (as parsed, and as typed).
    public private(set) var firstTry: PropertyValue?? = nil
    public private(set) var firstTryText = ""
    /// The stored and keyed answers side by side (a key asks for it, after a difference).
    public private(set) var showsBoth = false
    /// Chosen surveys still waiting after this one, in order.
    public private(set) var waiting: [String]
    /// What each of them already had verified when the record was read (by path): one left
    /// half done resumes when the chain reaches it.
    public private(set) var resumes: [String: Set<String>] = [:]
    /// This sitting's outcomes, for the closing message.
    public private(set) var tally = Tally()

    public struct Tally: Equatable, Sendable {
        public var same = 0, keyerErrors = 0, verifierErrors = 0
    }

    public init(survey: String, title: String, questions: [Question], settled: Set<String>, waiting: [String],
                resumes: [String: Set<String>] = [:]) {
        self.survey = survey
        self.title = title
        self.questions = questions
        self.settled = settled
        self.waiting = waiting
        self.resumes = resumes
    }

    /// The first question not verified yet, in the form's order.
    public var current: Int? { questions.firstIndex { !settled.contains($0.path.description) } }
    public var currentQuestion: Question? { current.map { questions[$0] } }
    public var isComplete: Bool { current == nil }
    public var verifiedCount: Int { questions.filter { settled.contains($0.path.description) }.count }

    mutating func edit(_ change: (inout TextInput) -> Void) { change(&input) }

    /// A first try that differed: asked again, the field blank.
    mutating func askAgain(first: PropertyValue?, text: String) {
        firstTry = .some(first)
        firstTryText = text
        input = TextInput(text: "")
    }

    /// The current question is verified (whatever the outcome): on to the next.
    mutating func settle(_ question: Question, as kind: VerificationEntry.Kind) {
        settled.insert(question.path.description)
        switch kind {
        case .same: tally.same += 1
        case .keyerError: tally.keyerErrors += 1
        case .verifierError: tally.verifierErrors += 1
        default: break
        }
        firstTry = nil
        firstTryText = ""
        showsBoth = false
        input = TextInput(text: "")
    }

    /// Asked afresh, no try waiting (the form refused the second one).
    mutating func startAgain() {
        firstTry = nil
        firstTryText = ""
        showsBoth = false
        input = TextInput(text: "")
    }

    mutating func toggleBoth() { showsBoth.toggle() }

    /// The questions asked again after a correction (a relevance it changed).
    mutating func refresh(_ questions: [Question]) { self.questions = questions }

    /// A survey to verify: its id, what it has verified already (`settled`, by path), and the
    /// chain after it (`waiting`, each resuming what it had, `resumes`).
    struct Next: Equatable {
        var survey: String
        var settled: Set<String>
        var waiting: [String]
        var resumes: [String: Set<String>]
    }

    /// The survey verified, the next waiting one still in the document (`isInDocument`: by
    /// id), taken off the list with those skipped before it; it resumes what it had verified
    /// when the record was read. Nil: the chain is done.
    mutating func takeNext(where isInDocument: (String) -> Bool) -> Next? {
        while !waiting.isEmpty {
            let next = waiting.removeFirst()
            guard isInDocument(next) else { continue }
            return Next(survey: next, settled: resumes[next] ?? [], waiting: waiting, resumes: resumes)
        }
        return nil
    }
}

extension VerifySession {
    /// The questions of `record` verification asks, in the form's order, members included:
    /// those the form asks now (a question `relevant` hides is not asked; a calculation, a
    /// note and metadata never are), less those whose `verify` column says no and files
    /// (a path on this laptop is not on paper).
    public static func questions(of record: Record, in top: Questionnaire, clock: Questionnaire.Clock) -> [Question] {
        guard top.form != nil else {
            return top.fields.filter { $0.kind.isAnswered && $0.isVerified }.map {
                Question(path: AnswerPath($0.key), label: $0.label, field: $0, stored: record[$0.key], place: "")
            }
        }
        let rows = InterviewTree.rows(of: record, in: top, clock: clock, problems: [])
        var result: [Question] = []
        var scopes: [[AnswerPath.Step]: Questionnaire] = [:]
        for row in rows where row.kind == .question {
            let scope = scopes[row.steps] ?? top.scopeQuestionnaire(row.steps)
            scopes[row.steps] = scope
            guard let field = scope.fields.first(where: { $0.key == row.name }), field.kind.isAnswered, field.isVerified else { continue }
            if case .attachment = field.kind { continue }
            // What the form fills in (a calculation on a typed question) or keeps from the keyer
            // (read-only) is not keyed from paper: never verified, never replaced.
            if let question = scope.form?.questions.first(where: { $0.name == row.name }),
               question.readOnly || question.calculation != nil { continue }
            let stored = FormWalk.answers(at: row.steps[...], in: record.values)?[row.name]
            let place = row.steps.map { "\($0.name) \($0.index + 1)" }.joined(separator: " › ")
            result.append(Question(path: AnswerPath(row.steps, row.name), label: row.label, field: field, stored: stored, place: place))
        }
        return result
    }
}
