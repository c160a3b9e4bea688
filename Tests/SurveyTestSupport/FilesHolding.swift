import Foundation

/// The files under `folder` (hidden ones and subfolders included), relative to it, whose bytes
/// hold `bytes`: how the encryption tests show that a respondent's answer or photo is in clear
/// nowhere survey keeps files.
public func filesHolding(_ bytes: Data, in folder: URL) throws -> [String] {
    let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    return try paths.filter { path in
        var isFolder: ObjCBool = false
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
        guard !isFolder.boolValue else { return false }
        return try Data(contentsOf: folder.appendingPathComponent(path)).range(of: bytes) != nil
    }
}

/// `filesHolding` of a text's UTF-8.
public func filesHolding(_ text: String, in folder: URL) throws -> [String] {
    try filesHolding(Data(text.utf8), in: folder)
}
