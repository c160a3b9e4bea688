import Foundation
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Python snippets for interop tests. Values cross over as "tagged JSON" (one-key objects
/// naming the plist type) so integers, reals, booleans, dates and data stay distinguishable.
enum PlistlibScripts {
    static let taggedEncoder = #"""
        import base64, calendar, datetime, json, plistlib, sys
        def tag(v):
            if isinstance(v, bool): return {"b": "1" if v else "0"}
            if isinstance(v, int): return {"i": str(v)}
            if isinstance(v, float): return {"r": repr(v)}
            if isinstance(v, str): return {"s": v}
            if isinstance(v, bytes): return {"d": base64.b64encode(v).decode()}
            if isinstance(v, datetime.datetime): return {"t": str(calendar.timegm(v.utctimetuple()))}
            if isinstance(v, list): return {"a": [tag(x) for x in v]}
            if isinstance(v, dict): return {"o": {k: tag(x) for k, x in v.items()}}
            raise TypeError(type(v))
        """#

    /// argv[1]: plist path. Prints the tagged JSON of its content.
    static let readAsTaggedJSON = taggedEncoder + #"""

        with open(sys.argv[1], "rb") as f:
            print(json.dumps(tag(plistlib.load(f))))
        """#

    static func decodeTagged(_ json: String) throws -> PropertyValue {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        guard let value = decode(object) else { throw DocumentError("bad tagged JSON: \(json)") }
        return value
    }

    private static func decode(_ object: Any) -> PropertyValue? {
        guard let tagged = object as? [String: Any], tagged.count == 1, let (tag, body) = tagged.first else { return nil }
        switch tag {
        case "b": return (body as? String).map { .bool($0 == "1") }
        case "i": return (body as? String).flatMap(Int.init).map { .integer($0) }
        case "r": return (body as? String).flatMap(Double.init).map { .real($0) }
        case "s": return (body as? String).map { .string($0) }
        case "d": return (body as? String).flatMap { Data(base64Encoded: $0) }.map { .data($0) }
        case "t": return (body as? String).flatMap(Double.init).map { .date(Date(timeIntervalSince1970: $0)) }
        case "a":
            guard let items = body as? [Any] else { return nil }
            let decoded = items.compactMap(decode)
            return decoded.count == items.count ? .array(decoded) : nil
        case "o":
            guard let entries = body as? [String: Any] else { return nil }
            let decoded = entries.compactMapValues(decode)
            return decoded.count == entries.count ? .dictionary(decoded) : nil
        default: return nil
        }
    }
}
