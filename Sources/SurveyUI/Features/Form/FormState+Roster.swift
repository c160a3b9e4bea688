import SurveyValues
import SurveyForms

/// Heads-down through rosters, the form's own (issue 29: beside its reducer,
/// `FormState+Reduce`): Enter after a member's last question goes on to the next member
/// (counted by the form) or asks "Add another …? y/n"; arriving at a roster goes into its
/// first member or asks for one; `n` goes on past the roster; Enter on a roster's heading goes
/// into the member shown. Decided from the form as walked (`Context`), and what it asks of the
/// app as a `Request`: type on (`.edit`), ask (`.ask`), add a first member (`.addMember`),
/// take out a member added by hand and left empty (`.leaveRoster`). Adding and deleting
/// members change the survey, and stay the app's (`AppState+Roster`).
extension FormState {
    /// Heads-down Enter once the answer is kept: within a roster, the end of a member asks for
    /// another (or, counted by the form, goes on to the next member); arriving at a roster's
    /// heading goes into it. Nil when nothing about rosters decides where the keys go.
    mutating func advanceThroughRoster(from item: FormItem, in context: Context) -> Request? {
        let walk = context.walk(instances)
        guard !walk.isFlat, case .field(let from) = item, walk.indices.contains(from) else { return nil }
        let next = walk.indices.first { $0 > from && walk.isNavigable($0) }
        return goOn(from: from, to: next, in: walk, context: context)
    }

    /// Enter on a roster's heading (entry `entry`): into the member shown; with none yet, the
    /// app adds a first one (asked: the roster may rightly be empty), unless the form counts them.
    mutating func enterRoster(_ entry: EntryNumber, in context: Context) -> Request {
        guard let heading = context.walk(instances).heading(entry) else { return .none }
        if heading.count == 0 { return heading.fixedCount == nil ? .addMember(entry) : .none }
        return enterMember(of: heading.selectionKey, in: context)
    }

    /// The highlight on the first question of the member shown of the roster `key` names,
    /// typing on there; on the heading when the member shows no question.
    mutating func enterMember(of key: String, in context: Context) -> Request {
        let walk = context.walk(instances)
        guard let h = walk.headingEntry(key) else { return .none }
        guard let first = walk.instanceEntries(of: h).first(where: { walk.isNavigable($0) && walk.heading($0) == nil }) else {
            highlight(.field(h))
            keepHighlightInView(in: context)
            return .none
        }
        highlight(.field(first))
        keepHighlightInView(in: context)
        return .edit
    }

    /// `n` to "Add another …?": on past the roster (its heading at `h`), which may end the
    /// member it is in (a plot's trees).
    mutating func goOnPastRoster(_ h: EntryNumber, in context: Context) -> Request {
        let walk = context.walk(instances)
        let block = Set([h] + walk.instanceEntries(of: h))
        let next = walk.indices.first { $0 > h && !block.contains($0) && walk.isNavigable($0) }
        if let decided = goOn(from: h, to: next, in: walk, context: context) { return decided }
        highlight(next.map { .field($0) } ?? .add)
        keepHighlightInView(in: context)
        return editingHighlighted
    }

    /// The member `steps` lead to when it is the one added by hand (^O, `y`) to the survey on
    /// the form and still holds no answer: leaving it takes it out (`.leaveRoster`).
    func emptyMember(at steps: [AnswerPath.Step], in context: Context) -> UnsavedMember? {
        guard let empty = unsavedMember, empty.survey == context.shown, empty.steps == steps, !steps.isEmpty,
              !context.memberHoldsAnswers(steps) else { return nil }
        return empty
    }

    /// Enter on nothing typed in a member added by hand that holds no answer yet: the keyer is
    /// done with the roster (CSPro ends a roster on a blank first field), so the member is not
    /// kept and the keys go on past the roster, its required questions not asked
    /// (`.leaveRoster`); nil when that is not where Enter is.
    func leavingEmptyMember(in context: Context) -> Request? {
        // The field being typed is in the member: taking the member out stops the typing.
        guard let edit = editing, edit.text.trimmingWhitespaceAndNewlines().isEmpty,
              let steps = unsavedMember?.steps, context.walk(instances).steps(edit.entry) == steps,
              let empty = emptyMember(at: steps, in: context) else { return nil }
        return .leaveRoster(empty)
    }

    /// Once the app took the empty `member` out: the highlight on its roster's heading, and
    /// on past the roster, as `n` to "Add another?" goes.
    mutating func goOnPast(_ member: UnsavedMember, in context: Context) -> Request {
        guard let last = member.steps.last,
              let h = context.walk(instances).headingEntry(
                  FormWalk.RepeatHeading.selectionKey(parent: Array(member.steps.dropLast()), name: last.name)) else { return .none }
        highlight(.field(h))
        return goOnPastRoster(h, in: context)
    }

    /// Heads-down from entry `from` (a question, or a roster left with `n`) whose next stop
    /// would be `next`: the end of the member it is in asks for another, and a roster
    /// arrived at is gone into. Nil when nothing about rosters decides it.
    private mutating func goOn(from: EntryNumber, to next: EntryNumber?, in walk: FormWalk, context: Context) -> Request? {
        // The member `from` is in: a heading's own parent member, else its own.
        let steps = walk.heading(from)?.parent ?? walk.steps(from)
        let enclosing: EntryNumber? = steps.last.flatMap { last in
            walk.headingEntry(FormWalk.RepeatHeading.selectionKey(parent: Array(steps.dropLast()), name: last.name))
        }
        // The end of a member: the next stop is outside its instance.
        if let h = enclosing, let heading = walk.heading(h) {
            let inside = Set(walk.instanceEntries(of: h))
            if next.map({ !inside.contains($0) }) ?? true {
                if let fixed = heading.fixedCount {
                    // Its last member done: the roster is left as `n` leaves one, so the end of
                    // the member around it (stems inside a tree) still asks for another tree.
                    guard heading.shown + 1 < max(fixed, heading.count) else { return goOn(from: h, to: next, in: walk, context: context) }
                    showInstance(heading.shown + 1, of: heading.selectionKey)
                    return enterMember(of: heading.selectionKey, in: context)
                }
                // A member before the last (a correction in the middle of the roster): on to
                // the next member, as a counted roster goes; "Add another?" belongs to its end.
                if heading.shown + 1 < heading.count {
                    showInstance(heading.shown + 1, of: heading.selectionKey)
                    return enterMember(of: heading.selectionKey, in: context)
                }
                // A member added by hand and left empty ends the roster, as `n` would: it is
                // not kept, and no other is offered after it.
                if let empty = emptyMember(at: heading.steps, in: context) { return .leaveRoster(empty) }
                highlight(.field(h))
                askRoster(.addAnother(heading.selectionKey, label: RosterText.name(heading), survey: context.survey))
                return .ask("Add another \(RosterText.name(heading))? y/n")
            }
        }
        // Arriving at a roster: into its first member, or asked whether there is one.
        if let next, let heading = walk.heading(next) {
            showInstance(0, of: heading.selectionKey)
            if heading.count > 0 { return enterMember(of: heading.selectionKey, in: context) }
            if heading.fixedCount == nil && !heading.holdsOtherValue {
                highlight(.field(next))
                askRoster(.addAnother(heading.selectionKey, label: RosterText.name(heading), survey: context.survey))
                return .ask("Add a \(RosterText.name(heading))? y/n")
            }
            // The first stop after the roster, or [ Add ].
            let inside = Set(walk.instanceEntries(of: next))
            let after = walk.indices.first { $0 > next && !inside.contains($0) && walk.isNavigable($0) }
            highlight(after.map { .field($0) } ?? .add)
            keepHighlightInView(in: context)
            return editingHighlighted
        }
        return nil
    }
}

extension FormState {
    /// After a clash, the field being typed and the highlight inside a roster go back to the
    /// same person in the new version (`Record.locateMember`), wherever that member now is:
    /// each roster shows that member, and the walk (`context.walk`) is read again with them.
    /// False when the person typed about is gone or was changed there: the entry is not put
    /// on whoever now stands in their place (issue 27).
    mutating func followMembers(of original: Record, in reloaded: Record, typed: EntryAnchor?, highlighted: EntryAnchor?,
                                in context: Context) -> Bool {
        var kept = true
        var moved: [EntryAnchor?] = []
        for anchor in [typed, highlighted] {
            guard let anchor, !anchor.steps.isEmpty else { moved.append(anchor); continue }
            guard let steps = reloaded.locateMember(anchor.steps, of: original) else {
                if anchor == typed { kept = false }
                moved.append(nil)
                continue
            }
            for depth in steps.indices {
                showInstance(steps[depth].index, of: FormWalk.RepeatHeading.selectionKey(parent: Array(steps.prefix(depth)),
                                                                                           name: steps[depth].name))
            }
            moved.append(EntryAnchor(steps: steps, fieldIndex: anchor.fieldIndex, heading: anchor.heading))
        }
        let walk = context.walk(instances)
        if kept, let to = moved[0], var buffer = editing, let i = to.entry(in: walk) {
            buffer.entry = i
            beginEditing(buffer)
        } else if typed != nil {
            kept = false
        }
        if let to = moved[1], let i = to.entry(in: walk) {
            highlight(.field(i))
        } else if let h = highlighted, !h.steps.isEmpty, let last = h.steps.last,
                  let heading = walk.headingEntry(FormWalk.RepeatHeading.selectionKey(parent: Array(h.steps.dropLast()), name: last.name)) {
            highlight(.field(heading))
        }
        return kept
    }
}
