#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few searches and replacements Foundation's `StringProtocol` methods did here, on
/// Unicode scalars (literal, as the callers' ASCII needles want): `range(of:options:
/// .backwards)`, `replacingOccurrences(of:with:)`, `caseInsensitiveCompare`, and
/// `String(format:)`. Foundation's versions go through NSString and link ICU (DECISIONS.md).
extension StringProtocol {
    /// The last place `needle` occurs, compared scalar by scalar.
    public func lastRange(of needle: String) -> Range<Index>? {
        let target = Array(needle.unicodeScalars)
        guard !target.isEmpty else { return nil }
        let scalars = unicodeScalars
        var end = scalars.endIndex
        while true {
            var i = end, j = target.count
            while j > 0, i > scalars.startIndex {
                let before = scalars.index(before: i)
                guard scalars[before] == target[j - 1] else { break }
                i = before
                j -= 1
            }
            if j == 0 { return i..<end }
            guard end > scalars.startIndex else { return nil }
            end = scalars.index(before: end)
        }
    }

    /// Every occurrence of `needle` replaced by `replacement`, scalar by scalar (a quote
    /// followed by a combining mark is still a quote to a CSV reader). Done on the UTF-8
    /// bytes, which is the same: UTF-8 is self-synchronising, so a needle's bytes can only
    /// match where a scalar starts. Into one byte buffer, made a String once: appending to a
    /// String.UnicodeScalarView piece by piece copied the whole string each time, and a
    /// 4 MB document's numbers took minutes to mark.
    public func replacingEvery(_ needle: String, with replacement: String) -> String {
        let target = Array(needle.utf8)
        let bytes = Array(utf8)
        guard !target.isEmpty, bytes.count >= target.count else { return String(self) }
        let with = Array(replacement.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        let first = target[0]
        while i < bytes.count {
            if bytes[i] == first, i + target.count <= bytes.count, bytes[i..<(i + target.count)].elementsEqual(target) {
                out.append(contentsOf: with)
                i += target.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `caseInsensitiveCompare(other) == .orderedSame`: equal once case-folded.
    public func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        TextFolding.caseFolded(self) == TextFolding.caseFolded(other)
    }
}

extension StringProtocol {
    /// `compare(other, options: [.caseInsensitive, .numeric]) == .orderedAscending`, nil when
    /// the two are the same that way: runs of ASCII digits compare as numbers ("2" < "10"),
    /// the rest scalar by scalar once case-folded and decomposed (`Ä` is `A` and a mark).
    public func compareIgnoringCaseNumerically(_ other: some StringProtocol) -> Bool? {
        let a = TextFolding.decomposed(TextFolding.caseFolded(self)), b = TextFolding.decomposed(TextFolding.caseFolded(other))
        func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if isDigit(a[i]), isDigit(b[j]) {
                var ei = i, ej = j
                while ei < a.count, isDigit(a[ei]) { ei += 1 }
                while ej < b.count, isDigit(b[ej]) { ej += 1 }
                let x = a[i..<ei].drop { $0 == "0" }, y = b[j..<ej].drop { $0 == "0" }
                if x.count != y.count { return x.count < y.count }
                if let k = zip(x, y).first(where: { $0.0 != $0.1 }) { return k.0.value < k.1.value }
                i = ei; j = ej
            } else {
                if a[i] != b[j] { return a[i].value < b[j].value }
                i += 1; j += 1
            }
        }
        if i < a.count || j < b.count { return i >= a.count }
        return nil
    }
}

extension String {
    /// C's `printf` formatting (`%04d`, `%.1f`, `%02X`), which `String(format:)` handed the
    /// same conversions to; integers are passed as `Int`, as Swift passed them there.
    public init(printf format: String, _ arguments: CVarArg...) {
        self = withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else { return String(cString: buffer) }
            return withVaList(arguments) { again in
                buffer = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&buffer, buffer.count, format, again)
                return String(cString: buffer)
            }
        }
    }
}
