import SurveyValues
import SurveyForms

/// A supervisor's comment on a survey sent back, shown on the form beside the questions it
/// names (issue 31, send-back): "age missing" goes under the age question, in every member
/// of a roster where the name is a member's question. A comment that names no question goes
/// under the first one, so it is on the form whatever it says.
extension AppState {
    /// The comment of the shown survey's review, when it sends the survey back.
    var sentBackComment: String? {
        guard case .record(let i) = shown, let reviews = session.sync?.reviews, !reviews.isEmpty,
              let id = records[i].instanceID, let review = reviews[id], review.sendsBack else { return nil }
        let comment = review.comment?.trimmingWhitespace() ?? ""
        return comment.isEmpty ? (review.state == .rejected ? "rejected" : "has issues") : comment
    }
}

/// A supervisor's comment read against the form: which questions it names, and the notes
/// under them (issue 29: the comment's own, not `AppState`'s).
enum ReviewComment {
    /// The note under each row `comment` (a survey sent back's, `AppState.sentBackComment`)
    /// names, by row of `outline`; none without a comment.
    static func notes(_ comment: String?, in outline: FormWalk) -> [EntryNumber: String] {
        guard let comment else { return [:] }
        let note = "Sent back: “\(comment)”"
        var named: [EntryNumber: String] = [:]
        var first: EntryNumber?
        for i in outline.indices where outline.isShown(i) && outline.heading(i) == nil {
            let field = outline.field(i)
            switch field.kind {
            case .metadata, .groupEnd, .groupStart, .note: continue
            case .calculated where !outline.hasOwnLabel(i): continue
            default: break
            }
            if first == nil { first = i }
            if names(field, in: comment) { named[i] = note }
        }
        if named.isEmpty, let first { named[first] = note }
        return named
    }

    /// Whether a supervisor's words name a question: its name ("age", "plot_id") or its whole
    /// label ("Age in years", four letters or more), as whole words, any case. Plain text
    /// search, no pattern: the comment comes from the network.
    static func names(_ field: FieldSpec, in comment: String) -> Bool {
        let text = Array(comment.lowercased().utf8)
        let key = Array(field.key.lowercased().utf8)
        if !key.isEmpty, containsWord(key, in: text) { return true }
        let label = Array(field.label.trimmingWhitespace().lowercased().utf8)
        return label.count >= 4 && containsWord(label, in: text)
    }

    /// `word` in `text` with no letter, digit, `_` or `-` touching it on either side.
    static func containsWord(_ word: [UInt8], in text: [UInt8]) -> Bool {
        guard word.count <= text.count else { return false }
        func isWordByte(_ b: UInt8) -> Bool {
            (b >= 97 && b <= 122) || (b >= 65 && b <= 90) || (b >= 48 && b <= 57) || b == 95 || b == 45 || b >= 128
        }
        var start = 0
        while start + word.count <= text.count {
            if text[start] == word[0], text[start..<start + word.count].elementsEqual(word) {
                let before = start == 0 || !isWordByte(text[start - 1])
                let after = start + word.count == text.count || !isWordByte(text[start + word.count])
                if before && after { return true }
            }
            start += 1
        }
        return false
    }
}
