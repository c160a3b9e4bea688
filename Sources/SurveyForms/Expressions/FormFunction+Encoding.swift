import FoundationEssentials
import SurveyValues

/// `digest()` (XForms 1.1, in ODK's string functions) and `base64-decode()`: the text's UTF-8
/// bytes hashed or decoded.
extension FormFunction {
    static let encoding: [FormFunction] = [
        // `digest(text, 'SHA-256' [, 'base64' | 'hex'])`, base64 when no encoding is named.
        FormFunction(name: "digest", arity: 2...3, check: { arguments in
            try constant(1, { name in
                guard MessageDigest.hash([], algorithm: name) != nil else {
                    let offered = MessageDigest.algorithms.contains { $0.filter { $0 != "-" } == name.uppercased().filter { $0 != "-" } }
                    throw FormExpressionError(offered
                        ? "“\(name)” is refused by this system's OpenSSL (a FIPS-only configuration): use SHA-256"
                        : "“\(name)” is not a digest algorithm (\(MessageDigest.algorithms.joined(separator: ", ")))")
                }
            })(arguments)
            try constant(2, { name in
                guard ["base64", "hex"].contains(name.lowercased()) else {
                    throw FormExpressionError("“\(name)” is not an encoding (base64 or hex)")
                }
            })(arguments)
        }) { call in
            guard let hash = MessageDigest.hash(Array(call.string(0).utf8), algorithm: call.string(1)) else { return .string("") }
            switch call.count > 2 ? call.string(2).lowercased() : "base64" {
            case "hex": return .string(hash.map { String(printf: "%02x", $0) }.joined())
            case "base64": return .string(Data(hash).base64EncodedString())
            default: return .string("")
            }
        },
        // The bytes as UTF-8 text; empty when the input is not base64 or the bytes not UTF-8.
        FormFunction(name: "base64-decode", arity: 1...1) { call in
            guard let data = Data(base64Encoded: call.string(0).trimmingWhitespaceAndNewlines()),
                  let text = String(data: data, encoding: .utf8) else { return .string("") }
            return .string(text)
        },
    ]
}
