import FoundationEssentials
import SurveyValues

/// The rows of the survey sheet as they nest: a `begin group` stays a row among the rows
/// around it (groups add no level to the answers), a `begin repeat` takes the rows up to its
/// `end repeat` as its `children` (each instance of a roster is a record of its own). The
/// end rows may be named or not, as pyxform allows. A `begin loop over LIST` gathers its rows
/// up to `end loop` and is expanded there into groups, as pyxform's builder expands it
/// (`XLSFormReader+Loops.swift`); the names it repeats are then told apart by their group
/// path (`XLSFormReader+Keys.swift`).
struct SurveyBlocks {
    enum Kind: String { case group, `repeat`, loop }
    /// The begin rows still open, innermost last.
    var open: [(kind: Kind, question: XLSForm.Question)] = []
    /// The rows read so far at the top level, then in each open repeat or loop.
    var scopes: [[XLSForm.Question]] = [[]]

    mutating func append(_ question: XLSForm.Question) {
        scopes[scopes.count - 1].append(question)
    }
}

extension XLSFormReader {
    /// `begin X` / `end X`, `begin_X` / `end_X`, with blanks repeated or not: whether the row
    /// begins a block, and the block's control (`group`, `repeat`, `loop over list`…).
    static func control(_ raw: String) -> (begins: Bool, control: String)? {
        let words = raw.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return nil }
        for (prefix, begins) in [("begin", true), ("end", false)] {
            if first == prefix, words.count > 1 { return (begins, words.dropFirst().joined(separator: " ")) }
            if first.hasPrefix(prefix + "_"), first.count > prefix.count + 1 {
                return (begins, ([String(first.dropFirst(prefix.count + 1))] + words.dropFirst()).joined(separator: " "))
            }
        }
        return nil
    }

    /// For a `begin loop over LIST` row true, for `end loop` false, else nil.
    static func loop(_ raw: String) -> Bool? {
        guard let (begins, control) = control(raw), control == "loop" || control.hasPrefix("loop ") else { return nil }
        return begins
    }

    /// Puts a row where it belongs: among the rows of the innermost open repeat (or the top
    /// level), a closed repeat as one row holding its own.
    mutating func place(_ question: XLSForm.Question, loop: Bool?, choices: [String: [XLSForm.Choice]],
                        in blocks: inout SurveyBlocks) {
        switch (question.kind, loop) {
        case (.beginGroup, _):
            blocks.open.append((.group, question))
            blocks.append(question)
        case (.beginRepeat, _):
            blocks.open.append((.repeat, question))
            blocks.scopes.append([])
        case (_, true?):
            blocks.open.append((.loop, question))
            blocks.scopes.append([])
        case (.endGroup, _):
            if close(.group, at: question.row, in: &blocks) != nil { blocks.append(question) }
        case (.endRepeat, _):
            if var begin = close(.repeat, at: question.row, in: &blocks) {
                begin.children = blocks.scopes.removeLast()
                blocks.append(begin)
            }
        case (_, false?):
            if let begin = close(.loop, at: question.row, in: &blocks) {
                let rows = blocks.scopes.removeLast()
                for row in expandLoop(begin, rows: rows, choices: choices) { blocks.append(row) }
            }
        default:
            blocks.append(question)
        }
    }

    /// The begin row the end row at `row` closes, or nil (and why) when the innermost open
    /// block is another kind or none is open.
    private mutating func close(_ kind: SurveyBlocks.Kind, at row: Int, in blocks: inout SurveyBlocks) -> XLSForm.Question? {
        guard let innermost = blocks.open.last else {
            errors.append(XLSFormProblem(sheet: "survey", row: row, column: "type", message: "end \(kind.rawValue) without a begin \(kind.rawValue)"))
            return nil
        }
        guard innermost.kind == kind else {
            errors.append(XLSFormProblem(sheet: "survey", row: row, column: "type",
                                         message: "end \(kind.rawValue) where the \(innermost.kind.rawValue) “\(innermost.question.name)” "
                                             + "of row \(innermost.question.row) is still open: end it first"))
            return nil
        }
        blocks.open.removeLast()
        return innermost.question
    }

    /// The top-level rows once the sheet is read: blocks left open are errors, and a repeat
    /// left open still takes its rows, so they are checked too.
    mutating func closeAll(_ blocks: inout SurveyBlocks) -> [XLSForm.Question] {
        // Each group left open at its begin row, where pyxform names it.
        for (kind, question) in blocks.open where kind == .group {
            errors.append(XLSFormProblem(sheet: "survey", row: question.row, column: "type",
                                         message: "the group “\(question.name)” has no end group"))
        }
        while let (kind, question) = blocks.open.popLast() {
            guard kind != .group else { continue }
            if kind == .loop {
                errors.append(XLSFormProblem(sheet: "survey", row: question.row, column: "type",
                                             message: "the loop “\(question.name)” has no end loop"))
                blocks.scopes.removeLast()
            }
            if kind == .repeat {
                errors.append(XLSFormProblem(sheet: "survey", row: question.row, column: "type",
                                             message: "the repeat “\(question.name)” has no end repeat"))
                var begin = question
                begin.children = blocks.scopes.removeLast()
                blocks.append(begin)
            }
        }
        return blocks.scopes[0]
    }
}

extension XLSForm {
    /// The rows of each record a survey holds: the top level first, then each repeat's own
    /// rows, depth first.
    var scopes: [[Question]] {
        var result: [[Question]] = []
        func walk(_ rows: [Question]) {
            result.append(rows)
            for row in rows where row.kind == .beginRepeat { walk(row.children) }
        }
        walk(questions)
        return result
    }

    /// Every row of the form, in every repeat.
    var allQuestions: [Question] { scopes.flatMap { $0 } }

    /// How many rows the form has, in every repeat (an `end repeat` is not kept).
    public var rowCount: Int { allQuestions.count }

    /// The same form with `rows` as its questions: a repeat's rows read as a form of their
    /// own, with the form's choices, languages and settings.
    func scoped(to rows: [Question]) -> XLSForm {
        var copy = self
        copy.questions = rows
        return copy
    }
}
