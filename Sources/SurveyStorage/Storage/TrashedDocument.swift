import FoundationEssentials
import SurveyValues
import SurveyForms

/// A document waiting in the trash, as `trash()` lists it and `restore` brings it back.
public struct TrashedDocument: Equatable, Sendable {
    /// The name it had before it was deleted.
    public let name: String
    public let deletedAt: Date
    /// The file's name inside `.trash/`.
    public let fileName: String

    public init(name: String, deletedAt: Date, fileName: String) {
        self.name = name
        self.deletedAt = deletedAt
        self.fileName = fileName
    }
}

/// How a deleted document is named in the trash: `NAME (deleted YYYY-MM-DD HH.MM.SS)`, plus
/// " 2", " 3"... when that is taken. The name and date stay readable to someone looking in
/// the folder, the name keeps its document's suffix so other tools can still open it, and
/// the date is in the name because a move keeps the file's modification time, not the
/// moment of deletion. Local time, as a person would read it; dots because ":" is not
/// allowed in file names on some systems the folder may be copied to.
enum TrashName {
    /// `NAME (deleted DATE TIME)` or `NAME (deleted DATE TIME) N`, without the suffix.
    static func stem(for name: String, deletedAt date: Date, number: Int = 1) -> String {
        let base = "\(name) (deleted \(stamp(date)))"
        return number < 2 ? base : "\(base) \(number)"
    }

    /// The parts of a trash file name; nil when it was not named by `stem`.
    static func parse(_ fileName: String) -> (name: String, deletedAt: Date, number: Int)? {
        guard fileName.hasSuffix(DocumentName.fileSuffix) else { return nil }
        var stem = Substring(fileName.dropLast(DocumentName.fileSuffix.count))
        var number = 1
        if let space = stem.lastIndex(of: " "), stem[..<space].hasSuffix(")"),
           let n = Int(stem[stem.index(after: space)...]), n >= 2, String(n) == stem[stem.index(after: space)...] {
            number = n
            stem = stem[..<space]
        }
        guard stem.hasSuffix(")"), let open = stem.lastRange(of: " (deleted ") else { return nil }
        let dateText = stem[open.upperBound..<stem.index(before: stem.endIndex)]
        guard let date = parseStamp(dateText), open.lowerBound > stem.startIndex else { return nil }
        return (String(stem[..<open.lowerBound]), date, number)
    }

    /// YYYY-MM-DD HH.MM.SS, local time.
    static func stamp(_ date: Date) -> String {
        let c = CivilTime(date, in: .current)
        return c.dayText + " " + [c.hour, c.minute, c.second].map { CivilTime.padded($0, 2) }.joined(separator: ".")
    }

    private static func parseStamp(_ text: Substring) -> Date? {
        let template = Array("0000-00-00 00.00.00")
        let characters = Array(text)
        guard characters.count == template.count else { return nil }
        for (character, expected) in zip(characters, template) {
            let fits = expected == "0" ? ("0"..."9").contains(character) : character == expected
            if !fits { return nil }
        }
        let n = text.split(whereSeparator: { !("0"..."9").contains($0) }).compactMap { Int($0) }
        guard let time = CivilTime(year: n[0], month: n[1], day: n[2], hour: n[3], minute: n[4], second: n[5]) else { return nil }
        return time.date(in: .current)
    }
}
