import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The records of one survey file, in file order. Reading and writing go through
/// `PropertyValue` rather than Codable so that nothing in the file is dropped or retyped,
/// and writing cleans what Foundation would otherwise emit as ill-formed XML.
public struct SurveyDocument: Equatable, Sendable {
    public var records: RecordList

    public init(records: RecordList = []) {
        self.records = records
    }

    public init(records: [Record]) {
        self.records = RecordList(records)
    }

    /// 0-byte data (or only whitespace) is an empty document (the original app created new
    /// documents as empty files). XML or binary plists. Root must be an array of
    /// dictionaries; otherwise throws a `DocumentError` with a clear reason. Files in the
    /// layout survey and plistlib write are read by `PropertyListScanner`; anything else by
    /// Foundation, which has the last word on what is valid.
    public init(propertyListData data: Data) throws {
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            self.init()
            return
        }
        if let scanned = PropertyListScanner.records(in: data) {
            self.init(records: scanned)
            return
        }
        try self.init(foundationPropertyListData: data)
    }

    /// The same document read by `PropertyListSerialization` alone: the reader of everything
    /// `PropertyListScanner` leaves out, and what its tests and `make bench` compare it with.
    public init(foundationPropertyListData data: Data) throws {
        let root = try Self.parse(data)
        guard case .array(let items) = root else {
            throw DocumentError(
                "not a survey document: the top level is \(root.kindDescription), expected an array of records")
        }
        records = RecordList(try items.enumerated().map { index, item in
            guard case .dictionary(let values) = item else {
                throw DocumentError("record \(index + 1) is not a dictionary (it is \(item.kindDescription))")
            }
            return Record(values)
        })
    }

    /// XML plist; every string (values, nested, and dict keys) has XML-forbidden characters
    /// replaced by U+FFFD, and carriage returns are written as `&#13;` so XML readers do not
    /// turn them into line feeds.
    public func propertyListData() throws -> Data {
        let output = PropertyListWriter.data(for: .array(records.map { .dictionary($0.values) }))
        #if DEBUG
        // Debug builds (and so the tests) read every write back: a guard against ever
        // writing a file we could not read. Release builds skip it; it doubles the cost.
        _ = try Self.parse(output)
        #endif
        return output
    }

    /// How many forbidden characters `propertyListData()` will replace (for a one-time notice).
    public var forbiddenCharacterCount: Int {
        records.reduce(0) { $0 + $1.forbiddenCharacterCount }
    }

    // MARK: - Helpers

    package static func parse(_ data: Data) throws -> PropertyValue {
        let read: (value: PropertyValue, isXMLOrBinary: Bool)
        do {
            read = try PropertyListReader.read(data)
        } catch is PropertyListReader.Unrepresentable {
            throw DocumentError("not a survey document: it holds a value this app cannot represent")
        } catch {
            throw DocumentError("not a property list: \(oneLine(error))")
        }
        // The decoder also accepts the old OpenStep text format, which reads almost any text
        // (even "garbage") as a string. Neither plistlib nor this app writes it.
        guard read.isXMLOrBinary else {
            throw DocumentError("not a property list: the data is neither an XML nor a binary property list")
        }
        return read.value
    }

    package static func oneLine(_ error: Error) -> String {
        let detail = PropertyListReader.reason(error)
        let flat = detail.split(whereSeparator: \.isNewline).joined(separator: " ")
        // Parser messages may quote the offending byte; keep terminals safe from it.
        return String(String.UnicodeScalarView(flat.unicodeScalars.map {
            $0.isControlCharacter ? XMLCharacters.replacement : $0
        }))
    }
}
