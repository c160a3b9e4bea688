/// A PostgreSQL array literal (`{"a","b",NULL}`) for one parameter, so a whole batch of rows
/// travels in a few statements (`unnest($1::text[], …)`) and still never inside the SQL text.
/// Every element is double-quoted, with `"` and `\` escaped, as the array input syntax asks.
enum SQLArray {
    static func literal(_ elements: [String?]) -> String {
        // Byte by byte over UTF-8 (a quote and a backslash are single bytes that never occur
        // inside a multi-byte character): a push of 100,000 surveys builds 200 of these.
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(elements.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (i, element) in elements.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            guard let element else { out += Array("NULL".utf8); continue }
            out.append(UInt8(ascii: "\""))
            for byte in element.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }
}
