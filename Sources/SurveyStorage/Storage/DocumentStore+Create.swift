import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

/// New documents (F3 "New", `survey docs new`, `--doc` for a name not yet used).
extension DocumentStore {
    /// Validates `raw` (`validateName` rules) and refuses a name taken by another document,
    /// compared folded ("A document named “X” already exists", naming the existing one).
    /// Writes an empty document (`<array/>`, since plistlib cannot read a 0-byte file)
    /// without ever replacing a file that appeared meanwhile. Returns the final name.
    @discardableResult
    public func create(named raw: String) throws -> String {
        try create(named: raw, containing: SurveyDocument())
    }

    /// `create(named:)` with content (an import into a new document is written with its
    /// records in place): the same name rules and refusals.
    @discardableResult
    public func create(named raw: String, containing document: SurveyDocument) throws -> String {
        let name = try Self.validateName(raw).get()
        try createFolder()
        if let taken = Self.match(name, in: try documentNames()) {
            throw Self.alreadyExists(taken)
        }
        do {
            try AtomicFile.create(at: url(for: name), in: fileSystem, contents: document.writePropertyList)
        } catch let error as SystemError where error.code == EEXIST {
            throw Self.alreadyExists(name)
        } catch let error as SystemError {
            throw DocumentError("Could not create \(name)\(DocumentName.fileSuffix): \(error.reason)")
        }
        return name
    }

    static func alreadyExists(_ name: String) -> DocumentError {
        DocumentError("A document named “\(name)” already exists")
    }

    static func doesNotExist(_ name: String) -> DocumentError {
        DocumentError("“\(name)” does not exist")
    }
}
