import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// A large document opened before all of it is read (launch only): its first records are on
/// the first frame, `DocumentStream` reads the rest in the background, and each part is
/// handed to `update` as it is collected, so the list grows while it is browsed. Until the
/// end, `update` refuses every change to the document (`AppState+Loading`) and `attempt`
/// refuses any effect that would write it: nothing is ever saved from part of a file. The
/// fingerprint was taken before the first byte was read, and `persisted` is set only to the
/// whole document.
extension Program {
    /// Records read before the first frame: more than any screen shows, a millisecond or two.
    public static let firstScreenRecords = 1_000
    /// Parts read are taken in at most this often (the end at once).
    static let partInterval: Duration = .milliseconds(100)

    /// The rest of the document is still being read.
    public var isLoading: Bool { stream != nil }

    /// Takes in what the background reading produced since last time; true when it handed
    /// anything to `update` (draw again).
    mutating func takeLoadedPart() -> Bool {
        guard let stream else { return false }
        // The end is taken at once; parts ten times a second, so that drawing the growing list
        // does not take the processor from the reading.
        let now = ContinuousClock.now
        if !stream.isOver, let last = lastLoadedPart, now - last < Self.partInterval {
            partDeferred = true
            return false
        }
        partDeferred = false
        lastLoadedPart = now
        let part = stream.take()
        let before = state.session.loading?.percent
        if !part.records.isEmpty || part.percent != before {
            send(.outcome(.loading(.partLoaded(part.records, percent: part.percent))))
        }
        guard let end = part.end else { return !part.records.isEmpty || part.percent != before }
        self.stream = nil
        send(.outcome(.loading(.ended(end))))
        if state.document != nil { files.persisted = state.document }
        return true
    }

    /// Waits for the rest of the document and takes it in (quitting with an answer being
    /// typed on a record; tests).
    mutating func finishLoading() {
        guard let stream else { return }
        stream.waitUntilDone()
        _ = takeLoadedPart()
    }

    /// Leaving: the reading stops, and what was read is dropped with the rest of the state.
    mutating func stopLoading() {
        stream?.cancel()
        stream = nil
        partDeferred = false
    }
}
