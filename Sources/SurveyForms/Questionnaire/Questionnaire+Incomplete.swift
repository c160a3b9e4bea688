import FoundationEssentials
import SurveyValues

/// Incomplete surveys (issue 30, `Record.isIncomplete`) on a designer's form: kept as the
/// form keeps a survey it adds, marked, and finished later through the same gate as [ Add ].
extension Questionnaire {
    /// A New form kept before it passed the form's rules: completed as [ Add ] completes it
    /// (defaults, calculations, the metadata, the form's id and version), as ODK Collect
    /// writes a draft's instance, and marked incomplete. Nothing is judged: its answers were
    /// each judged when keyed.
    public func keptIncomplete(_ record: Record, started: Date?, device: DeviceMetadata, clock: Clock) -> Record {
        var kept = completed(record, started: started, device: device, clock: clock)
        kept.setIncomplete(true)
        return kept
    }

    /// The metadata ODK fills in when an interview is opened the first time (Collect's
    /// preloads `start`, `today`, `deviceid`, `username`): finishing a survey keeps them.
    static let metadataOfTheFirstOpening: Set<String> = ["start", "today", "deviceid", "username"]

    /// An incomplete survey as finishing it stores it (to be judged by `problems(in:)` before):
    /// completed as [ Add ] completes a survey, `end` now, but the metadata of its first
    /// opening as kept (`start` is when the interview began, perhaps on another laptop), and
    /// no longer marked.
    public func finished(_ record: Record, device: DeviceMetadata, clock: Clock) -> Record {
        var done = completed(record, started: nil, device: device, clock: clock)
        for field in fields {
            guard case .metadata(let kind) = field.kind, Self.metadataOfTheFirstOpening.contains(kind), !field.key.isEmpty,
                  let kept = record[field.key], !XLSForm.text(of: kept).isEmpty else { continue }
            done[field.key] = kept
        }
        done.setIncomplete(false)
        return done
    }
}
