import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms

extension SurveyDocument {
    /// Writes what `propertyListData()` returns, byte for byte, to `fd` (an empty file), a
    /// piece at a time as it is made from the records: saving 100,000 surveys no longer holds
    /// a tree of every value and the whole 34 MB file in memory.
    func writePropertyList(to output: FileOutput) throws {
        try PropertyListWriter.write(records) { try output.write($0) }
        #if DEBUG
        // The same guard as `propertyListData()`'s, on what is now in the file, before it
        // replaces anything.
        if let written = try Self.readBack(output.fd) { _ = try Self.parse(written) }
        #endif
    }

    #if DEBUG
    /// The file behind `fd` from its start; nil when `fd` was opened for writing only.
    private static func readBack(_ fd: Int32) throws -> Data? {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemError("read back") }
        var data = Data(count: Int(status.st_size))
        var done = 0
        while done < data.count {
            let count = data.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EBADF, done == 0 { return nil }
                throw SystemError("read back")
            }
            if count == 0 { break }
            done += count
        }
        return data.prefix(done)
    }
    #endif
}
