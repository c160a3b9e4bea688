import SurveyValues
import SurveyForms

/// The form's own reducer (issue 29: a child reducer, as `SurveyListState.reduce`): where the
/// highlight goes on ↑/↓, Tab, Home/End, PgUp/PgDn (a screenful, or a roster's next member)
/// and after a kept answer, what Enter on the highlight means, Esc's dropped typing and F5's
/// heads-down switch, decided from the form and the little it reads of the app (`Context`:
/// the form as walked, the geometry), and what it asks of the app as a value. `AppState`
/// keeps what reaches past the form: the gate of a typed answer (`committingField`, before a
/// move that leaves the field), rosters' members, Add and Clear, and beginning to type into
/// a question (`beginEditing`, which reads the survey and its rules).
extension FormState {
    typealias FormItem = AppState.FormItem

    /// What the form reads of the app.
    struct Context {
        /// The form as the screen walks it, each roster showing the member `selection` names
        /// (`AppState.outline`, from the rule cache): the highlight's stops and the rosters
        /// are read from it, again after PgUp/PgDn picked another member.
        var walk: (_ selection: [String: Int]) -> FormWalk
        /// The form as drawn were it this form (its highlight, scroll and members shown), for
        /// PgUp/PgDn and keeping the highlight in view (laid out only for them).
        var geometry: (FormState) -> FormGeometry
        /// Whether the form scrolls (a designer's form; the original five fields always fit).
        var scrolls: Bool
        /// Which survey the form shows (`AppState.shown`), and its name in a roster's y/n
        /// question (`AppState.surveyOnForm`), so the answer is never taken for another.
        var shown: AppState.Shown = .draft
        var survey = "New"
        /// Whether the member these steps lead to holds an answer in the survey on the form
        /// (one added by hand and left empty is taken out, `FormState+Roster`).
        var memberHoldsAnswers: ([AnswerPath.Step]) -> Bool = { _ in true }
    }

    /// What a key on the form asks of the app.
    enum Request: Equatable {
        case none
        /// The status line says this.
        case tell(String)
        /// Typing goes on in the highlighted question, its answer selected (heads-down).
        case edit
        /// Typing starts in the highlighted question, the caret after its answer (Enter on it).
        case beginEditing
        /// A first member of the roster whose heading is this entry (Enter on it, none yet).
        case addMember(EntryNumber)
        /// The status line asks this y/n question (the form holds it, `rosterQuestion`).
        case ask(String)
        /// This member, added by hand and left empty, is taken out of the survey; then the
        /// keys go on past its roster (`goOnPast`).
        case leaveRoster(UnsavedMember)
        /// [ Clear ] pressed: the form emptied.
        case clear
        /// [ Add ] (or [ Finish ]) pressed.
        case add
    }

    /// The form's keys. `.commitAndMove` and `.commitAndAdvance` come here once the app has
    /// kept the typed answer (heads-down, a roster decides first: `FormState+Roster`);
    /// the keys that reach past the form are the app's, and ask nothing here.
    mutating func reduce(_ action: FormAction, in context: Context) -> Request {
        switch action {
        case .moveHighlight(let delta):
            moveHighlight(by: delta, wrap: false, in: context)
        case .cycleHighlight(let delta):
            moveHighlight(by: delta, wrap: true, in: context)
        case .jumpToEdge(let last):
            let questions = stops(in: context).filter { if case .field = $0 { true } else { false } }
            if let target = last ? questions.last : questions.first { highlight(target) }
        case .movePage(let direction):
            moveHighlightByPage(direction, in: context)
        case .commitAndMove(let delta, let wrap):
            moveHighlight(by: delta, wrap: wrap, in: context)
            return editingHighlighted
        case .commitAndAdvance:
            // A roster decides first where the keys go (`advanceThroughRoster`).
            if let decided = advanceThroughRoster(from: formItem, in: context) { return decided }
            // Heads-down, as data clerks key (CSPro): after the last question the highlight
            // rests on [ Add ], not [ Clear ].
            moveHighlight(by: 1, wrap: false, in: context)
            if formItem == .clear { highlight(.add) }
            return editingHighlighted
        case .activate:
            // Enter while browsing: edit the question, go into the roster, press the button.
            switch formItem {
            case .field(let i) where context.walk(instances).heading(i) != nil: return enterRoster(i, in: context)
            case .field: return .beginEditing
            case .clear: return .clear
            case .add: return .add
            }
        case .cancelEditing:
            stopEditing()
        case .toggleNextFormAfterAdd:
            toggleAddStartsNextForm()
            return .tell(addStartsNextForm
                ? "After Add on the New form: straight on to the next empty New form (F5 changes it)"
                : "After Add: the survey just added is shown (F5 changes it)")
        case .stepInstance(let delta):
            return stepInstance(by: delta, in: context)
        case .previousRecord, .nextRecord, .beginEditing, .commitField, .nextLanguage, .addInstance,
             .requestInstanceDelete, .answerRoster, .nextProblem, .clearAnswer:
            break   // the app's: they read or change the survey, the list or the language
        }
        return .none
    }

    /// Going on heads-down keeps typing on a question, not on a button.
    var editingHighlighted: Request {
        if case .field = formItem { .edit } else { .none }
    }

    /// PgUp/PgDn outside a roster: the question a screenful up or down (the first or last
    /// at the ends), the form scrolling with it.
    private mutating func moveHighlightByPage(_ direction: Int, in context: Context) {
        let geometry = context.geometry(self)
        let items = stops(in: context)
        guard let here = geometry.contentSpan(of: formItem)?.lowerBound, let at = items.firstIndex(of: formItem) else {
            moveHighlight(by: direction, wrap: false, in: context)
            return
        }
        let page = max(1, geometry.viewport.height - 1)
        var target = at
        var i = at
        while true {
            i += direction
            guard items.indices.contains(i), let top = geometry.contentSpan(of: items[i])?.lowerBound else { break }
            target = i
            if abs(top - here) >= page { break }
        }
        if target == at { target = direction > 0 ? items.count - 1 : 0 }
        highlight(items[target])
    }

    /// PgUp/PgDn in a roster: the previous / next member of the roster the highlight is in,
    /// the highlight on the same question of that member (or the heading).
    private mutating func stepInstance(by delta: Int, in context: Context) -> Request {
        let walk = context.walk(instances)
        guard case .field(let i) = formItem, walk.indices.contains(i), let entry = walk.enclosingHeading(of: i),
              let heading = walk.heading(entry) else { return .none }
        let name = RosterText.name(heading)
        guard heading.count > 0 else {
            return .tell(heading.fixedCount == nil ? "No \(name) yet: ^O adds one" : "The form asks for no \(name)")
        }
        let target = heading.shown + delta
        guard target >= 0 else { return .tell("Already at the first \(name)") }
        guard target < heading.count else {
            return .tell(heading.fixedCount == nil ? "Already at the last \(name): ^O adds another" : "Already at the last \(name)")
        }
        // The same question of the other member, found by its place in the instance.
        let offset: Int? = i != entry ? i - entry : nil
        showInstance(target, of: heading.selectionKey)
        let shown = context.walk(instances)
        if let offset, let h = shown.headingEntry(heading.selectionKey), shown.indices.contains(h + offset),
           shown.isNavigable(h + offset) {
            highlight(.field(h + offset))
        } else if let h = shown.headingEntry(heading.selectionKey) {
            highlight(.field(h))
        }
        return .none
    }
}
