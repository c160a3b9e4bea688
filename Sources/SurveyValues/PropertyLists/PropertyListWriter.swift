import FoundationEssentials

/// Writes XML property lists in the exact layout Apple's tools and Foundation use (tabs,
/// sorted keys, `<array/>` for empty containers), about ten times faster than
/// `PropertyListSerialization` on Linux, which took half a second for 10,000 records — a
/// pause on every committed field. It also cleans as it writes: characters XML 1.0 cannot
/// hold become U+FFFD, and carriage returns are written as `&#13;` so XML readers do not
/// turn them into line feeds.
package struct PropertyListWriter {
    /// Shared by copies: a writer (and an `ExportStream` holding one) is used `inout`, never
    /// copied and written through both, which would interleave their bytes.
    private var bytes = ByteSink()

    static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

    package static func data(for root: PropertyValue) -> Data {
        var writer = PropertyListWriter()
        writer.append(header)
        writer.write(root, depth: 0)
        writer.appendLiteral("</plist>\n")
        return Data(writer.bytes.buffer)
    }

    /// What a streamed write holds before handing it to `output`: 256 KB, large enough that
    /// each `write(2)` is cheap, small enough to stay in the processor's cache.
    package static let streamBufferSize = 256 * 1024

    /// The same bytes as `data(for: .array(records as dictionaries))`, handed to `output` in
    /// pieces of about `bufferSize` bytes (a survey is never split across two), built record
    /// by record straight from the list: neither a tree of the whole document nor the whole
    /// file is ever in memory. An error from `output` stops the write.
    package static func write(_ records: RecordList, bufferSize: Int = streamBufferSize,
                      to output: (UnsafeRawBufferPointer) throws -> Void) throws {
        var writer = PropertyListWriter.surveys()
        writer.bytes.reserve(bufferSize + 64 * 1024)
        try records.forEachRun { _, run in
            for record in run {
                writer.appendSurvey(record)
                if writer.bytes.count >= bufferSize { try writer.drain(output) }
            }
        }
        writer.endSurveys()
        try writer.drain(output)
    }

    /// A document written a survey at a time (the streamed save, `survey export`): the
    /// header now, then `appendSurvey` for each survey and `endSurveys`, with `drain` taking
    /// the bytes made so far whenever the caller likes.
    package static func surveys() -> PropertyListWriter {
        var writer = PropertyListWriter()
        writer.append(header)
        return writer
    }

    private var surveysWritten = 0

    package mutating func appendSurvey(_ record: Record) {
        if surveysWritten == 0 { appendLiteral("<array>\n") }
        surveysWritten += 1
        write(record, depth: 1)
    }

    /// An entry given as a dictionary (a ledger's, nested), written as `appendSurvey` would
    /// write it packed, without packing it first.
    package mutating func appendEntry(_ entries: [String: PropertyValue]) {
        if surveysWritten == 0 { appendLiteral("<array>\n") }
        surveysWritten += 1
        write(entries, depth: 1)
    }

    /// A sync ledger's survey entry (`SyncLedger.writeEntries`), the same bytes as
    /// `appendEntry` of its dictionary: keys in sorted order (`base`, `conflict`, `id`,
    /// `owner`, `review`), the base's answers written straight from their packed bytes.
    /// The base comes as its parts, so this writer (a value codec) knows nothing of sync.
    package mutating func appendLedgerEntry(id: String, owner: String?,
                                            base: (packed: Record, deleted: Bool, revision: String?)?,
                                            conflict: PropertyValue?, review: PropertyValue?) {
        if surveysWritten == 0 { appendLiteral("<array>\n") }
        surveysWritten += 1
        // Each fixed run of tabs, tags and keys is one literal (a 100,000-survey ledger is
        // 2.5 million of them): the same bytes as `appendEntry` of the entry's dictionary.
        if let base {
            appendLiteral("\t<dict>\n\t\t<key>base</key>\n\t\t<dict>\n\t\t\t<key>answers</key>\n")
            write(base.packed, depth: 3)
            if base.deleted { appendLiteral("\t\t\t<key>deleted</key>\n\t\t\t<true/>\n") }
            if let revision = base.revision {
                appendLiteral("\t\t\t<key>revision</key>\n\t\t\t<string>")
                appendEscaped(revision)
                appendLiteral("</string>\n\t\t</dict>\n")
            } else {
                appendLiteral("\t\t</dict>\n")
            }
        } else {
            appendLiteral("\t<dict>\n")
        }
        if let conflict {
            appendLiteral("\t\t<key>conflict</key>\n")
            write(conflict, depth: 2)
        }
        appendLiteral("\t\t<key>id</key>\n\t\t<string>")
        appendEscaped(id)
        if let owner {
            appendLiteral("</string>\n\t\t<key>owner</key>\n\t\t<string>")
            appendEscaped(owner)
        }
        appendLiteral("</string>\n")
        if let review {
            appendLiteral("\t\t<key>review</key>\n")
            write(review, depth: 2)
        }
        appendLiteral("\t</dict>\n")
    }

    package mutating func endSurveys() {
        if surveysWritten == 0 { appendLiteral("<array/>\n") } else { appendLiteral("</array>\n") }
        appendLiteral("</plist>\n")
    }

    /// Bytes made and not yet drained.
    package var pending: Int { bytes.count }

    /// Hands the bytes made since the last call to `output`, then forgets them.
    package mutating func drain(_ output: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try output(bytes.buffer)
        bytes.removeAll()
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append($0) }
    }

    /// A tag or other fixed text, copied from the program's own bytes (appending a `String`'s
    /// UTF-8 view went through the generic sequence path: 7% of a large ledger's write).
    private mutating func appendLiteral(_ text: StaticString) {
        bytes.append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    private mutating func indent(_ depth: Int) {
        bytes.append(repeating: 0x09, count: depth)
    }

    private mutating func element(_ tag: StaticString, _ text: String, depth: Int, escaped: Bool = false) {
        indent(depth)
        appendLiteral("<")
        appendLiteral(tag)
        appendLiteral(">")
        if escaped { appendEscaped(text) } else { append(text) }
        appendLiteral("</")
        appendLiteral(tag)
        appendLiteral(">\n")
    }

    private mutating func write(_ value: PropertyValue, depth: Int) {
        switch value {
        case .string(let s):
            element("string", s, depth: depth, escaped: true)
        case .integer(let n):
            element("integer", String(n), depth: depth)
        case .real(let d):
            element("real", Self.realText(d), depth: depth)
        case .bool(let b):
            indent(depth)
            if b { appendLiteral("<true/>\n") } else { appendLiteral("<false/>\n") }
        case .date(let date):
            element("date", Self.dateText(date), depth: depth)
        case .data(let data):
            indent(depth)
            appendLiteral("<data>\n")
            indent(depth)
            append(data.base64EncodedString())
            appendLiteral("\n")
            indent(depth)
            appendLiteral("</data>\n")
        case .array(let items):
            indent(depth)
            if items.isEmpty { appendLiteral("<array/>\n"); return }
            appendLiteral("<array>\n")
            for item in items { write(item, depth: depth + 1) }
            indent(depth)
            appendLiteral("</array>\n")
        case .dictionary(let entries):
            write(entries, depth: depth)
        }
    }

    /// A survey, straight from its packed bytes when it holds only text and whole numbers
    /// under keys already in the order written (plain ASCII, sorted, nothing to clean: nearly
    /// every survey this app and plistlib wrote), so saving builds no dictionary; otherwise
    /// as its dictionary.
    private mutating func write(_ record: Record, depth: Int) {
        let packed = record.packed
        guard !packed.isEmpty,
              packed.withUnsafeBufferPointer({ PackedAnswers.hasPlainSortedEntries($0, isPlainKey: Self.isPlainKey) })
        else {
            write(record.values, depth: depth)
            return
        }
        indent(depth)
        appendLiteral("<dict>\n")
        packed.withUnsafeBufferPointer { buffer in
            PackedAnswers.forEachEntry(in: buffer) { entry in
                indent(depth + 1)
                appendLiteral("<key>")
                appendEscaped(PackedAnswers.keySpelling(of: entry, in: buffer))
                appendLiteral("</key>\n")
                indent(depth + 1)
                if entry.tag == PackedAnswers.stringTag {
                    appendLiteral("<string>")
                    appendEscaped(UnsafeBufferPointer(rebasing: buffer[entry.valueBytes]))
                    appendLiteral("</string>\n")
                } else if entry.tag == PackedAnswers.idTag {
                    appendLiteral("<string>")
                    append(PackedAnswers.idText(buffer, at: entry.valueBytes.lowerBound))
                    appendLiteral("</string>\n")
                } else {
                    appendLiteral("<integer>")
                    append(String(PackedAnswers.integer(of: entry, in: buffer)))
                    appendLiteral("</integer>\n")
                }
                return true
            }
        }
        indent(depth)
        appendLiteral("</dict>\n")
    }

    /// Printable ASCII but `&`, `<`, `>`: a key written as it is, that sorts by its bytes.
    private static func isPlainKey(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        key.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") }
    }


    private mutating func write(_ entries: [String: PropertyValue], depth: Int) {
        indent(depth)
        if entries.isEmpty { appendLiteral("<dict/>\n"); return }
        appendLiteral("<dict>\n")
        for (key, item) in Self.cleanedEntries(entries) {
            element("key", key, depth: depth + 1, escaped: true)
            write(item, depth: depth + 1)
        }
        indent(depth)
        appendLiteral("</dict>\n")
    }

    /// Keys in sorted order, cleaned; should two keys become equal once cleaned, the one
    /// that sorts first (by original key) is kept, so the output never depends on hash order.
    private static func cleanedEntries(_ entries: [String: PropertyValue]) -> [(String, PropertyValue)] {
        // Nearly always: no key has anything to clean, so sorting them is all there is to do.
        if entries.keys.allSatisfy({ XMLCharacters.forbiddenCount(in: $0) == 0 }) {
            return entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        var seen = Set<String>()
        var result: [(String, PropertyValue)] = []
        result.reserveCapacity(entries.count)
        for key in entries.keys.sorted() {
            let clean = XMLCharacters.replacingForbidden(in: key)
            if seen.insert(clean).inserted, let value = entries[key] { result.append((clean, value)) }
        }
        return result.sorted { $0.0 < $1.0 }
    }

    /// XML text escaping, with forbidden characters replaced and CR kept as a reference.
    private mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { appendEscaped($0) }
    }

    /// The same over valid UTF-8, byte by byte (a survey's packed text is written from here).
    private mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i < text.count {
            // A run of bytes that need nothing is copied at once (byte by byte, escaping was a
            // fifth of writing a large ledger).
            var end = i
            while end < text.count, Self.needsNothing(text[end]) { end += 1 }
            if end > i {
                bytes.append(text.baseAddress! + i, count: end - i)
                i = end
                if i == text.count { break }
            }
            let forbidden = XMLCharacters.forbiddenLength(at: i, in: text)
            if forbidden > 0 {
                appendLiteral("\u{FFFD}")
                i += forbidden
                continue
            }
            switch text[i] {
            case 0x26: appendLiteral("&amp;")
            case 0x3C: appendLiteral("&lt;")
            case 0x3E: appendLiteral("&gt;")
            case 0x0D: appendLiteral("&#13;")
            case let byte: bytes.append(byte)
            }
            i += 1
        }
    }

    /// A byte written as it is whatever follows it: not a control character, not `&`, `<`
    /// or `>`, and not 0xEF (which may begin U+FFFE or U+FFFF, both forbidden in XML).
    @inline(__always)
    private static func needsNothing(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != 0x26 && byte != 0x3C && byte != 0x3E && byte != 0xEF
    }

    /// Shortest text that reads back as the same double; plistlib and Foundation read
    /// "inf"/"nan" spellings too. Negative zero keeps its sign, written `-0.0` as plistlib
    /// writes it (a whole number is otherwise written without a fraction, as Apple's tools do).
    static func realText(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        if d == 0, d.sign == .minus { return "-0.0" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// Proleptic Gregorian, as plistlib reads it. Every date comes from a reader, which refuses
    /// a year outside 1 to 9999 (`PropertyListDate`), or from the clock.
    static func dateText(_ date: Date) -> String {
        PropertyListDate.text(date)
    }
}
