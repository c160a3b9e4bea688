import SurveyValues
import SurveyForms

/// The y/n question about a survey on the status line (`SurveyQuestion`): it takes the keys
/// until answered, `y` carries it out and `n` or Esc leaves the survey as it is.
extension AppState {
    /// The survey a delete is being asked about, if that is the question.
    public var pendingRecordDelete: Int? {
        if case .delete(let index) = form.pendingQuestion { return index }
        return nil
    }

    /// `y`.
    mutating func confirmQuestion() -> [Effect] {
        guard let question = form.pendingQuestion else { return [] }
        form.ask(nil)
        switch question {
        case .delete(let index): return deleteRecord(index)
        case .copy(let index): return addCopy(of: index)
        case .clearNotAsked(let index, let keys): return clearAnswers(keys, of: index)
        case .duplicate: return shown == .draft ? addDraft(allowingDuplicate: true) : finishShownAllowingDuplicate()
        }
    }

    /// `x` in F4: the answers of the shown survey that this version of the form does not ask
    /// (kept on every save until now), cleared on purpose after a y/n.
    mutating func requestClearNotAsked() -> [Effect] {
        guard document != nil, case .record(let index) = shown else {
            statusLine.tell("Only a saved survey can hold answers its form does not ask")
            return []
        }
        let keys = questionnaire.answersNotAsked(in: records[index], clock: ruleClock)
        guard !keys.isEmpty else {
            statusLine.tell("\(session.quotedTitle(records[index])) holds no answer this form version does not ask")
            return []
        }
        form.ask(.clearNotAsked(index, keys: keys))
        statusLine.ask("Clear \(counted(keys.count, "answer")) this form version does not ask (\(keys.joined(separator: ", "))) from \(session.quotedTitle(records[index]))? y/n")
        return []
    }

    private mutating func clearAnswers(_ keys: [String], of index: Int) -> [Effect] {
        guard records.indices.contains(index) else { return [] }
        var record = records[index]
        for key in keys { _ = record.removeValue(forKey: key) }
        rollback = captureRollback()
        session.expect(.change(.edit, label: "clearing of \(counted(keys.count, "answer")) of \(session.quotedTitle(records[index]))"))
        document?.records[index] = record
        statusLine.tell("Cleared \(counted(keys.count, "answer")) from \(session.quotedTitle(record)): Ctrl-Z brings them back")
        return [.saveDocument]
    }
}

extension FormState {
    /// `n` or Esc to the y/n question about a survey: nothing is done, the question goes, and
    /// this is what the status says (nil: no question was asked). `surveys` and `title` name
    /// the survey kept; `onNewForm`: the form shows the New form.
    mutating func cancelQuestion(surveys: RecordList, onNewForm: Bool, title: (Record) -> String) -> String? {
        guard let question = pendingQuestion else { return nil }
        ask(nil)
        switch question {
        case .delete(let index), .copy(let index), .clearNotAsked(let index, _):
            return surveys.indices.contains(index) ? "Kept \(title(surveys[index]))" : nil
        case .duplicate where !onNewForm:
            return "Not finished: the survey stays incomplete (correct its ID items, or finish it as it is)"
        case .duplicate:
            return "Not added: the New form keeps its answers (correct the ID items, or Clear it)"
        }
    }
}
