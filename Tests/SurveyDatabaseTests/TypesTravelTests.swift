import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// Issue 28, "types travel": a survey with a date, data, NaN, ±infinity and -0.0 (in a
/// roster too), written by Python's plistlib, is pushed by one laptop and pulled by another
/// through the real server; plistlib then reads the second laptop's file and finds every
/// value of the same type and value as it wrote (a date came back as a string, data as
/// base64 text, NaN as "NaN"). A dictionary that looks like a tag, and strings that read
/// like the tags' texts, come back as themselves. The server keeps the values readable.
final class TypesTravelTests: DatabaseTestCase {
    private var folders: [URL] = []

    override func tearDownWithError() throws {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        try super.tearDownWithError()
    }

    private func laptop() throws -> DocumentStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("types-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        folders.append(folder)
        return DocumentStore(folder: folder)
    }

    /// argv[1]: the document to write, as another tool would.
    private static let writer = #"""
        import datetime, plistlib, sys
        records = [
            {"instanceID": "uuid:t1", "visit": datetime.datetime(2024, 5, 1, 9, 30, 0), "old": datetime.datetime(1066, 10, 14),
             "photo": b"\x00\x01binary\xff", "empty": b"", "ratio": float("nan"), "top": float("inf"),
             "bottom": float("-inf"), "signed": -0.0, "weight": 61.5, "age": 35, "name": "Ana", "ok": True,
             "members": [{"member_name": "Bea", "born": datetime.datetime(1990, 1, 2, 3, 4, 5), "scan": b"\xfe", "score": float("nan")}],
             "when_text": "2024-05-01T09:30:00Z", "b64_text": "AAE=", "nan_text": "NaN",
             "looks_like_a_tag": {"$date": "2024-05-01T09:30:00Z"}, "wrapped": {"$dict": {"$real": "NaN"}}},
            {"instanceID": "uuid:t2", "name": "Bo", "visit": datetime.datetime(9999, 12, 31, 23, 59, 59)},
        ]
        with open(sys.argv[1], "wb") as f:
            plistlib.dump(records, f)
        """#

    /// argv[1]: a document. Prints its surveys by id, each value tagged with its type and repr.
    private static let reader = #"""
        import json, plistlib, sys
        def tag(v):
            if isinstance(v, dict): return {k: tag(x) for k, x in v.items()}
            if isinstance(v, list): return [tag(x) for x in v]
            return [type(v).__name__, repr(v)]
        with open(sys.argv[1], "rb") as f:
            records = plistlib.load(f)
        print(json.dumps({r["instanceID"]: tag(r) for r in records}, sort_keys=True, indent=1))
        """#

    private func file(_ store: DocumentStore) -> String { store.folder.appendingPathComponent("Field.plist").path }

    private func python(_ script: String, _ path: String) throws -> String {
        let outcome = try ChildProcess.run(["python3", "-c", script, path], environment: ["PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(outcome.status, 0, outcome.errors)
        return outcome.output
    }

    func testDatesDataNaNAndInfinitiesArriveAsTheSameTypes() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bo = try loginRole("bo", in: "survey_enumerator")
        let a = try laptop(), b = try laptop()
        _ = try python(Self.writer, file(a))
        _ = try b.save(SurveyDocument(), as: "Field")
        let written = try python(Self.reader, file(a))
        XCTAssertTrue(written.contains("datetime.datetime(2024, 5, 1, 9, 30)") && written.contains("nan"), written)

        XCTAssertEqual(try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", at: { Date() }).pushed, 2)
        let pulled = try DocumentSync.run(store: b, document: "Field", target: target(as: bo), device: "B", at: { Date() })
        XCTAssertEqual(pulled.pulled, 2)
        XCTAssertEqual(pulled.setAside, [])
        XCTAssertEqual(try python(Self.reader, file(b)), written, "plistlib reads what it wrote")

        // Nothing came back changed: the pusher's next sync pulls and pushes nothing, and
        // leaves its file as it was.
        let before = try Data(contentsOf: URL(fileURLWithPath: file(a)))
        let again = try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", at: { Date() })
        XCTAssertEqual([again.pulled, again.pushed], [0, 0])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file(a))), before)

        // A data manager reads them in psql.
        let row = try server.psql("""
            SELECT answers->'visit'->>'$date', encode(decode(answers->'photo'->>'$data', 'base64'), 'hex'),
                   answers->'ratio'->>'$real', answers->>'when_text', jsonb_typeof(answers->'weight')
            FROM survey.surveys WHERE instance_id = 'uuid:t1'
            """, database: database)
        XCTAssertEqual(row, "2024-05-01T09:30:00Z|000162696e617279ff|NaN|2024-05-01T09:30:00Z|number")
    }
}
