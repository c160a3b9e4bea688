import FoundationEssentials
import SurveyValues
import SurveyForms

extension SyncPlan {
    /// How a conflicting answer is settled.
    public enum Choice: Equatable, Sendable {
        case mine
        case theirs
        /// Neither: this value (nil removes the answer).
        case value(PropertyValue?)
    }

    public struct Resolved: Equatable, Sendable {
        public var state: SyncState
        /// How many fields were settled.
        public var count: Int
        /// The survey left the document (its delete was chosen), for `.NAME.deleted.plist`.
        public var movedToDeleted: [Record] = []
        /// Members removed (a member's delete was chosen), kept there too as ^D keeps them.
        public var deletedMembers: [DeletedMemberEntry] = []
    }

    /// Settles the conflicts of survey `id` at `path` (nil: all of them) by `choice`: `mine`
    /// keeps what the survey holds here now (a correction made since the pull included),
    /// `theirs` and `value` write theirs or the value given. Once
    /// none is left, the other side's version becomes the base, so the answers the document
    /// now holds go out as an edit of it, like any edit (none when theirs was taken whole).
    /// A whole-survey conflict (edited on one side, deleted on the other; or an encrypted
    /// survey changed on both, `AnswerMerge`) takes `mine` or `theirs`: the delete chosen moves the survey to the deleted surveys; a member's
    /// (`member[2]`, deleted on one side and edited on the other) likewise keeps that member
    /// or removes it to the deleted surveys.
    ///
    /// A member, and an answer inside one, is found by who the member is (`ConflictPlaces`),
    /// never at the place the pull found it: a member deleted before it in the app since puts
    /// another person there. When the member is no longer in the survey here (deleted since),
    /// `mine` settles the conflict as the survey is, and `theirs` or a value is refused, nothing
    /// changed: a value for a person no longer in the household has no place, and bringing the
    /// person back unasked would undo a delete the keyer made on purpose. A member that cannot
    /// be told from another is refused for any choice that writes into it or removes it.
    /// Another role's survey (`SyncLedger.othersOwner`) takes only `theirs`.
    public static func resolve(id: String, path: SyncFieldPath?, by choice: Choice, in state: SyncState,
                               at date: Date) throws -> Resolved {
        var state = state
        guard var conflict = state.ledger.conflicts[id] else { throw DocumentError("\(id) has no conflicts") }
        // Only theirs leaves another role's survey as the server has it (issue 28).
        if choice != .theirs, let owner = state.ledger.othersOwner(of: id) {
            throw DocumentError("\(id) keeps the server's answers: \(SurveyOwner.reason(owner)); take theirs (--theirs)")
        }
        let chosen = conflict.fields.indices.filter { path == nil || conflict.fields[$0].path == path }
        guard !chosen.isEmpty else {
            throw DocumentError("\(id) has no conflict at \(path!) (its conflicts: "
                + conflict.fields.map(\.path.description).joined(separator: ", ") + ")")
        }
        var moved: [Record] = []
        var removedMembers: [DeletedMemberEntry] = []
        var settled = Set<Int>()
        for chosenIndex in chosen {
            defer { settled.insert(chosenIndex) }
            let field = conflict.fields[chosenIndex]
            guard let place = state.records.firstIndex(where: { $0.instanceID == id }) else {
                throw DocumentError("\(id) is not in the document: bring it back (survey undelete) to resolve it")
            }
            if field.path.isWholeSurvey {
                let keep: Bool
                switch choice {
                case .mine: keep = field.mine != nil
                case .theirs: keep = field.theirs != nil
                case .value: throw DocumentError("the whole survey \(id) is kept or deleted: choose mine or theirs")
                }
                if !keep {
                    let record = state.records.remove(at: place)
                    state.deleted.append(DeletedRecord(record: record, deletedAt: date))
                    moved.append(record)
                } else if choice == .theirs, field.mine != nil, case .dictionary(var theirs)? = field.theirs {
                    // Both sides' versions of a survey kept whole (an encrypted one, changed on
                    // both): theirs replaces it, its id kept.
                    theirs[Record.instanceIDKey] = .string(id)
                    state.records[place] = Record(theirs)
                }
                continue
            }
            let value: PropertyValue?
            switch choice {
            case .mine:
                // This laptop's value is the one the survey holds now: the survey stays
                // editable while in conflict, and a correction keyed since is what "mine" is.
                // Nothing is written (`field.mine`, as the pull found it, written back would
                // undo that correction unseen, on every laptop at the next sync), as a kept
                // member is not; only a member deleted here is removed, below.
                guard field.path.isMember, field.mine == nil else { continue }
                value = nil
            case .theirs: value = field.theirs
            case .value(let given):
                // A roster (or any list or dictionary) is never replaced by a typed value.
                if field.path.isMember {
                    throw DocumentError("\(field.path) of \(id) is a member of a roster, deleted on one side and edited "
                        + "on the other: keep it or delete it (--mine or --theirs), then correct its answers in the app")
                }
                if [field.mine, field.theirs, field.base].contains(where: { $0?.isContainer == true }) {
                    throw DocumentError("\(field.path) of \(id) is a roster: keep one side whole (--mine or --theirs), "
                        + "then correct its members in the app; a typed value cannot replace its members")
                }
                value = given
            }
            var answers = PropertyValue.dictionary(state.records[place].values)
            let open = conflict.fields.indices.filter { !settled.contains($0) }.map { conflict.fields[$0] }
            var places = ConflictPlaces(fields: open, base: state.ledger.bases[id]?.answers,
                                        theirs: conflict.theirs.answers, now: state.records[place].values)
            let target: SyncFieldPath
            switch places.place(of: field.path) {
            case .at(let path): target = path
            case .gone:
                // Mine is the survey as it is: the member is gone, and stays gone.
                if choice == .mine { continue }
                throw DocumentError("\(field.path) of \(id) is \(field.path.isMember ? "a member" : "an answer of a member") no longer "
                    + "in the survey here (deleted, or changed past recognition, since the pull found the conflict): nothing "
                    + "was changed; keep the survey as it is here (--mine), or add the member back in the app and choose again")
            case .unclear:
                throw DocumentError("\(field.path) of \(id): which member it is cannot be told (members alike, or the roster "
                    + "changed too much since the pull): nothing was changed; settle it in the app (correct the answer, or "
                    + "delete the member if it should go), then keep the survey as it is (--mine)")
            }
            if field.path.isMember {
                // A member deleted on one side, edited on the other: the document holds the
                // edited one. Kept: nothing to write (a later correction in the app stays).
                // Deleted: only that very member, and the conflicts on later members of its
                // roster follow them one place up.
                guard value == nil else { continue }
                guard case .dictionary(let here)? = answers.value(at: target) else {
                    throw DocumentError("\(id) no longer has \(field.path): nothing was changed")
                }
                removedMembers.append(DeletedMemberEntry(answers: here, survey: id, roster: target.description, deletedAt: date))
            }
            guard answers.setValue(value, at: target),
                  case .dictionary(let values) = answers else {
                throw DocumentError("\(id) no longer has \(field.path): nothing was changed")
            }
            state.records[place] = Record(values)
            if field.path.isMember {
                for i in conflict.fields.indices { conflict.fields[i].path = conflict.fields[i].path.afterRemoving(field.path) }
            }
        }
        conflict.fields = conflict.fields.enumerated().filter { !settled.contains($0.offset) }.map(\.element)
        if conflict.fields.isEmpty {
            state.ledger.conflicts[id] = nil
            state.ledger.bases[id] = conflict.theirs
        } else {
            state.ledger.conflicts[id] = conflict
        }
        return Resolved(state: state, count: chosen.count, movedToDeleted: moved, deletedMembers: removedMembers)
    }
}
