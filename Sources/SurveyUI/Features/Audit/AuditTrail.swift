import FoundationEssentials
import SurveyValues
import SurveyForms

/// The audit log being gathered as the keyer moves (ODK Collect's `AuditEventLogger`), for a
/// form with an `audit` row: the events of the New form and of the stored survey being
/// changed, each until it is written (`Effect.noteAudit`), the question the highlight is on
/// since when, and who is keying. Its setters are private to this file.
///
/// Times are milliseconds since 1970 read from the state's clock, never going back (Collect
/// takes the wall clock once, then a monotonic one: a clock set back mid-survey must not
/// make a question end before it began).
public struct AuditTrail: Equatable, Sendable {
    /// One survey's events not written yet.
    public struct Session: Equatable, Sendable {
        /// The stored survey's instanceID; nil for the New form (its id comes when it is added).
        public let survey: String?
        public fileprivate(set) var events: [AuditEvent] = []
        /// The question the highlight is on, since when, and its answer then.
        public fileprivate(set) var open: OpenQuestion?
        /// A change to it was saved in this session (then `form save` at its end).
        public fileprivate(set) var changed = false
    }

    /// Why a stored survey is being changed, as the keyer said before its first change
    /// (`AppState+ChangeReasons`): kept, with or without an audit row, until the keyer is on
    /// another survey or document, so the edit history's line of each change saved meanwhile
    /// carries it (read after the save, which may come in the same key as leaving).
    public struct GivenReason: Equatable, Sendable {
        public let survey: String
        public let document: String
        public let text: String
    }

    public struct OpenQuestion: Equatable, Sendable {
        public let node: String
        public let path: AnswerPath
        public let field: FieldSpec
        public let start: Int64
        public let old: String
        /// Where its event goes among the session's: where it began, before what happened
        /// while it was open (Collect lists an interval event where it was created).
        var position = 0
    }

    /// Who is keying, as the keyer said (`identify-user`); asked once per run of the app.
    public private(set) var user: String?
    public private(set) var draft: Session?
    public private(set) var stored: Session?
    /// The last time given out, so times never go back.
    public private(set) var lastTime: Int64 = 0
    /// The document the logs belong to.
    public private(set) var document: String?
    /// Why the survey being changed is changed, once said.
    public private(set) var reason: GivenReason?

    public init() {}

    /// A fresh trail that still knows who is keying and why a survey is changed (a form
    /// without a log came in).
    init(keeping user: String?, reason: GivenReason?) {
        self.user = user
        self.reason = reason
    }

    mutating func follow(document name: String) { document = name }

    /// The document this log follows was renamed: the same document, its log open on.
    mutating func documentRenamed(from old: String, to new: String) {
        if document == old { document = new }
        if let given = reason, given.document == old { reason = GivenReason(survey: given.survey, document: new, text: given.text) }
    }

    /// The reason given for changing survey `id`, if one was given and still holds.
    public func reason(for id: String) -> String? { reason?.survey == id ? reason?.text : nil }

    /// The keyer is on survey `here` (nil: none stored) of `document`: a reason given for
    /// another survey no longer holds.
    mutating func forgetReason(unlessOn here: String?, in document: String) {
        if let given = reason, given.survey != here || given.document != document { reason = nil }
    }

    /// Now in milliseconds, never before the last time given out.
    mutating func tick(_ date: Date) -> Int64 {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        lastTime = max(lastTime, ms)
        return lastTime
    }

    /// Who is keying; the events of the logs open, begun as the prompt opened, are theirs.
    mutating func identify(_ name: String) {
        user = name
        for i in draft?.events.indices ?? 0..<0 where draft?.events[i].user == nil { draft?.events[i].user = name }
        for i in stored?.events.indices ?? 0..<0 where stored?.events[i].user == nil { stored?.events[i].user = name }
    }

    func session(draft isDraft: Bool) -> Session? { isDraft ? draft : stored }

    mutating func begin(survey: String?, at time: Int64) {
        var session = Session(survey: survey)
        session.events.append(AuditEvent(kind: survey == nil ? .formStart : .formResume, start: time, user: user))
        if survey == nil { draft = session } else { stored = session }
    }

    mutating func change(draft isDraft: Bool, _ edit: (inout Session) -> Void) {
        if isDraft { if draft != nil { edit(&draft!) } } else if stored != nil { edit(&stored!) }
    }

    mutating func add(_ event: AuditEvent, draft isDraft: Bool) {
        var event = event
        event.user = user
        change(draft: isDraft) { $0.events.append(event) }
    }

    /// Ends the open question with the answer it has now (`track-changes`: both kept only
    /// when it changed).
    mutating func closeQuestion(draft isDraft: Bool, at time: Int64, answer: String?, trackChanges: Bool) {
        let user = self.user
        change(draft: isDraft) { session in
            guard let open = session.open else { return }
            session.open = nil
            let now = answer ?? open.old
            let changed = trackChanges && now != open.old
            session.events.insert(AuditEvent(kind: .question, node: open.node, start: open.start, end: time,
                                             oldValue: changed ? open.old : "", newValue: changed ? now : "", user: user),
                                  at: min(open.position, session.events.count))
        }
    }

    mutating func openQuestion(_ question: OpenQuestion, draft isDraft: Bool) {
        change(draft: isDraft) { session in
            var question = question
            question.position = session.events.count
            session.open = question
        }
    }

    mutating func noteChanged() { change(draft: false) { $0.changed = true } }

    /// Why survey `id` of `document` is changed; with `logged` (the form keeps an audit log),
    /// also its `change reason` event in that survey's log (begun if none is open).
    mutating func giveReason(_ text: String, for id: String, in document: String, at time: Int64, logged: Bool) {
        reason = GivenReason(survey: id, document: document, text: text)
        guard logged else { return }
        if stored == nil { begin(survey: id, at: time) }
        guard stored?.survey == id else { return }
        let user = self.user
        change(draft: false) { session in
            session.events.append(AuditEvent(kind: .changeReason, start: time, user: user, changeReason: text))
        }
    }

    /// The session's events, ended as `closing` says, and the session gone.
    mutating func finish(draft isDraft: Bool, at time: Int64, with closing: [AuditEvent.Kind]) -> [AuditEvent] {
        guard let session = session(draft: isDraft) else { return [] }
        var events = session.events + closing.map { AuditEvent(kind: $0, start: time, user: user) }
        if let id = session.survey { for i in events.indices { events[i].survey = id } }
        if isDraft { draft = nil } else { stored = nil }
        return events
    }

    /// The New form emptied without being added ([ Clear ], another document): its events go
    /// with it, as Collect drops the log of a form never saved.
    mutating func dropDraft() { draft = nil }
}

/// The audit prompts: who is keying (`identify-user`), why a stored survey is changed
/// (`track-changes-reasons=on-form-edit`, or a survey a supervisor approved).
public struct AuditPrompt: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case user, reason }
    public let kind: Kind
    public internal(set) var input: TextInput
    /// For a reason: the change it waits for, which Enter resumes.
    public internal(set) var waiting: ChangeAwaitingReason?
}

/// A change to a stored survey held back until the keyer says why (`AppState+ChangeReasons`):
/// the key that made it, replayed once the reason is given, on the form as it was then.
public struct ChangeAwaitingReason: Equatable, Sendable {
    /// Why a reason is asked: the form says so, or a supervisor approved the survey.
    public enum Rule: Equatable, Sendable { case form, approved }
    public let action: Action
    /// The survey changed (its instanceID).
    public let survey: String
    public let rule: Rule
    /// What was open when the key came (the picker, verify mode, the list): back on Enter, so
    /// the key means what it meant, and on Esc, so the choice is still there.
    let popover: AppState.Popover?
    /// The y/n question the key answered (`y` to deleting a member, clearing answers): back
    /// on Enter only, so `y` answers it; Esc answers it no.
    let rosterQuestion: RosterQuestion?
    let question: SurveyQuestion?
}
