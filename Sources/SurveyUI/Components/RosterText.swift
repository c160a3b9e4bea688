import SurveyValues
import SurveyForms

/// How a roster's place is worded, on its heading row and in messages.
enum RosterText {
    /// "2 of 4", or, with no instance yet, how to add one (or that the form fixes none).
    static func position(_ heading: FormWalk.RepeatHeading) -> String {
        if heading.holdsOtherValue { return "none: the survey holds another answer here (kept)" }
        if heading.count == 0 {
            return heading.fixedCount == nil ? "none yet: ^O adds one" : "none (the form asks for 0)"
        }
        // Members kept after the form's count went down show as what they are.
        if let fixed = heading.fixedCount, heading.count > fixed {
            let beyond = heading.shown >= fixed ? ": ^D deletes it" : ""
            return "\(heading.shown + 1) of \(heading.count) (counted \(fixed)\(beyond))"
        }
        return "\(heading.shown + 1) of \(heading.count)"
    }

    /// The repeat's label, for "Add another Household member? y/n".
    static func name(_ heading: FormWalk.RepeatHeading) -> String {
        heading.label.isEmpty ? heading.name : heading.label
    }
}
