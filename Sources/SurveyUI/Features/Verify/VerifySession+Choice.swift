import SurveyValues
import SurveyForms

/// Which survey `v` verifies, once the document's verification record is read: decided from
/// the record and the surveys alone (issue 29: verify's own, as `VerifySession.reduce`), and
/// said as a value; `AppState.reduce(_: VerifyOutcome)` writes the choice and begins.
extension VerifySession {
    /// What the verification record read asks of the app.
    enum Choice: Equatable {
        /// Verify `survey` (its questions `settled` already skipped), then those `waiting`, each
        /// resuming what it has verified (`resumes`). `noteChosen`: the record does not list it
        /// as chosen yet, so the app writes that first.
        case begin(String, settled: Set<String>, waiting: [String], resumes: [String: Set<String>], noteChosen: Bool)
        /// Nothing to verify, and why (`warn`: the survey shown cannot be).
        case tell(String)
        case warn(String)
    }

    /// The survey shown (`shown`, an index of `records`) when it waits for verification
    /// (chosen by `survey verify`, or none chosen and not verified yet), else the first survey
    /// waiting. An incomplete survey is finished before it is verified: it never blocks the
    /// others; an encrypted one cannot be keyed again here (as `survey verify` leaves it out).
    static func choose(from log: VerificationLog, records: RecordList, shown: Int?, title: (Record) -> String) -> Choice {
        let ids = Set(records.compactMap { $0.isIncomplete || $0.isSealed ? nil : $0.instanceID })
        let waiting = log.waiting.filter { ids.contains($0) }
        let shownRecord = shown.flatMap { records.indices.contains($0) ? records[$0] : nil }
        let shownID = shownRecord?.instanceID
        let target: String
        if let shownID, waiting.contains(shownID) {
            target = shownID
        } else if let first = waiting.first {
            target = first
        } else if let shownID, ids.contains(shownID), log.progress(of: shownID) != .verified {
            target = shownID
        } else if let shownRecord, let shownID, !ids.contains(shownID), log.chosen.isEmpty {
            return shownRecord.isSealed
                ? .warn("\(title(shownRecord)) is encrypted for the data manager's key: it cannot be verified here")
                : .warn("This survey is incomplete: finish it before verifying it")
        } else {
            return .tell(log.chosen.isEmpty ? "Nothing to verify: show a survey (or choose some with survey verify), then v"
                                            : "Every survey chosen for verification is verified")
        }
        let rest = waiting.filter { $0 != target }
        // What each waiting survey already has verified, so one left half done and reached
        // next in the chain resumes instead of starting over.
        let settled = log.settledBySurvey
        let resumes = Dictionary(rest.map { ($0, settled[$0] ?? []) }, uniquingKeysWith: { a, _ in a })
        return .begin(target, settled: log.settled(target), waiting: rest, resumes: resumes, noteChosen: !log.chosen.contains(target))
    }
}

extension DocumentSession {
    /// `v`: verification starts by reading the document's verification record (then
    /// `VerifySession.choose`); refused, with why, while the document is still being read
    /// (`stillLoading` says how far) or holds no surveys; nothing without a document.
    func verificationStart(stillLoading: String) -> (effects: [Effect], remark: AppState.StatusMessage?) {
        guard let document else { return ([], nil) }
        if loading != nil { return ([], .init("\(stillLoading): verification starts once the whole document is read", kind: .error)) }
        guard !document.records.isEmpty else { return ([], .init("No surveys to verify yet")) }
        return ([.readVerification(thenVerify: true)], nil)
    }
}
