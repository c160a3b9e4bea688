import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The entity log's compaction never changes what `survey entities --rebuild` gives (a
/// rebuild of the log before it equals a rebuild after it), never drops a line it cannot read,
/// and two rebuilds in a row give the same list and the same log.
final class EntityLogCompactionTests: TemporaryFolderTestCase {
    private let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_780_000_000), timeZone: .utc)
    private let list = "households"

    private func document(_ name: String, form: String) throws {
        _ = try store.create(named: name)
        let file = store.folder.appendingPathComponent("\(name)-form.md")
        try Data(form.utf8).write(to: file)
        try store.attachForm(from: file.path, to: name, at: Date())
        try FileManager.default.removeItem(at: file)
    }

    private func folder() throws {
        try document("Register", form: EntityForms.registration)
        try document("Visit", form: EntityForms.visit)
        try document("Another", form: EntityForms.visit)
    }

    /// The household survey `id` of Register creates.
    private func household(of id: String, head: String = "x", phone: String = "x") throws -> String {
        let record = Record(["head": .string(head), "phone": .string(phone), Record.instanceIDKey: .string(id)])
        return try XCTUnwrap(FormInstance(try store.questionnaire(for: "Register"), record: record, clock: clock).entityActions().first?.id)
    }

    /// A survey stored as the app stores it (stamped, saved, applied): new, or `id` changed.
    private func store(_ values: [String: String], id: String, in name: String, listWriteLost: Bool = false) throws {
        let questionnaire = try store.questionnaire(for: name)
        var document = try store.load(name).get()
        let at = document.records.firstIndex { $0.instanceID == id }
        let before = at.map { document.records[$0] }
        var record = before ?? Record([Record.instanceIDKey: .string(id)])
        for (key, value) in values { record[key] = .string(value) }
        if let at { document.records[at] = record } else { document.records.append(record) }
        let place = at ?? document.records.count - 1
        _ = store.stampEntityBases(&document.records, changed: [(place, before)], questionnaire: questionnaire, clock: clock)
        _ = try store.save(document, as: name)
        guard !listWriteLost else { return }
        try store.recordEntities(changing: [(before, document.records[place])], questionnaire: questionnaire, clock: clock)
    }

    /// A visit made on another laptop from the list as it is now (stamped so), to arrive later.
    private func visitElsewhere(_ household: String, phone: String, id: String) throws -> Record {
        let questionnaire = try store.questionnaire(for: "Another")
        var records = [Record(["hh": .string(household), "phone": .string(phone), "village": .string(""), Record.instanceIDKey: .string(id)])]
        _ = store.stampEntityBases(&records, changed: [(0, nil)], questionnaire: questionnaire, clock: clock)
        return records[0]
    }

    private func arrives(_ record: Record) throws {
        let questionnaire = try store.questionnaire(for: "Another")
        var document = try store.load("Another").get()
        document.records.append(record)
        _ = try store.save(document, as: "Another")
        try store.recordEntities(changing: [(nil, record)], questionnaire: questionnaire, clock: clock)
    }

    private var files: [URL] { [store.entityListURL(list), store.entityCompanionURL(list), store.entityLogURL(list)] }

    private func snapshot() -> [URL: Data] {
        var kept: [URL: Data] = [:]
        for url in files { kept[url] = try? Data(contentsOf: url) }
        return kept
    }

    private func restore(_ kept: [URL: Data]) throws {
        for url in files {
            if let data = kept[url] { try data.write(to: url) } else { try? FileManager.default.removeItem(at: url) }
        }
    }

    /// The list a rebuild gives from the files as they are now, the files then put back.
    private func rebuilt() throws -> EntityList {
        let kept = snapshot()
        try store.rebuildEntityLists(clock: clock)
        let list = try store.entityList(self.list)
        try restore(kept)
        return list
    }

    /// The log compacted in place (as a write that passes its size step does, whatever its
    /// ratio of lines to ids); how many lines it had and has.
    @discardableResult
    private func compactLog() throws -> (before: Int, after: Int) {
        let (events, unreadable) = try store.entityLog(of: list)
        XCTAssertEqual(unreadable, 0)
        let compacted = EntityLogEvent.compacted(events, edited: Set(try store.entityList(list).editsTaken.map(\.entityID)))
        try store.replaceEntityLog(compacted, of: list)
        return (events.count, compacted.count)
    }

    /// Lines the compaction removed, over every call.
    private var removed = 0

    private func assertCompactionKeepsTheRebuild(_ message: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try rebuilt()
        let (was, now) = try compactLog()
        removed += was - now
        let after = try rebuilt()
        XCTAssertEqual(after, before, message, file: file, line: line)
        XCTAssertEqual(after.entities, before.entities, message, file: file, line: line)
        XCTAssertEqual(after.conflicts, before.conflicts, message, file: file, line: line)
    }

    // MARK: 1: a compacted log rebuilds the same list

    /// Survey A registers H, a supervisor's edit sets H's phone, A is saved again with only its
    /// head changed: the compacted log rebuilds H as the log did (the old compaction put A's
    /// create after the edit, which then found no H: the version came out one less).
    func testAnEditBetweenARegistrationAndItsCorrectionSurvivesCompaction() throws {
        try folder()
        try store(["head": "Ana", "phone": "1"], id: "uuid:a", in: "Register")
        let hh = try household(of: "uuid:a")
        try store.takeOwnEntityEdit(EntityEdit(list: list, entityID: hh, properties: ["phone": "9"], change: 5))
        try store(["head": "Anna"], id: "uuid:a", in: "Register")
        let made = try store.entityList(list)
        XCTAssertEqual(made.entity(hh)?.properties["phone"], "9")
        XCTAssertEqual(made.entity(hh)?.version, 3)
        XCTAssertEqual(try rebuilt(), made)
        try assertCompactionKeepsTheRebuild()
        XCTAssertEqual(try rebuilt().entity(hh)?.version, 3)
    }

    /// The same with the phone corrected after the edit set it: the correction meets the
    /// edit (a conflict), in the compacted log too.
    func testAnEditOfWhatARegistrationCorrectsLaterSurvivesCompaction() throws {
        try folder()
        try store(["head": "Ana", "phone": "1"], id: "uuid:a", in: "Register")
        let hh = try household(of: "uuid:a")
        try store.takeOwnEntityEdit(EntityEdit(list: list, entityID: hh, properties: ["phone": "9"], change: 5))
        try store(["phone": "2"], id: "uuid:a", in: "Register")
        try store(["head": "Anna"], id: "uuid:a", in: "Register")
        let made = try store.entityList(list)
        XCTAssertEqual(made.conflicts.map { [$0.mine, $0.theirs] }, [["9", "2"]])
        XCTAssertEqual(try rebuilt(), made)
        try assertCompactionKeepsTheRebuild()
        XCTAssertEqual(try rebuilt().conflicts, made.conflicts)
    }

    /// A conflict resolved by hand between a visit and its correction: the resolution and
    /// what came after it rebuild the same from the compacted log.
    func testAResolutionBetweenAVisitAndItsCorrectionSurvivesCompaction() throws {
        try folder()
        try store(["head": "Ana", "phone": "1"], id: "uuid:r", in: "Register")
        let hh = try household(of: "uuid:r")
        let elsewhere = try visitElsewhere(hh, phone: "3", id: "uuid:e")
        try store(["hh": hh, "phone": "2", "village": ""], id: "uuid:v", in: "Visit")
        try arrives(elsewhere)
        XCTAssertEqual(try store.resolveEntityConflict(list: list, id: hh, property: "phone", by: .value("7")), 1)
        try store(["phone": "4"], id: "uuid:e", in: "Another")
        try store(["village": "Lima"], id: "uuid:e", in: "Another")
        try assertCompactionKeepsTheRebuild()
    }

    /// A registration saved again and again, nothing else touching its household: its lines
    /// fold into one, at the version the saves left.
    func testARegistrationsSavesFoldIntoOneLine() throws {
        try folder()
        try store(["head": "Ana", "phone": "1"], id: "uuid:a", in: "Register")
        for phone in 2...9 { try store(["phone": "\(phone)"], id: "uuid:a", in: "Register") }
        let made = try store.entityList(list)
        XCTAssertEqual(made.entities.first?.version, 9)
        let before = try rebuilt()
        XCTAssertEqual(before, made)
        let (was, now) = try compactLog()
        XCTAssertEqual([was, now], [9, 1])
        XCTAssertEqual(try rebuilt(), made)
    }

    /// A registration and its save folded, then a supervisor's edit of it whose log line is
    /// lost: the compacted log rebuilds what the log before it does (the edit over the saves,
    /// one version more; it was replayed before the log, taken at the create, then the folded
    /// version set the count back and the save's conflict with it was gone).
    func testAnEditWhoseLineIsLostRebuildsTheSameOverAFoldedRegistration() throws {
        try folder()
        try store(["head": "Ana", "phone": "1"], id: "uuid:a", in: "Register")
        try store(["phone": "2"], id: "uuid:a", in: "Register")
        let hh = try household(of: "uuid:a")
        let (events, _) = try store.entityLog(of: list)
        let compacted = EntityLogEvent.compacted(events, edited: [])
        XCTAssertEqual(compacted.count, 1)
        guard case .created(_, _, 2) = compacted.first else { return XCTFail("not folded: \(compacted)") }
        try store.takeEntityEdits([EntityEdit(list: list, entityID: hh, properties: ["phone": "9"], change: 5)], list: list)
        try store.replaceEntityLog(events, of: list)        // the edit's line lost
        let before = try rebuilt()
        try store.replaceEntityLog(compacted, of: list)
        let after = try rebuilt()
        XCTAssertEqual(after, before)
        XCTAssertEqual(after.conflicts, before.conflicts)
        XCTAssertEqual(after.entity(hh)?.properties["phone"], "9")
        XCTAssertEqual(after.entity(hh)?.version, 3)
    }

    /// A registration's save whose list write never came, then another: the later save's
    /// base is the lost version, not what the list holds (a conflict at replay); it is not
    /// folded into the create.
    func testASaveMadeOnTopOfALostVersionIsNotFolded() throws {
        try folder()
        try store(["head": "Ana", "phone": "1"], id: "uuid:a", in: "Register")
        try store(["phone": "2"], id: "uuid:a", in: "Register", listWriteLost: true)
        try store(["phone": "3"], id: "uuid:a", in: "Register")
        XCTAssertEqual(try store.entityList(list).conflicts.map { [$0.mine, $0.theirs] }, [["1", "3"]])
        try assertCompactionKeepsTheRebuild()
    }

    /// Seeded random interleavings of registrations, their corrections, visits (here and
    /// from elsewhere, with their conflicts), their corrections, a supervisor's edits (own and
    /// pulled, retirements among them) and resolutions by hand: a rebuild of the compacted log
    /// is the rebuild of the log as written.
    func testCompactionNeverChangesWhatARebuildGives() throws {
        for seed in 1...20 {
            try FileManager.default.contentsOfDirectory(at: store.folder, includingPropertiesForKeys: nil).forEach {
                try FileManager.default.removeItem(at: $0)
            }
            try folder()
            var random = SeededRandom(seed: UInt64(seed))
            var registrations: [String] = []
            var households: [String] = []
            var visits: [(id: String, document: String)] = []
            var pending: [Record] = []
            var change: Int64 = 10
            var made = 0
            func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))] }
            func value() -> String { String(random.next() % 4) }
            for _ in 0..<60 {
                made += 1
                let op = random.next() % 13
                switch op > 8 ? 1 : op {       // a registration corrected most often
                case 0:
                    let id = "uuid:r\(made)"
                    try store(["head": "H\(value())", "phone": value()], id: id, in: "Register")
                    registrations.append(id)
                    households.append(try household(of: id))
                case 1:
                    guard let id = pick(registrations) else { continue }
                    try store(random.next() % 2 == 0 ? ["phone": value()] : ["head": "H\(value())"], id: id, in: "Register")
                case 2:
                    guard let hh = pick(households) else { continue }
                    let id = "uuid:v\(made)"
                    try store(["hh": hh, "phone": value(), "village": value()], id: id, in: "Visit")
                    visits.append((id, "Visit"))
                case 3:
                    guard let hh = pick(households) else { continue }
                    pending.append(try visitElsewhere(hh, phone: value(), id: "uuid:e\(made)"))
                case 4:
                    guard !pending.isEmpty else { continue }
                    let record = pending.removeFirst()
                    try arrives(record)
                    visits.append((try XCTUnwrap(record.instanceID), "Another"))
                case 5:
                    guard let (id, document) = pick(visits) else { continue }
                    try store(random.next() % 2 == 0 ? ["phone": value()] : ["village": value()], id: id, in: document)
                case 6:
                    guard let hh = pick(households) else { continue }
                    change += 1
                    try store.takeOwnEntityEdit(EntityEdit(list: list, entityID: hh, properties: ["phone": "e\(value())"], change: change))
                case 7:
                    guard let hh = pick(households) else { continue }
                    change += 1
                    let retire = random.next() % 5 == 0
                    try store.takeEntityEdits([EntityEdit(list: list, entityID: hh, properties: retire ? [:] : ["village": "t\(value())"],
                                                          retired: retire, change: change)], list: list)
                default:
                    guard let conflict = pick(try store.entityList(list).conflicts) else { continue }
                    let choice: EntityList.Choice = [.mine, .theirs, .value("r\(value())")][Int(random.next() % 3)]
                    _ = try store.resolveEntityConflict(list: list, id: conflict.id, property: conflict.property, by: choice)
                }
            }
            try assertCompactionKeepsTheRebuild("seed \(seed)")
            // Two rebuilds in a row: the same list, the same log.
            try store.rebuildEntityLists(clock: clock)
            let first = try store.entityList(list)
            let firstLog = try Data(contentsOf: store.entityLogURL(list))
            try store.rebuildEntityLists(clock: clock)
            XCTAssertEqual(try store.entityList(list), first, "seed \(seed)")
            XCTAssertEqual(try Data(contentsOf: store.entityLogURL(list)), firstLog, "seed \(seed)")
        }
        XCTAssertGreaterThan(removed, 20, "the interleavings give the compaction something to fold")
    }

    // MARK: 2: lines compaction cannot read are never lost

    /// A line of a newer version (an event kind this one does not know), and an action whose
    /// base this one cannot read: the log is not compacted, every line stays as it was.
    func testALogWithLinesThisVersionCannotReadIsNotCompacted() throws {
        try folder()
        try store(["head": "Ana", "phone": "1"], id: "uuid:a", in: "Register")
        let url = store.entityLogURL(list)
        var text = try String(contentsOf: url, encoding: .utf8)
        text += "{\"merged\":\"uuid:z\",\"into\":\"uuid:a\"}\n"
        text += "{\"survey\":\"uuid:b\",\"entity\":\"e\",\"kind\":\"create\",\"set\":[],\"base\":{\"version\":\"two\"}}\n"
        let resolved = (0..<40).map { _ in EntityLogEvent.resolved(id: "e", property: "phone", value: "1").jsonLine + "\n" }.joined()
        text += resolved
        try Data(text.utf8).write(to: url)
        XCTAssertFalse(store.compactEntityLog(of: list, edited: []))
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), text)
    }

    /// An action line whose action part this version cannot read still names its survey: it
    /// is read as `{"survey": ID}` (the survey replayed as it is now, at that place), never
    /// dropped.
    func testAnActionLineThisVersionCannotReadStillNamesItsSurvey() {
        let line = "{\"survey\":\"uuid:b\",\"entity\":\"e\",\"kind\":\"delete\",\"set\":[]}"
        XCTAssertEqual(EntityLogEvent(jsonLine: Substring(line)), .survey("uuid:b"))
        let base = "{\"survey\":\"uuid:b\",\"entity\":\"e\",\"kind\":\"update\",\"set\":[],\"base\":{\"version\":\"two\"}}"
        XCTAssertEqual(EntityLogEvent(jsonLine: Substring(base)), .survey("uuid:b"))
    }

    // MARK: 3: a rebuild is stable

    /// A visit saved before its household's registration came, and one of a household that
    /// never comes: two rebuilds in a row give the same list and the same log.
    func testTwoRebuildsInARowGiveTheSameListAndLog() throws {
        try folder()
        let hh = try household(of: "uuid:r", head: "Ana", phone: "1")
        try store(["hh": hh, "phone": "2", "village": "Lima"], id: "uuid:v", in: "Visit")
        try store(["hh": "nobody", "phone": "5", "village": ""], id: "uuid:n", in: "Visit")
        try store(["head": "Ana", "phone": "1"], id: "uuid:r", in: "Register")
        try store.takeOwnEntityEdit(EntityEdit(list: list, entityID: hh, properties: ["phone": "8"], change: 4))
        try store(["village": "Quito"], id: "uuid:v", in: "Visit")
        try store.rebuildEntityLists(clock: clock)
        let first = try store.entityList(list)
        let firstLog = try String(contentsOf: store.entityLogURL(list), encoding: .utf8)
        try store.rebuildEntityLists(clock: clock)
        XCTAssertEqual(try store.entityList(list), first)
        XCTAssertEqual(try String(contentsOf: store.entityLogURL(list), encoding: .utf8), firstLog)
    }
}

/// SplitMix64: the same interleavings at every run.
private struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
