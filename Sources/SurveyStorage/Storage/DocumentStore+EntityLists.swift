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

/// The entity lists on the laptop: `LIST.csv` beside the documents (ODK Central's layout:
/// `name`, `label`, `__version`, the properties; `EntityList`), one per list any form in the
/// folder registers into. A survey that registers or updates an entity writes it when it is
/// stored (the app's Add, Finish and edits, `survey add`, `survey import`), so a follow-up
/// form of any document in the folder offers the new household at once: a list file a form
/// reads (`select_one_from_file households.csv`, `instance('households')`) is the folder's
/// entity list when there is one, ahead of the copy in the document's media folder
/// (DECISIONS.md).
///
/// A file counts as an entity list when its header has `name` and `__version` (every list
/// survey writes, and the list ODK Central hands a form as its attachment): a plain
/// `villages.csv` the user keeps beside the documents is neither read as one nor written.
extension DocumentStore {
    /// Why `list` (a name from a form) cannot be an entity list's file name, or nil. pyxform
    /// refuses a period and a leading `__` already; a path, a leading dot or a control
    /// character never reach the folder whatever form says so.
    public static func entityListNameProblem(_ list: String) -> String? {
        if let why = MediaFolder.problem(withName: list + ".csv") { return why }
        if list.contains(".") { return "“\(list)” has a period: an entity list's name is its file name without .csv" }
        return nil
    }

    /// folder/LIST.csv
    public func entityListURL(_ list: String) -> URL {
        folder.appendingPathComponent(list + ".csv")
    }

    /// folder/.LIST.entities.json: what the list keeps beside its CSV (its conflicts, the
    /// entities retired, how far the team's edits were taken), never in the CSV's columns,
    /// which are ODK's (`EntityList+Team`).
    public func entityCompanionURL(_ list: String) -> URL {
        folder.appendingPathComponent("." + list + ".entities.json")
    }

    /// The entity lists in the folder, by name, sorted.
    public func entityListNames() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return entries.filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }
            .filter { Self.entityListNameProblem($0) == nil && startsAsEntityList($0) }
            .sorted()
    }

    /// Whether `LIST.csv` is a regular file whose first line is an entity list's header, read
    /// from its first 64 KiB only: every sync asks of each list (a list of 100,000 households
    /// is megabytes).
    func startsAsEntityList(_ list: String) -> Bool {
        let url = entityListURL(list)
        var status = stat()
        guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        var text = String(decoding: bytes.prefix(count), as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return Self.isEntityListHeader(text)
    }

    /// How far the team's edits of `list` were taken (`EntityList.editCursor`), from what is
    /// kept beside the list alone; 0 when nothing is. The companion is parsed only when it is
    /// not the file the folder's mark names (`entityMarks`): a sync with nothing to do asks
    /// this of every list.
    public func entityEditCursor(_ list: String) throws -> Int64 {
        guard Self.entityListNameProblem(list) == nil else { return 0 }
        let path = RawPath(entityCompanionURL(list).path)
        guard let before = fingerprint(atPath: path) else { return 0 }
        if let (marked, cursor) = entityMarks()[list], marked == before { return cursor }
        var kept = EntityList()
        try readCompanion(of: list, into: &kept)
        // Marked only when the file read is the file stat named (none replaced it meanwhile).
        if fingerprint(atPath: path) == before { markEntityCursor(kept.editCursor, of: list, companion: before) }
        return kept.editCursor
    }

    /// The list `list` as the folder holds it; an empty list when it has none yet. Throws
    /// when a file of that name is there but is no entity list or cannot be read.
    public func entityList(_ list: String) throws -> EntityList {
        if let why = Self.entityListNameProblem(list) { throw DocumentError("No entity list is named so: \(why)") }
        return try readEntityList(list) ?? EntityList()
    }

    /// nil: no file of that name. A companion written with another CSV than the one beside
    /// it (`companionCSVDigest`) sets `companionOutOfStep`.
    func readEntityList(_ list: String) throws -> EntityList? {
        let url = entityListURL(list)
        guard isOccupied(url) else {
            // Retired before anything registered here: what is kept beside it still counts.
            guard isOccupied(entityCompanionURL(list)) else { return nil }
            var empty = EntityList()
            try readCompanion(of: list, into: &empty)
            // Written with a CSV that never came (cut off before it was in place).
            empty.companionOutOfStep = empty.companionCSVDigest != nil
            empty.companionCSVDigest = nil
            return empty
        }
        let file = url.lastPathComponent
        let copy: CopiedFile
        do {
            copy = try CopiedFile.read(url.path, in: fileSystem, maximumBytes: FormMedia.maximumListBytes)
        } catch let error as DocumentError {
            throw DocumentError("\(file) cannot be read (\(error.message))")
        }
        guard var text = String(validating: [UInt8](copy.data), as: UTF8.self) else {
            throw DocumentError("\(file) is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        guard Self.isEntityListHeader(text) else {
            throw DocumentError("\(file) beside the documents is not an entity list (its first line has no name and __version columns)")
        }
        var parsed: EntityList
        do {
            parsed = try EntityList(csv: text)
        } catch {
            throw DocumentError("\(file) cannot be read as CSV (\((error as? DocumentError)?.message ?? "\(error)"))")
        }
        try readCompanion(of: list, into: &parsed)
        // Only a companion is checked against the CSV (most lists have none: no digest then,
        // `writeEntityList` works it out the rare time a companion starts beside an old CSV).
        if let written = parsed.companionCSVDigest {
            let digest = MessageDigest.sha256Hex(copy.data)
            if written != digest { parsed.companionOutOfStep = true }
            parsed.companionCSVDigest = digest
        }
        return parsed
    }

    /// `readEntityList`, with the fingerprints of the two files as they were before the read
    /// (a file replaced during it is then found changed, never taken for the one read).
    func readEntityListMarked(_ list: String) throws -> EntityListHold.Held? {
        let csv = fingerprint(atPath: RawPath(entityListURL(list).path))
        let companion = fingerprint(atPath: RawPath(entityCompanionURL(list).path))
        return try readEntityList(list).map { EntityListHold.Held(list: $0, csv: csv, companion: companion) }
    }

    /// The list held from a read earlier in this save when its two files are still those
    /// read, else the list read now.
    /// A list with a companion is also checked against the CSV digest the companion names
    /// (the CSV read, not parsed): a same-size edit in place within the file system's
    /// timestamp grain leaves the fingerprint as it was.
    func heldOrReadEntityList(_ list: String) throws -> EntityList? {
        if let held = entityListHold.take(list), held.csv == fingerprint(atPath: RawPath(entityListURL(list).path)),
           held.companion == fingerprint(atPath: RawPath(entityCompanionURL(list).path)),
           held.list.companionCSVDigest == nil || held.list.companionCSVDigest == csvDigest(of: list) {
            return held.list
        }
        return try readEntityList(list)
    }

    /// The SHA-256 of `list`'s CSV as it is; nil when it cannot be read.
    private func csvDigest(of list: String) -> String? {
        (try? CopiedFile.read(entityListURL(list).path, in: fileSystem, maximumBytes: FormMedia.maximumListBytes))
            .map { MessageDigest.sha256Hex($0.data) }
    }

    /// The conflicts, retirements and edit cursor kept beside `list`'s CSV, when there are.
    private func readCompanion(of name: String, into list: inout EntityList) throws {
        let url = entityCompanionURL(name)
        guard isOccupied(url) else { return }
        do {
            let copy = try CopiedFile.read(url.path, in: fileSystem, maximumBytes: FormMedia.maximumListBytes)
            try list.readCompanion([UInt8](copy.data))
        } catch let error as DocumentError {
            throw DocumentError("\(url.lastPathComponent) cannot be read (\(error.message))")
        }
    }

    /// Whether the first line of `text` is an entity list's header.
    static func isEntityListHeader(_ text: String) -> Bool {
        let line = text.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" }
        guard let header = try? CSV.rows(String(line)).first else { return false }
        let names = header.map { $0.trimmingWhitespace() }
        return names.contains("name") && names.contains("__version")
    }

    /// What storing some surveys did to one entity list.
    public struct EntityListChange: Equatable, Sendable {
        public var list: String
        public var created = 0
        public var updated = 0
        /// Entities updated that the list does not have (an update made before their
        /// registration reached this laptop): the list is left without them.
        public var missing: [String] = []
        /// Properties changed here and by an update that came, differently: kept as conflicts.
        public var conflicts = 0
        /// Changes of entities a supervisor retired: left out.
        public var retired = 0
        /// A supervisor's edits the list cannot take (`EntityEdit.problem`), each "ID: why".
        public var setAside: [String] = []
        /// A rebuild's: the rows no survey registers, kept as the list held them.
        public var keptAsHeld = 0
        /// A rebuild's: lines of the list's log that could not be read (passed over).
        public var unreadableLogLines = 0

        /// Whether anything is worth a line.
        public var isWorthSaying: Bool { created + updated + conflicts > 0 || !missing.isEmpty }

        /// "households.csv: 1 created, 2 updated".
        public var summary: String {
            var parts: [String] = []
            if created > 0 { parts.append("\(created) created") }
            if updated > 0 { parts.append("\(updated) updated") }
            if !missing.isEmpty { parts.append("\(counted(missing.count, "update")) of an entity it does not have") }
            if !setAside.isEmpty { parts.append("\(counted(setAside.count, "supervisor's edit")) set aside (\(setAside.joined(separator: "; ")))") }
            if conflicts > 0 { parts.append("\(counted(conflicts, "conflict")) (survey entities --list \(list))") }
            return "\(list).csv: " + (parts.isEmpty ? "unchanged" : parts.joined(separator: ", "))
        }
    }

    /// The creates and updates `records` make (each under `questionnaire`, incomplete ones
    /// none), applied to the folder's lists. Records need their `instanceID` (a create's id
    /// is derived from it); one without makes no create.
    @discardableResult
    public func recordEntities(of records: [Record], questionnaire: Questionnaire,
                               clock: Questionnaire.Clock) throws -> [EntityListChange] {
        try recordEntities(changing: records.map { (nil, $0) }, questionnaire: questionnaire, clock: clock)
    }

    /// `recordEntities(of:)` for surveys changed from `before` (nil: new): of an entity the
    /// list already holds, only what the change itself changed is written (its label, each
    /// property), so re-saving a registration for a typo elsewhere never puts back the values
    /// a follow-up visit updated since. An entity the list lacks is written whole.
    public func recordEntities(changing pairs: [(before: Record?, now: Record)], questionnaire: Questionnaire,
                               clock: Questionnaire.Clock) throws -> [EntityListChange] {
        try recordEntities(changing: pairs, questionnaire: questionnaire, clock: clock, changeNumbers: [:], edits: [])
    }

    /// `changeNumbers`: each survey's place in the team's order of changes (a pull's); the
    /// supervisor's `edits` are taken between them by that order.
    func recordEntities(changing pairs: [(before: Record?, now: Record)], questionnaire: Questionnaire,
                        clock: Questionnaire.Clock, changeNumbers: [String: Int64], edits: [EntityEdit]) throws -> [EntityListChange] {
        guard let form = questionnaire.form, !form.entities.isEmpty else { return [] }
        var actions: [SurveyEntityAction] = []
        for (before, now) in pairs where !now.isIncomplete && !now.isSealed {
            let number = now.instanceID.flatMap { changeNumbers[$0] }
            let earlier = before.flatMap { $0.isIncomplete ? nil : FormInstance(questionnaire, record: $0, clock: clock).entityActions() } ?? []
            for action in FormInstance(questionnaire, record: now, clock: clock).entityActions() {
                guard let old = earlier.first(where: { $0.list == action.list && $0.id == action.id }) else {
                    actions.append(SurveyEntityAction(whole: action, changed: action, survey: now.instanceID, change: number))
                    continue
                }
                // A survey changed again: what it changed is from its own last version, so its
                // base is that version's values (a change made elsewhere since is kept or, the
                // same property changed, a conflict).
                var changed = action
                if changed.label == old.label { changed.label = nil }
                changed.properties = action.properties.filter { property in
                    old.properties.first { $0.name == property.name }?.value != property.value
                }
                var properties: [String: String] = [:]
                for property in old.properties { properties[property.name] = property.value }
                changed.base = EntityBase(version: old.base?.version ?? 0, label: old.label ?? "", properties: properties)
                if old.label == nil { changed.label = nil }
                actions.append(SurveyEntityAction(whole: action, changed: changed.label == nil && changed.properties.isEmpty ? nil : changed,
                                                  survey: now.instanceID, change: number))
            }
        }
        return try applyEntityActions(actions, edits: edits)
    }

    /// Applies `actions` to the folder's lists, in order, each list read and written under the
    /// folder's lock (as every writer of the folder takes it), atomically (`AtomicFile`). Every
    /// list is read before any is written: a list that cannot be read (not an entity list, not
    /// UTF-8, a link) refuses them all, the files left as they were. A list nothing changed
    /// is not written.
    @discardableResult
    public func applyEntityActions(_ actions: [EntityAction]) throws -> [EntityListChange] {
        try applyEntityActions(actions.map { SurveyEntityAction(whole: $0, changed: $0, survey: nil) })
    }

    /// One survey's action on an entity: `changed` where the list holds its entity (nil:
    /// nothing to change there), `whole` where it does not; `survey` names it in a conflict.
    struct SurveyEntityAction {
        var whole: EntityAction
        var changed: EntityAction?
        var survey: String?
        /// Its survey's place in the team's order of changes, when it came from a pull.
        var change: Int64? = nil
    }

    /// `edits`: the supervisor's edits of those lists that came with the surveys, each taken
    /// before the first action numbered after it (`SurveyEntityAction.change`), the rest after
    /// them all: the team's order, the same on every laptop whatever it took at which sync.
    func applyEntityActions(_ actions: [SurveyEntityAction], edits: [EntityEdit] = []) throws -> [EntityListChange] {
        let edits = edits.filter { edit in actions.contains { $0.whole.list == edit.list } }.sorted { $0.change < $1.change }
        guard !actions.isEmpty else { return [] }
        var names: [String] = []
        for action in actions where !names.contains(action.whole.list) {
            if let why = Self.entityListNameProblem(action.whole.list) {
                throw DocumentError("The entity list “\(action.whole.list)” cannot be written: \(why)")
            }
            names.append(action.whole.list)
        }
        return try changingEntityLists(names) { lists, changes in
            var next = 0
            func takeEdits(before number: Int64?) {
                while next < edits.count, number.map({ edits[next].change < $0 }) ?? true {
                    let edit = edits[next]
                    next += 1
                    guard let i = names.firstIndex(of: edit.list) else { continue }
                    for (taken, change) in lists[edit.list]?.takeFromTeam([edit]) ?? [] { Self.count(change, of: taken.entityID, in: &changes[i]) }
                }
            }
            for one in actions {
                if let number = one.change { takeEdits(before: number) }
                guard let i = names.firstIndex(of: one.whole.list) else { continue }
                let held = lists[one.whole.list]?.holds(one.whole.id) ?? false
                guard let action = held ? one.changed : one.whole else { continue }
                let conflicts = lists[action.list]?.conflicts.count ?? 0
                switch lists[action.list]?.apply(action, survey: one.survey) {
                case .created?: changes[i].created += 1
                case .updated?: changes[i].updated += 1
                case .missing?: changes[i].missing.append(action.id)
                case .retired?: changes[i].retired += 1
                case .unchanged?, .refused?, nil: break
                }
                changes[i].conflicts += max(0, (lists[action.list]?.conflicts.count ?? 0) - conflicts)
            }
            takeEdits(before: nil)
        }
    }

    /// Reads `names` under the folder's lock (every list before any is written: one that
    /// cannot be read refuses them all, the files left as they were), lets `change` change
    /// them and count what it did, and writes each list it changed: the CSV, then what is
    /// kept beside it, each atomically (`AtomicFile`). A list nothing changed is not written.
    func changingEntityLists(_ names: [String], _ change: (inout [String: EntityList], inout [EntityListChange]) throws -> Void)
        throws -> [EntityListChange] {
        defer { entityListHold.drop() }
        return try withFolderLock {
            var lists: [String: EntityList] = [:]
            for name in names {
                do {
                    lists[name] = try heldOrReadEntityList(name) ?? EntityList()
                } catch let error as DocumentError {
                    throw DocumentError("\(error.message): it was left as it is, and no entity list was changed")
                }
                if lists[name]?.companionOutOfStep == true { throw Self.outOfStep(name) }
            }
            let read = lists
            var changes = names.map { EntityListChange(list: $0) }
            try change(&lists, &changes)
            for name in names {
                guard let list = lists[name], let old = read[name], list != old || !list.log.isEmpty else { continue }
                try writeEntityList(list, named: name, csvChanged: list.entities != old.entities || list.columns != old.columns,
                                    listChanged: list != old)
            }
            return changes
        }
    }

    /// Why a list cannot be changed whose companion was written with another CSV.
    static func outOfStep(_ name: String) -> DocumentError {
        DocumentError("\(name).csv and .\(name).entities.json beside it were not written together (a write was cut off, "
            + "or the CSV was replaced): the list was left as it is; survey entities --rebuild --list \(name) derives it again")
    }

    /// Writes what `list` noted to its log (`.NAME.entities.log`), then, when `listChanged`,
    /// `.NAME.entities.json` (when it keeps anything, or had a file before) and `NAME.csv`
    /// (when `csvChanged`), each atomically, the companion first and naming the CSV's
    /// digest: a write cut off between the two leaves a pair a reader finds out of step
    /// (`readEntityList`), never one it takes for whole. Under the folder's lock.
    /// A list nothing changed adds to its log only the events its end does not have for the
    /// same id (a visit of a household not here yet, saved again, adds nothing).
    func writeEntityList(_ list: EntityList, named name: String, csvChanged: Bool = true, listChanged: Bool = true) throws {
        var events = list.log
        if !listChanged, !events.isEmpty {
            var last: [String: EntityLogEvent] = [:]
            for event in entityLogTail(of: name) { last[event.key] = event }
            events.removeAll { last[$0.key] == $0 }
        }
        try appendEntityLog(events, to: name, edited: Set(list.editsTaken.map(\.entityID)))
        guard listChanged else { return }
        var list = list
        var targets: [(URL, String)] = []
        var csvText: String?
        if csvChanged {
            let text = list.csv
            csvText = text
            list.companionCSVDigest = MessageDigest.sha256Hex(Data(text.utf8))
        }
        let companion = entityCompanionURL(name)
        if list.keepsCompanion || isOccupied(companion) {
            if !csvChanged, list.companionCSVDigest == nil, isOccupied(entityListURL(name)) {
                do {
                    let copy = try CopiedFile.read(entityListURL(name).path, in: fileSystem, maximumBytes: FormMedia.maximumListBytes)
                    list.companionCSVDigest = MessageDigest.sha256Hex(copy.data)
                } catch let error as DocumentError {
                    throw DocumentError("\(name).csv cannot be read (\(error.message))")
                }
            }
            targets.append((companion, list.companionJSON))
        }
        if let csvText { targets.append((entityListURL(name), csvText)) }
        for (url, text) in targets {
            do {
                try AtomicFile.write(Data(text.utf8), to: url, in: fileSystem)
            } catch let error as SystemError {
                throw DocumentError("Could not save \(url.lastPathComponent): \(error.reason)")
            }
        }
    }

    /// The bytes of the folder's entity list `list`, when there is one (a regular file whose
    /// header is an entity list's); nil otherwise.
    func entityListBytes(_ list: String) -> [UInt8]? {
        let url = entityListURL(list)
        var status = stat()
        guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              Int(status.st_size) <= FormMedia.maximumListBytes,
              let copy = try? CopiedFile.read(url.path, in: fileSystem, maximumBytes: FormMedia.maximumListBytes) else { return nil }
        let bytes = [UInt8](copy.data)
        var text = String(decoding: bytes.prefix(64 * 1024), as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return Self.isEntityListHeader(text) ? bytes : nil
    }

    /// `form` with the list files it reads loaded for the document `name`: a file that is one
    /// of the folder's entity lists from there, any other from the document's media folder. A
    /// list the form itself registers into (an update form reading `households.csv`) and that
    /// nobody made yet is an empty list, not a file to attach.
    func loadingListFiles(_ form: XLSForm, for name: String) -> (form: XLSForm, warnings: [XLSFormProblem]) {
        let media = mediaFolderToRead(for: name)
        let own = Set(form.entities.map(\.list))
        return form.loadingMedia { file in
            guard file.hasSuffix(".csv"), case let list = String(file.dropLast(4)), Self.entityListNameProblem(list) == nil else {
                return media.flatMap { XLSForm.readListFile(named: file, in: $0) }
            }
            if let bytes = entityListBytes(list) { return .success(bytes) }
            let copy = media.flatMap { XLSForm.readListFile(named: file, in: $0) }
            if copy == nil, own.contains(list), !isOccupied(entityListURL(list)) { return .success(Array(EntityList().csv.utf8)) }
            return copy
        }
    }
}

extension DocumentStore {
    /// The entity lists after surveys came from elsewhere (a sync's pull, a USB merge): the
    /// registrations and visits among them change the lists here as they changed them where
    /// they were keyed, each survey against what this laptop held of it (`before`), so the
    /// lists travel with the surveys that made them (an entity's id comes from its survey's).
    /// `events` name the surveys the pull or merge took; those it left (a conflict) wait.
    @discardableResult
    public func recordEntities(takenBy events: [SyncEvent], before: [Record], now: [Record], questionnaire: Questionnaire,
                               clock: Questionnaire.Clock, changeNumbers: [String: Int64] = [:],
                               edits: [EntityEdit] = []) throws -> [EntityListChange] {
        guard let form = questionnaire.form, !form.entities.isEmpty else { return [] }
        let taken = Set(events.filter { [.added, .fastForwarded, .merged].contains($0.kind) }.map(\.id))
        guard !taken.isEmpty else { return [] }
        var earlier: [String: Record] = [:]
        for record in before { if let id = record.instanceID, taken.contains(id), earlier[id] == nil { earlier[id] = record } }
        var current: [String: Record] = [:]
        for record in now { if let id = record.instanceID, taken.contains(id), current[id] == nil { current[id] = record } }
        // In the order they came (the pull's order of changes), each survey once, at its last.
        var pairs: [(before: Record?, now: Record)] = []
        var seen = Set<String>()
        for event in events.reversed() where taken.contains(event.id) && seen.insert(event.id).inserted {
            if let record = current[event.id] { pairs.append((earlier[event.id], record)) }
        }
        return try recordEntities(changing: pairs.reversed(), questionnaire: questionnaire, clock: clock,
                                  changeNumbers: changeNumbers, edits: edits)
    }
}

extension DocumentStore {
    /// Gives each survey of `records` at the places `changed` names (with what was stored of
    /// it before; nil: new) that updates an entity for the first time the entity as the list
    /// here holds it now (`EntityBase`, ODK's `baseVersion`), before the survey is stored:
    /// wherever the update goes, it is merged against what it changed. A survey that updated
    /// the entity before keeps its base; a create needs none; an entity the list lacks, or a
    /// list that cannot be read, gets none (the update then writes what it saves). Returns
    /// the places stamped.
    public func stampEntityBases<Records: MutableCollection<Record>>(_ records: inout Records, changed: [(place: Int, before: Record?)],
                                 questionnaire: Questionnaire, clock: Questionnaire.Clock) -> [Int] where Records.Index == Int {
        guard let form = questionnaire.form, !form.entities.isEmpty else { return [] }
        entityListHold.drop()
        var lists: [String: EntityList?] = [:]
        var stamped: [Int] = []
        // Incomplete saves too: the values a visit starts from are filled in (prefilled) when
        // its entity is chosen, not when it is finished; a teammate's change synced between
        // would otherwise become its base and be reverted as "changed only by the visit".
        for (place, before) in changed where records.indices.contains(place) {
            let actions = FormInstance(questionnaire, record: records[place], clock: clock).entityActions()
                .filter { $0.kind != .create && $0.base == nil }
            guard !actions.isEmpty else { continue }
            // A complete survey stored before bases were kept keeps writing what it saves.
            let earlier = before.flatMap { $0.isIncomplete ? nil : FormInstance(questionnaire, record: $0, clock: clock).entityActions() } ?? []
            var values = records[place].values
            for action in actions where !earlier.contains(where: { $0.list == action.list && $0.id == action.id }) {
                if lists[action.list] == nil {
                    let read = (try? readEntityListMarked(action.list)) ?? nil
                    // Held for this save's write of the lists, which then reads none again.
                    if let read { entityListHold.put(action.list, read) }
                    lists[action.list] = .some(read?.list)
                }
                guard var list = lists[action.list] ?? nil, let at = list.place(of: action.id) else { continue }
                lists[action.list] = .some(list)        // its index made once
                let entity = list.entities[at]
                var properties: [String: String] = [:]
                for property in action.properties { properties[property.name] = entity.properties[property.name] ?? "" }
                EntityBase(version: entity.version, label: entity.label, properties: properties)
                    .stamping(&values, list: action.list, id: action.id)
            }
            if let stamp = values[EntityBase.recordKey], stamp != records[place][EntityBase.recordKey] {
                records[place][EntityBase.recordKey] = stamp
                stamped.append(place)
            }
        }
        return stamped
    }
}
