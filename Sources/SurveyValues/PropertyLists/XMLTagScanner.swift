/// A minimal reader for the machine-written XML inside .xlsx workbooks: start and end tags
/// with their attributes, and the text between them, entities decoded. Foundation's
/// `XMLParser` would do, but on Linux it links libxml2, which a field laptop without it could
/// not load (the .deb would have to pull it in for a few simple files). Comments, processing
/// instructions and CDATA are skipped or kept as text; DTDs are ignored (no entities but the
/// five predefined and character references are expanded, so no entity bomb).
package struct XMLTagScanner {
    package enum Event: Equatable {
        case start(name: String, attributes: [String: String], selfClosing: Bool)
        case end(name: String)
        case text(String)
    }

    package static func events(_ bytes: [UInt8]) -> [Event] {
        var events: [Event] = []
        var i = 0
        let n = bytes.count
        while i < n {
            if bytes[i] != UInt8(ascii: "<") {
                let start = i
                while i < n, bytes[i] != UInt8(ascii: "<") { i += 1 }
                events.append(.text(decode(bytes[start..<i])))
                continue
            }
            // A tag, comment, PI, CDATA or DTD.
            if hasPrefix(bytes, i, "<!--") {
                i = find(bytes, from: i + 4, "-->").map { $0 + 3 } ?? n
                continue
            }
            if hasPrefix(bytes, i, "<![CDATA[") {
                let end = find(bytes, from: i + 9, "]]>") ?? n
                events.append(.text(String(decoding: bytes[(i + 9)..<end], as: UTF8.self)))
                i = min(n, end + 3)
                continue
            }
            if hasPrefix(bytes, i, "<?") || hasPrefix(bytes, i, "<!") {
                // To the `>` that closes it, past a DTD's `[ … ]` internal subset.
                var depth = 0
                var j = i + 2
                while j < n {
                    if bytes[j] == UInt8(ascii: "[") { depth += 1 }
                    else if bytes[j] == UInt8(ascii: "]") { depth -= 1 }
                    else if bytes[j] == UInt8(ascii: ">"), depth <= 0 { break }
                    j += 1
                }
                i = j + 1
                continue
            }
            // Find the tag's end, respecting quoted attribute values.
            var j = i + 1
            var quote: UInt8?
            while j < n {
                let b = bytes[j]
                if let q = quote { if b == q { quote = nil } }
                else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { quote = b }
                else if b == UInt8(ascii: ">") { break }
                j += 1
            }
            let inner = bytes[(i + 1)..<min(j, n)]
            i = j + 1
            if inner.first == UInt8(ascii: "/") {
                events.append(.end(name: localName(String(decoding: inner.dropFirst(), as: UTF8.self).trimmingBlanks)))
                continue
            }
            let selfClosing = inner.last == UInt8(ascii: "/")
            let body = selfClosing ? inner.dropLast() : inner
            let (name, attributes) = parseTag(Array(body))
            events.append(.start(name: name, attributes: attributes, selfClosing: selfClosing))
            if selfClosing { events.append(.end(name: name)) }
        }
        return events
    }

    /// `x:sheet` and `sheet` are the same element to the reader (workbooks use both).
    private static func localName(_ qualified: String) -> String {
        qualified.split(separator: ":").last.map(String.init) ?? qualified
    }

    private static func parseTag(_ body: [UInt8]) -> (String, [String: String]) {
        var i = 0
        while i < body.count, !isBlank(body[i]) { i += 1 }
        let name = localName(String(decoding: body[0..<i], as: UTF8.self))
        var attributes: [String: String] = [:]
        while i < body.count {
            while i < body.count, isBlank(body[i]) { i += 1 }
            let keyStart = i
            while i < body.count, body[i] != UInt8(ascii: "="), !isBlank(body[i]) { i += 1 }
            let key = String(decoding: body[keyStart..<i], as: UTF8.self)
            while i < body.count, body[i] != UInt8(ascii: "\"") && body[i] != UInt8(ascii: "'") { i += 1 }
            guard i < body.count else { break }
            let quote = body[i]
            let valueStart = i + 1
            i = valueStart
            while i < body.count, body[i] != quote { i += 1 }
            if !key.isEmpty { attributes[key] = decode(body[valueStart..<min(i, body.count)]) }
            i += 1
        }
        return (name, attributes)
    }

    /// The five predefined entities and character references; anything else stays as written.
    static func decode(_ slice: ArraySlice<UInt8>) -> String {
        let text = String(decoding: slice, as: UTF8.self)
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let code: UInt32? = entity.hasPrefix("#x") || entity.hasPrefix("#X") ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let code, let scalar = Unicode.Scalar(code) { out.unicodeScalars.append(scalar) }
                else { out += "&" + entity + ";" }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }

    private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private static func hasPrefix(_ bytes: [UInt8], _ at: Int, _ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        return at + p.count <= bytes.count && Array(bytes[at..<at + p.count]) == p
    }

    private static func find(_ bytes: [UInt8], from: Int, _ needle: String) -> Int? {
        let p = Array(needle.utf8)
        guard p.count <= bytes.count else { return nil }
        var i = from
        while i + p.count <= bytes.count {
            if bytes[i] == p[0], Array(bytes[i..<i + p.count]) == p { return i }
            i += 1
        }
        return nil
    }
}

private extension String {
    var trimmingBlanks: String {
        String(unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            .reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.reversed()
            .map(Character.init))
    }
}
