import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `MessageDigest` (OpenSSL's EVP) against Python's `hashlib` as the oracle, on inputs of
/// every length around the algorithms' block edges (55, 56, 64, 111, 112, 128 bytes), an
/// empty one, and a megabyte: each algorithm `digest()` offers, and the media files' SHA-256.
final class MessageDigestOracleTests: XCTestCase {
    func testEveryAlgorithmAgreesWithHashlib() throws {
        // Seeded bytes, so a failure names an input that comes again.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func byte() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let lengths = [0, 1, 3, 55, 56, 57, 63, 64, 65, 111, 112, 113, 127, 128, 129, 1000, 1 << 20]
        let inputs = lengths.map { n in (0..<n).map { _ in byte() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (i, bytes) in inputs.enumerated() { try Data(bytes).write(to: folder.appendingPathComponent("\(i)")) }
        let script = #"""
        import hashlib, json, sys
        folder, count = sys.argv[1], int(sys.argv[2])
        names = {"MD5": "md5", "SHA-1": "sha1", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512"}
        out = []
        for i in range(count):
            data = open(f"{folder}/{i}", "rb").read()
            out.append({ours: hashlib.new(theirs, data).hexdigest() for ours, theirs in names.items()})
        print(json.dumps(out))
        """#
        let run = try ChildProcess.run(["python3", "-c", script, folder.path, String(inputs.count)])
        XCTAssertEqual(run.status, 0, run.errors)
        let oracle = try JSONDecoder().decode([[String: String]].self, from: Data(run.output.utf8))
        XCTAssertEqual(oracle.count, inputs.count)
        for (bytes, expected) in zip(inputs, oracle) {
            XCTAssertEqual(Set(expected.keys), Set(MessageDigest.algorithms))
            for (algorithm, hex) in expected {
                let ours = MessageDigest.hash(bytes, algorithm: algorithm)?.map { String(format: "%02x", $0) }.joined()
                XCTAssertEqual(ours, hex, "\(algorithm) of \(bytes.count) bytes")
            }
            XCTAssertEqual(MessageDigest.sha256Hex(Data(bytes)), expected["SHA-256"], "sha256Hex of \(bytes.count) bytes")
        }
    }

    /// The names XForms and pyxform write, in any case; another name is none.
    func testAlgorithmNames() {
        XCTAssertEqual(MessageDigest.hash([], algorithm: "sha256"), MessageDigest.hash([], algorithm: "SHA-256"))
        XCTAssertEqual(MessageDigest.hash([], algorithm: "Sha-1")?.count, 20)
        XCTAssertNil(MessageDigest.hash([], algorithm: "SHA-3"))
        XCTAssertNil(MessageDigest.hash([], algorithm: "../md5"))
    }
}
