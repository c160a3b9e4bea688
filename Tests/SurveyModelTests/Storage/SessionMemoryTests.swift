import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class SessionMemoryTests: TemporaryFolderTestCase {
    private var stateURL: URL { folder.appendingPathComponent("state/survey/state.plist") }
    private var documents: URL { folder.appendingPathComponent("docs", isDirectory: true) }

    func testDefaultURLPrefersAnAbsoluteXDGStateHome() {
        XCTAssertEqual(SessionMemory.defaultURL(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/me"]).path,
                       "/x/state/survey/state.plist")
        XCTAssertEqual(SessionMemory.defaultURL(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/me"]).path,
                       "/home/me/.local/state/survey/state.plist", "a relative XDG_STATE_HOME is ignored")
        XCTAssertEqual(SessionMemory.defaultURL(environment: ["XDG_STATE_HOME": "", "HOME": "/home/me"]).path,
                       "/home/me/.local/state/survey/state.plist")
        XCTAssertEqual(SessionMemory.defaultURL(environment: ["HOME": "/home/me/"]).path,
                       "/home/me/.local/state/survey/state.plist")
    }

    func testAMissingFileRemembersNothing() {
        let memory = SessionMemory(url: stateURL)
        XCTAssertNil(memory.lastDocument(in: documents))
        XCTAssertNil(memory.lastRecord(of: "A", in: documents))
    }

    func testAGarbageFileRemembersNothing() throws {
        try FileManager.default.createDirectory(at: stateURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        for garbage in ["garbage", "<?xml version=\"1.0\"?><plist version=\"1.0\"><array/></plist>", "\u{0}\u{1}\u{2}"] {
            try Data(garbage.utf8).write(to: stateURL)
            let memory = SessionMemory(url: stateURL)
            XCTAssertNil(memory.lastDocument(in: documents), garbage)
            XCTAssertEqual(memory, SessionMemory(url: folder.appendingPathComponent("none")).withURL(stateURL))
        }
    }

    func testAFolderInsteadOfAFileRemembersNothing() throws {
        try FileManager.default.createDirectory(at: stateURL, withIntermediateDirectories: true)
        XCTAssertNil(SessionMemory(url: stateURL).lastDocument(in: documents))
    }

    func testWrongTypesAreSkippedPieceByPiece() throws {
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>folders</key><dict>
          <key>\(documents.path)</key><dict>
            <key>lastDocument</key><string>Kept</string>
            <key>records</key><dict><key>Kept</key><integer>4</integer><key>Bad</key><string>x</string></dict>
          </dict>
          <key>/other</key><string>not a dict</string>
        </dict></dict></plist>
        """
        try FileManager.default.createDirectory(at: stateURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(plist.utf8).write(to: stateURL)
        let memory = SessionMemory(url: stateURL)
        XCTAssertEqual(memory.lastDocument(in: documents), "Kept")
        XCTAssertEqual(memory.lastRecord(of: "Kept", in: documents), 4)
        XCTAssertNil(memory.lastRecord(of: "Bad", in: documents))
    }

    func testRememberSaveAndLoadAgain() throws {
        var memory = SessionMemory(url: stateURL)
        memory.remember(document: "A", record: 3, in: documents)
        memory.remember(document: "B", record: nil, in: documents)
        memory.remember(document: "X", record: 1, in: folder.appendingPathComponent("elsewhere"))
        try memory.save()
        let loaded = SessionMemory(url: stateURL)
        XCTAssertEqual(loaded, memory)
        XCTAssertEqual(loaded.lastDocument(in: documents), "B")
        XCTAssertEqual(loaded.lastRecord(of: "A", in: documents), 3)
        XCTAssertNil(loaded.lastRecord(of: "B", in: documents))
        XCTAssertEqual(loaded.lastDocument(in: folder.appendingPathComponent("elsewhere")), "X")
        XCTAssertEqual(try permissions(of: stateURL.deletingLastPathComponent()) & 0o777, 0o700)
    }

    func testRememberingNilForgetsTheRecord() {
        var memory = SessionMemory(url: stateURL)
        memory.remember(document: "A", record: 3, in: documents)
        memory.remember(document: "A", record: nil, in: documents)
        XCTAssertNil(memory.lastRecord(of: "A", in: documents))
        XCTAssertEqual(memory.lastDocument(in: documents), "A")
    }

    func testForgetDropsTheRecordAndClearsLast() {
        var memory = SessionMemory(url: stateURL)
        memory.remember(document: "A", record: 1, in: documents)
        memory.remember(document: "B", record: 2, in: documents)
        memory.forget(document: "A", in: documents)
        XCTAssertNil(memory.lastRecord(of: "A", in: documents))
        XCTAssertEqual(memory.lastDocument(in: documents), "B", "another document stays last")
        memory.forget(document: "B", in: documents)
        XCTAssertNil(memory.lastDocument(in: documents))
        XCTAssertEqual(memory, SessionMemory(url: stateURL), "nothing left for the folder")
    }

    func testRenamedMovesRecordAndLast() {
        var memory = SessionMemory(url: stateURL)
        memory.remember(document: "New", record: 9, in: documents)
        memory.remember(document: "Old", record: 2, in: documents)
        memory.renamed("Old", to: "New", in: documents)
        XCTAssertEqual(memory.lastDocument(in: documents), "New")
        XCTAssertEqual(memory.lastRecord(of: "New", in: documents), 2, "the renamed document's record wins")
        XCTAssertNil(memory.lastRecord(of: "Old", in: documents))
        memory.renamed("Unknown", to: "New", in: documents)
        XCTAssertNil(memory.lastRecord(of: "New", in: documents), "a stale record is not inherited")
    }

    func testFoldersAreKeyedByTheirResolvedPath() throws {
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: documents.path)
        var memory = SessionMemory(url: stateURL)
        memory.remember(document: "A", record: 1, in: link)
        XCTAssertEqual(memory.lastDocument(in: documents), "A")
        XCTAssertEqual(memory.lastDocument(in: URL(fileURLWithPath: documents.path + "/./")), "A")
        XCTAssertEqual(memory.lastDocument(in: folder.appendingPathComponent("docs/../docs")), "A")
    }

    func testSaveIntoAnUnwritablePlaceIsADocumentError() throws {
        let blocker = folder.appendingPathComponent("file")
        try Data().write(to: blocker)
        var memory = SessionMemory(url: blocker.appendingPathComponent("survey/state.plist"))
        memory.remember(document: "A", record: nil, in: documents)
        XCTAssertThrowsError(try memory.save()) { error in
            XCTAssertTrue((error as? DocumentError)?.message.hasPrefix("Could not save ") == true, "\(error)")
        }
    }
}

private extension SessionMemory {
    /// The same (empty) memory as if read from `url`, for comparing contents.
    func withURL(_ url: URL) -> SessionMemory {
        var copy = SessionMemory(url: url)
        copy.folders = folders
        return copy
    }
}

/// Issue 30: the question a keyer left (in its member) and the form's language are
/// remembered per document, follow a rename, go with a delete, and a path the file garbles
/// is no path.
final class SessionQuestionMemoryTests: TemporaryFolderTestCase {
    private var stateURL: URL { folder.appendingPathComponent("state/survey/state.plist") }
    private var documents: URL { folder.appendingPathComponent("docs", isDirectory: true) }

    func testTheQuestionAndLanguageAreKeptAndFollowTheDocument() throws {
        try SessionMemory.update(at: stateURL) {
            $0.remember(document: "Plots", place: .init(record: 2, recordID: "uuid:p3", question: "tree[2]/stem[1]/cbh",
                                                         language: "English (en)"), in: documents)
        }
        var memory = SessionMemory(url: stateURL)
        XCTAssertEqual(memory.place(of: "Plots", in: documents).question, "tree[2]/stem[1]/cbh")
        XCTAssertEqual(memory.place(of: "Plots", in: documents).language, "English (en)")
        memory.renamed("Plots", to: "Plots 2026", in: documents)
        XCTAssertEqual(memory.place(of: "Plots 2026", in: documents).question, "tree[2]/stem[1]/cbh")
        XCTAssertNil(memory.place(of: "Plots", in: documents).question)
        memory.forget(document: "Plots 2026", in: documents)
        XCTAssertNil(memory.place(of: "Plots 2026", in: documents).language)
    }

    func testPathsReadBackAsWrittenAndNothingElse() {
        let path = AnswerPath([AnswerPath.Step(name: "tree", index: 1), AnswerPath.Step(name: "stem", index: 0)], "cbh")
        XCTAssertEqual(AnswerPath(parsing: path.description), path)
        XCTAssertEqual(AnswerPath(parsing: "age"), AnswerPath("age"))
        for bad in ["", "tree/cbh", "tree[0]/cbh", "tree[x]/cbh", "[1]/cbh", "tree[1]/", "tree[1]/cbh[2]",
                    String(repeating: "a[1]/", count: 70) + "b", String(repeating: "x", count: 5000)] {
            XCTAssertNil(AnswerPath(parsing: bad), bad)
        }
    }
}
