import Foundation
import SurveyTestSupport

/// A property list value as Python's plistlib read it, types kept apart (an integer age is
/// not a real or a string), so tests check what another tool would see in the file.
indirect enum PlistValue: Equatable, CustomStringConvertible {
    case string(String)
    case integer(String)   // plistlib's int, as decimal text so any size survives JSON
    case real(String)
    case bool(Bool)
    case data(String)      // base64
    case array([PlistValue])
    case dictionary([String: PlistValue])
    case other(type: String, text: String)   // datetime and anything else, as str()

    static func int(_ n: Int) -> PlistValue { .integer(String(n)) }

    var description: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .integer(let n): return n
        case .real(let r): return r
        case .bool(let b): return b ? "True" : "False"
        case .data(let d): return "b64(\(d))"
        case .array(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            return "{" + entries.sorted { $0.key < $1.key }
                .map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        case .other(let type, let text): return "\(type)(\(text))"
        }
    }

    /// A survey record: the five standard keys, age left out when nil.
    static func survey(first: String, last: String, address: String, phone: String, age: Int?) -> PlistValue {
        var entries: [String: PlistValue] = [
            "firstName": .string(first), "lastName": .string(last),
            "address": .string(address), "phone": .string(phone),
        ]
        if let age { entries["age"] = .int(age) }
        return .dictionary(entries)
    }

    subscript(key: String) -> PlistValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries[key]
    }
}

/// Reads plists with `python3 -c 'import plistlib ...'`: the interop the app promises.
enum Plistlib {
    /// Prints the file's content as JSON, each value tagged with its plistlib type.
    static let script = #"""
        import base64, json, plistlib, sys
        def tag(v):
            if isinstance(v, bool): return ["bool", v]
            if isinstance(v, int): return ["int", str(v)]
            if isinstance(v, float): return ["float", repr(v)]
            if isinstance(v, str): return ["str", v]
            if isinstance(v, bytes): return ["bytes", base64.b64encode(v).decode()]
            if isinstance(v, list): return ["list", [tag(x) for x in v]]
            if isinstance(v, dict): return ["dict", {k: tag(x) for k, x in v.items()}]
            return [type(v).__name__, str(v)]
        with open(sys.argv[1], "rb") as f:
            print(json.dumps(tag(plistlib.load(f))))
        """#

    static func load(_ url: URL) throws -> PlistValue {
        var env = ProcessInfo.processInfo.environment
        env["PYTHONIOENCODING"] = "utf-8"
        let outcome = try ChildProcess.run(["python3", "-c", script, url.path], environment: env)
        guard outcome.status == 0 else {
            throw TmuxError("plistlib could not read \(url.lastPathComponent): \(outcome.errors)")
        }
        let outData = outcome.stdout
        let json = try JSONSerialization.jsonObject(with: outData)
        guard let value = decode(json) else {
            throw TmuxError("unexpected plistlib output: \(String(decoding: outData, as: UTF8.self))")
        }
        return value
    }

    private static func decode(_ json: Any) -> PlistValue? {
        guard let pair = json as? [Any], pair.count == 2, let type = pair[0] as? String else { return nil }
        let body = pair[1]
        switch type {
        case "bool": return (body as? Bool).map(PlistValue.bool)
        case "int": return (body as? String).map(PlistValue.integer)
        case "float": return (body as? String).map(PlistValue.real)
        case "str": return (body as? String).map(PlistValue.string)
        case "bytes": return (body as? String).map(PlistValue.data)
        case "list":
            guard let items = body as? [Any] else { return nil }
            let decoded = items.compactMap(decode)
            return decoded.count == items.count ? .array(decoded) : nil
        case "dict":
            guard let entries = body as? [String: Any] else { return nil }
            let decoded = entries.compactMapValues(decode)
            return decoded.count == entries.count ? .dictionary(decoded) : nil
        default:
            return .other(type: type, text: "\(body)")
        }
    }
}
