/// A PostgreSQL array literal (`{"a","b",NULL}`) for one parameter, so a whole batch of rows
/// travels in a few statements (`unnest($1::text[], …)`) and still never inside the SQL text.
/// Every element is double-quoted, with `"` and `\` escaped, as the array input syntax asks.
enum SQLArray {
    static func literal(_ elements: [String?]) -> String {
        var out = "{"
        out.reserveCapacity(elements.count * 16)
        for (i, element) in elements.enumerated() {
            if i > 0 { out += "," }
            guard let element else { out += "NULL"; continue }
            out += "\""
            for character in element.unicodeScalars {
                if character == "\"" || character == "\\" { out += "\\" }
                out.unicodeScalars.append(character)
            }
            out += "\""
        }
        return out + "}"
    }
}
