import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The entity lists beside the documents: a stored registration writes `households.csv`, a
/// follow-up form of another document reads it (ahead of an old copy in its media folder),
/// every system call of the write failing in turn leaves the old list, and a file that is no
/// entity list, or a name that is a path, is never written.
final class EntityListStorageTests: TemporaryFolderTestCase {
    static let registration = """
        | survey |
        | | type | name | label | save_to |
        | | text | head | Head of household | |
        | | text | phone | Phone | phone |
        | entities |
        | | list_name | label |
        | | households | concat('Household of ', ${head}) |
        """

    static let followUp = """
        | survey |
        | | type | name | label | calculation |
        | | select_one_from_file households.csv | hh | Household | |
        | | calculate | old_phone | | instance('households')/root/item[name=${hh}]/phone |
        """

    private let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_780_000_000), timeZone: .utc)

    /// Two documents, Register and Visits, with their forms.
    private func twoDocuments() throws {
        for (name, form) in [("Register", Self.registration), ("Visits", Self.followUp)] {
            _ = try store.create(named: name)
            let file = folder.appendingPathComponent("forms-\(name).md")
            try Data(form.utf8).write(to: file)
            try store.attachForm(from: file.path, to: name, at: Date())
            try FileManager.default.removeItem(at: file)
        }
    }

    private func survey(_ head: String, phone: String, id: String) -> Record {
        Record(["head": .string(head), "phone": .string(phone), Record.instanceIDKey: .string("uuid:\(id)")])
    }

    private var listURL: URL { folder.appendingPathComponent("households.csv") }

    func testARegistrationIsOfferedByTheFollowUpFormOfAnotherDocument() throws {
        try twoDocuments()
        // An old copy of the list in the follow-up's media folder (a designer's sample).
        let media = store.mediaFolderURL(for: "Visits")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try Data("name,label\r\nold,An old sample\r\n".utf8).write(to: media.appendingPathComponent("households.csv"))

        let register = try store.questionnaire(for: "Register")
        let changes = try store.recordEntities(of: [survey("Ana Lima", phone: "555 0101", id: "a")], questionnaire: register, clock: clock)
        XCTAssertEqual(changes, [DocumentStore.EntityListChange(list: "households", created: 1)])
        let list = try store.entityList("households")
        let id = try XCTUnwrap(list.entities.first?.id)
        XCTAssertEqual(try String(contentsOf: listURL, encoding: .utf8), "name,label,__version,phone\r\n\(id),Household of Ana Lima,1,555 0101\r\n")
        XCTAssertEqual(store.entityListNames(), ["households"])

        // The follow-up form, however the document is opened, offers it and reads its phone.
        let visits = try store.questionnaire(for: "Visits")
        XCTAssertEqual(visits.form?.choices["households.csv"]?.map(\.name), [id], "the folder's list, not the media folder's sample")
        XCTAssertEqual(store.documentForm(for: "Visits").questionnaire.form?.choices["households.csv"]?.map(\.name), [id])
        let context = visits.context(["hh": .string(id)], current: "", clock: clock)
        XCTAssertEqual(visits.form?.questions[1].calculation?.evaluate(in: context).string, "555 0101")

        // Stored again unchanged: no new version, the file not rewritten; changed: version 2.
        let before = try FileManager.default.attributesOfItem(atPath: listURL.path)[.modificationDate] as? Date
        XCTAssertEqual(try store.recordEntities(of: [survey("Ana Lima", phone: "555 0101", id: "a")], questionnaire: register, clock: clock),
                       [DocumentStore.EntityListChange(list: "households")])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: listURL.path)[.modificationDate] as? Date, before)
        try store.recordEntities(of: [survey("Ana Lima", phone: "555 0199", id: "a")], questionnaire: register, clock: clock)
        XCTAssertEqual(try store.entityList("households").entity(id)?.version, 2)
        // An incomplete survey registers nothing.
        var incomplete = survey("Bo", phone: "1", id: "b")
        incomplete.setIncomplete(true)
        XCTAssertEqual(try store.recordEntities(of: [incomplete], questionnaire: register, clock: clock), [])
        XCTAssertEqual(try store.entityList("households").entities.count, 1)
    }

    /// A registration stored again for a change elsewhere writes only what that change
    /// changed: a phone a follow-up visit updated since is not put back.
    func testARegistrationSavedAgainNeverUndoesAVisitsUpdate() throws {
        try twoDocuments()
        let register = try store.questionnaire(for: "Register")
        let first = survey("Ana Lima", phone: "555 0101", id: "a")
        try store.recordEntities(of: [first], questionnaire: register, clock: clock)
        let id = try XCTUnwrap(try store.entityList("households").entities.first?.id)
        // The visit updates the phone (version 2).
        try store.applyEntityActions([EntityAction(kind: .update, list: "households", id: id, label: nil,
                                                   properties: [.init(name: "phone", value: "555 0199")], member: [])])
        // The registration's head corrected: its label changes, its phone (unchanged in it) does not go back.
        var fixed = first
        fixed["head"] = .string("Ana Lima Silva")
        try store.recordEntities(changing: [(first, fixed)], questionnaire: register, clock: clock)
        let entity = try XCTUnwrap(try store.entityList("households").entity(id))
        XCTAssertEqual(entity.label, "Household of Ana Lima Silva")
        XCTAssertEqual(entity.properties["phone"], "555 0199", "the visit's update stands")
        XCTAssertEqual(entity.version, 3)
        // Saved again with nothing of the entity changed: no new version.
        var note = fixed
        note["unrelated"] = .string("x")
        try store.recordEntities(changing: [(fixed, note)], questionnaire: register, clock: clock)
        XCTAssertEqual(try store.entityList("households").entity(id)?.version, 3)
    }

    /// Visits that came in a pull change an entity in the order they came, not the order of
    /// the document: the last to arrive is the list's.
    func testVisitsThatCameChangeTheListInTheOrderTheyCame() throws {
        _ = try store.create(named: "Visits")
        let file = folder.appendingPathComponent("visit.md")
        try Data("""
            | survey |
            | | type | name | label | save_to |
            | | text | hh | Household | |
            | | text | phone | Phone | phone |
            | entities |
            | | list_name | entity_id |
            | | households | ${hh} |
            """.utf8).write(to: file)
        try store.attachForm(from: file.path, to: "Visits", at: Date())
        try store.applyEntityActions([EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                                   properties: [.init(name: "phone", value: "000")], member: [])])
        let visit = try store.questionnaire(for: "Visits")
        let first = Record(["hh": .string("h1"), "phone": .string("111"), Record.instanceIDKey: .string("uuid:v1")])
        let second = Record(["hh": .string("h1"), "phone": .string("222"), Record.instanceIDKey: .string("uuid:v2")])
        // In the document v1 comes first; in the pull v2 came first, then v1.
        try store.recordEntities(takenBy: [SyncEvent(.added, "uuid:v2"), SyncEvent(.added, "uuid:v1")], before: [],
                                 now: [first, second], questionnaire: visit, clock: clock)
        XCTAssertEqual(try store.entityList("households").entity("h1")?.properties["phone"], "111")
    }

    /// A list file a form names (`pulldata('../../x')`, `../secrets.csv`) is never a path:
    /// refused with the reason, the file outside the folder never read.
    func testAListFileNameFromAFormIsNeverAPath() throws {
        let media = folder.appendingPathComponent("m")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try Data("name,label\r\nx,X\r\n".utf8).write(to: folder.appendingPathComponent("secrets.csv"))
        guard case .failure(let error)? = XLSForm.readListFile(named: "../secrets.csv", in: media) else {
            return XCTFail("a path is read")
        }
        XCTAssertTrue(error.message.contains("is a path, not a file name"), error.message)
        XCTAssertNil(XLSForm.readListFile(named: "absent.csv", in: media))
    }

    /// A plain CSV beside the documents (no `__version`) is not an entity list: a form reads
    /// its own media copy, and a registration into that name refuses, the file kept.
    func testAFileThatIsNoEntityListIsNeitherReadAsOneNorWritten() throws {
        try twoDocuments()
        let plain = "name,label\r\nv1,Vila\r\n"
        try Data(plain.utf8).write(to: listURL)
        let media = store.mediaFolderURL(for: "Visits")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try Data("name,label\r\nm1,From media\r\n".utf8).write(to: media.appendingPathComponent("households.csv"))
        XCTAssertEqual(try store.questionnaire(for: "Visits").form?.choices["households.csv"]?.map(\.name), ["m1"])
        XCTAssertEqual(store.entityListNames(), [])

        let register = try store.questionnaire(for: "Register")
        XCTAssertThrowsError(try store.recordEntities(of: [survey("Ana", phone: "1", id: "a")], questionnaire: register, clock: clock)) { error in
            XCTAssertEqual((error as? DocumentError)?.message,
                           "households.csv beside the documents is not an entity list (its first line has no name and __version columns): it was left as it is, and no entity list was changed")
        }
        XCTAssertEqual(try String(contentsOf: listURL, encoding: .utf8), plain)

        // Not UTF-8, or a link: refused the same way, nothing written through it.
        try Data([0x6E, 0x61, 0x6D, 0x65, 0x2C, 0x5F, 0x5F, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6F, 0x6E, 0x0A, 0xE9, 0x0A]).write(to: listURL)
        XCTAssertThrowsError(try store.recordEntities(of: [survey("Ana", phone: "1", id: "a")], questionnaire: register, clock: clock))
        try FileManager.default.removeItem(at: listURL)
        let elsewhere = folder.appendingPathComponent("elsewhere.txt")
        try Data("name,label,__version\r\n".utf8).write(to: elsewhere)
        try FileManager.default.createSymbolicLink(at: listURL, withDestinationURL: elsewhere)
        XCTAssertThrowsError(try store.recordEntities(of: [survey("Ana", phone: "1", id: "a")], questionnaire: register, clock: clock))
        XCTAssertEqual(try String(contentsOf: elsewhere, encoding: .utf8), "name,label,__version\r\n")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: listURL.path), elsewhere.path)
    }

    /// An update form reading the list it updates, before anyone registered: an empty list,
    /// no warning to attach a file; a read-only follow-up form still says the file is missing.
    func testAnUpdateFormBeforeAnyRegistrationHasAnEmptyList() throws {
        _ = try store.create(named: "Update")
        let file = folder.appendingPathComponent("update.md")
        try Data("""
            | survey |
            | | type | name | label | save_to |
            | | select_one_from_file households.csv | hh | Household | |
            | | text | phone | Phone | phone |
            | entities |
            | | list_name | entity_id |
            | | households | ${hh} |
            """.utf8).write(to: file)
        XCTAssertEqual(try store.attachForm(from: file.path, to: "Update", at: Date()).map(\.message), [])
        XCTAssertEqual(try store.questionnaire(for: "Update").form?.choices["households.csv"], [])
        _ = try store.create(named: "Visits")
        try Data(Self.followUp.utf8).write(to: file)
        XCTAssertEqual(try store.attachForm(from: file.path, to: "Visits", at: Date()).map(\.message),
                       ["the list file households.csv is not beside the form: attach it with survey form attach FORM households.csv"])
    }

    /// A list's name comes from a form: a path, `..` or a hidden name never reaches the folder.
    func testAListNameIsNeverAPath() throws {
        for bad in ["../outside", "a/b", "..", ".hidden", "x.y", ""] {
            XCTAssertNotNil(DocumentStore.entityListNameProblem(bad), bad)
            let action = EntityAction(kind: .create, list: bad, id: "e1", label: "L", properties: [], member: [])
            XCTAssertThrowsError(try store.applyEntityActions([action]), bad)
        }
        XCTAssertNil(DocumentStore.entityListNameProblem("households"))
        XCTAssertEqual(try folderContents(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("outside.csv").path))
    }

    /// Every system call of an update failing in turn (EIO, then ENOSPC): the update either
    /// throws, the list exactly as it was and no temporary file left, or is written whole.
    func testAFailingWriteLeavesTheOldList() throws {
        try twoDocuments()
        let register = try store.questionnaire(for: "Register")
        try store.recordEntities(of: [survey("Ana Lima", phone: "555 0101", id: "a")], questionnaire: register, clock: clock)
        let old = try Data(contentsOf: listURL)
        let adding = [survey("Bo Okafor", phone: "555 0202", id: "b")]

        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
            var failAt: Int?
            var code: Int32 = EIO
        }
        let counter = Counter()
        let failing = DocumentStore(folder: folder, fileSystem: .failing { _, _ in
            counter.lock.lock(); defer { counter.lock.unlock() }
            counter.count += 1
            return counter.count == counter.failAt ? counter.code : nil
        })
        // Counted once, on a copy of the folder's state, then put back.
        try failing.recordEntities(of: adding, questionnaire: register, clock: clock)
        let calls = counter.count
        XCTAssertGreaterThan(calls, 5)
        let new = try Data(contentsOf: listURL)
        var failures = 0
        for code in [EIO, ENOSPC] {
            for call in 1...calls {
                try old.write(to: listURL)
                counter.lock.lock(); counter.count = 0; counter.failAt = call; counter.code = code; counter.lock.unlock()
                do {
                    try failing.recordEntities(of: adding, questionnaire: register, clock: clock)
                    XCTAssertEqual(try Data(contentsOf: listURL), new, "call \(call) failed unseen: the list is whole")
                } catch {
                    failures += 1
                    XCTAssertEqual(try Data(contentsOf: listURL), old, "call \(call) (\(code)): \(error)")
                    XCTAssertTrue((error as? DocumentError)?.message.contains("households.csv") ?? false, "\(error)")
                }
                XCTAssertEqual(try folderContents().filter { $0.contains(".tmp-") }, [], "call \(call)")
            }
        }
        XCTAssertGreaterThan(failures, calls, "most calls, failing, stop the write")
    }
}
