import FoundationEssentials
import SurveyValues

/// The rules pyxform applies to names and labels, refused with its reasons and the row, so a
/// form survey accepts is one ODK Collect, KoboToolbox and pyxform accept too, plus the names
/// the app writes itself, which no question can have without losing its answer.
extension XLSFormReader {
    /// A question or group name: an XML name (pyxform's NCName), not `meta` (pyxform's
    /// metadata group), and none of `Questionnaire.reservedKeys`.
    mutating func checkName(_ name: String, row: Int) {
        guard !name.isEmpty else { return }
        func refuse(_ message: String) {
            errors.append(XLSFormProblem(sheet: "survey", row: row, column: "name", message: message))
        }
        if !Self.isXMLName(name) {
            refuse("“\(name)” is not a valid name: names must begin with a letter or underscore; after the first character, "
                + "names may contain letters, digits, underscores, hyphens, or periods")
        } else if name == "meta" {
            refuse("the name “meta” is reserved for form metadata")
        } else if Questionnaire.reservedKeys.contains(where: { $0 == EntityBase.recordKey ? $0 == name : $0.equalsIgnoringCase(name) }) {
            // `entityBase` as itself only: a question named so in another case is kept apart
            // from it (record keys are exact), pyxform accepts it, and forms with one were
            // accepted before bases were kept.
            refuse("“\(name)” cannot be a question’s name: survey writes a key of that name itself, "
                + "so the answer would be lost or mistaken for it; rename the question")
        }
    }

    /// pyxform's name rule (its `is_xml_tag`): an NCName, optionally with one `prefix:`.
    static func isXMLName(_ name: String) -> Bool {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return false }
        return parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, isNameStart(first) else { return false }
            return part.unicodeScalars.dropFirst().allSatisfy { isNameStart($0) || isNameExtra($0) }
        }
    }

    /// XML's NameStartChar without the colon, as pyxform lists it.
    private static func isNameStart(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x41...0x5A, 0x61...0x7A, 0x5F, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D,
             0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF,
             0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            return true
        default:
            return false
        }
    }

    private static func isNameExtra(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true
        default: return false
        }
    }

    /// pyxform refuses a question shown to the interviewer with nothing to show: no label, no
    /// hint and no media, in any language. Calculated questions (read-only, often hidden),
    /// groups and metadata are exempt, as in pyxform.
    mutating func checkLabel(_ question: XLSForm.Question, hasMedia: Bool) {
        guard question.labels.isEmpty, question.hints.isEmpty, !hasMedia, question.calculation == nil,
              Self.isShown(question.kind) else { return }
        errors.append(XLSFormProblem(sheet: "survey", row: question.row, column: "label",
                                     message: "“\(question.name)” has no label or hint"))
    }

    /// pyxform refuses a shown question with a `big-image` (the picture a tap enlarges to) and
    /// no `image` to tap, in any language.
    mutating func checkBigImage(_ question: XLSForm.Question, media: Set<String>, header: String?) {
        guard media.contains("big-image"), !media.contains("image"), Self.isShown(question.kind) else { return }
        errors.append(XLSFormProblem(sheet: "survey", row: question.row, column: header ?? "big-image",
                                     message: "“\(question.name)” has a big-image but no image: big-image is the picture shown "
                                         + "when the image is tapped, so an image is needed too"))
    }

    /// The survey sheet's media columns as pyxform groups them (`big-image::English` and
    /// `media::big-image` are both big-image): each column's index, its medium, its header.
    static func mediaColumns(_ rows: [XLSFormSheets.Row]) -> [(index: Int, media: String, header: String)] {
        guard let header = rows.first(where: { $0.cells.contains { !$0.trimmingWhitespace().isEmpty } })?.cells else { return [] }
        let doubleColon = header.contains { $0.contains("::") }
        return header.enumerated().compactMap { i, raw in
            let text = raw.trimmingWhitespace()
            guard !text.isEmpty else { return nil }
            let tokens = pyxformHeader(text, doubleColon: doubleColon, rules: .survey).tokens
            return tokens.count > 1 && tokens[0] == "media" ? (i, tokens[1], text) : nil
        }
    }

    /// Whether pyxform gives the row a control (something the interviewer sees).
    private static func isShown(_ kind: XLSForm.Kind) -> Bool {
        switch kind {
        case .text, .integer, .decimal, .date, .time, .dateTime, .selectOne, .selectMultiple, .note, .acknowledge,
             .geo, .barcode, .attachment, .range, .rank:
            return true
        case .calculate, .beginGroup, .endGroup, .beginRepeat, .endRepeat, .metadata:
            return false
        case .notCollected(let type):
            return XLSFormTypes.shownUncollected.contains(XLSFormTypes.normalized(type).split(separator: " ").first.map(String.init) ?? "")
        }
    }

    /// pyxform refuses a choice list that names a choice twice (the answer could not say which
    /// was meant), unless the settings allow it (`allow_choice_duplicates`).
    mutating func checkDuplicateChoices(_ rows: [(list: String, name: String, row: Int)]) {
        var seen: [String: [String: Int]] = [:]
        for (list, name, row) in rows {
            if let first = seen[list]?[name] {
                errors.append(XLSFormProblem(sheet: "choices", row: row, column: "name",
                                             message: "“\(name)” is already a choice of \(list) (row \(first)): choice names must be unique "
                                                 + "in each list; if this is intentional, use the setting allow_choice_duplicates"))
            } else {
                seen[list, default: [:]][name] = row
            }
        }
    }
}
