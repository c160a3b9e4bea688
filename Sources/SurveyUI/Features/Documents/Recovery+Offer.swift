import FoundationEssentials
import SurveyValues
import SurveyForms

/// The offer of kept surveys' own reducer (issue 29: a child reducer, as `VerifySession.reduce`):
/// m, t, d, Esc and any other key decided from the offer and the little it reads of the app
/// (`OfferContext`), and what they ask of the app as a value. `AppState.answerRecoveryOffer`
/// does it: the offer held again, closed, or the surveys merged (`AppState+Safekeeping`).
extension Recovery {
    /// What the offer reads of the app.
    struct OfferContext {
        var now: Date
        /// Until when the offer takes no choice (`PopoverState.choicesHeldUntil`).
        var heldUntil: Date?
        /// The document open, whether it is gone from the folder, and whether it was read.
        var documentName: String
        var documentMissing: Bool
        var documentRead: Bool
    }

    /// What a key on the offer asks of the app.
    enum OfferRequest: Equatable {
        /// Not taken: nothing is typed anywhere, the offer stays and holds its choices anew,
        /// and the status says this.
        case refuse(String)
        /// The offer stays, and the status says why nothing was done.
        case warn(String)
        /// Esc: offered again at the next start.
        case postpone
        /// d: their file goes to .trash.
        case discard
        /// m / t into another document (or one not read here): the answer being typed is
        /// saved first, and the surveys go into it on disk (`Effect.restoreRecovery`).
        case restoreOnDisk(theirsWhereBothChanged: Bool)
        /// m / t into the open document, as a change like any other.
        case mergeHere(theirsWhereBothChanged: Bool)
    }

    func reduce(_ action: DocumentsAction, in context: OfferContext) -> OfferRequest {
        let refusal: OfferRequest = .refuse("Not typed: the kept surveys wait for a choice: "
            + (keptFromClash ? "m to merge them, t to take theirs where both changed" : "m to put them back")
            + ", d to discard them, Esc for later (a second after your last key)")
        if action == .keyNotAChoice { return refusal }
        // A choice pressed while the offer holds (it may appear under someone keying
        // heads-down) is refused like any other key.
        if let until = context.heldUntil, context.now < until { return refusal }
        switch action {
        case .mergeRecovery(let theirs):
            if documentName == context.documentName, context.documentMissing {
                return .warn("“\(context.documentName)” is gone from the folder: save its records under a name first (F3), then merge these")
            }
            guard documentName == context.documentName, context.documentRead else { return .restoreOnDisk(theirsWhereBothChanged: theirs) }
            return .mergeHere(theirsWhereBothChanged: theirs)
        case .discardRecovery:
            return .discard
        case .postponeRecovery:
            return .postpone
        default:
            return refusal   // not a key of the offer
        }
    }
}
