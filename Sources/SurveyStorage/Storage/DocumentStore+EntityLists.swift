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

    /// The entity lists in the folder, by name, sorted.
    public func entityListNames() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return entries.filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }
            .filter { Self.entityListNameProblem($0) == nil && entityListBytes($0) != nil }
            .sorted()
    }

    /// The list `list` as the folder holds it; an empty list when it has none yet. Throws
    /// when a file of that name is there but is no entity list or cannot be read.
    public func entityList(_ list: String) throws -> EntityList {
        if let why = Self.entityListNameProblem(list) { throw DocumentError("No entity list is named so: \(why)") }
        return try readEntityList(list) ?? EntityList()
    }

    /// nil: no file of that name.
    private func readEntityList(_ list: String) throws -> EntityList? {
        let url = entityListURL(list)
        guard isOccupied(url) else { return nil }
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
        do {
            return try EntityList(csv: text)
        } catch {
            throw DocumentError("\(file) cannot be read as CSV (\((error as? DocumentError)?.message ?? "\(error)"))")
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

        /// "households.csv: 1 created, 2 updated".
        public var summary: String {
            var parts: [String] = []
            if created > 0 { parts.append("\(created) created") }
            if updated > 0 { parts.append("\(updated) updated") }
            if !missing.isEmpty { parts.append("\(counted(missing.count, "update")) of an entity it does not have") }
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
        guard let form = questionnaire.form, !form.entities.isEmpty else { return [] }
        var actions: [(whole: EntityAction, changed: EntityAction?)] = []
        for (before, now) in pairs where !now.isIncomplete && !now.isSealed {
            let earlier = before.flatMap { $0.isIncomplete ? nil : FormInstance(questionnaire, record: $0, clock: clock).entityActions() } ?? []
            for action in FormInstance(questionnaire, record: now, clock: clock).entityActions() {
                guard let old = earlier.first(where: { $0.list == action.list && $0.id == action.id }) else {
                    actions.append((action, action))
                    continue
                }
                var changed = action
                if changed.label == old.label { changed.label = nil }
                changed.properties = action.properties.filter { property in
                    old.properties.first { $0.name == property.name }?.value != property.value
                }
                actions.append((action, changed.label == nil && changed.properties.isEmpty ? nil : changed))
            }
        }
        return try applyEntityActions(actions)
    }

    /// Applies `actions` to the folder's lists, in order, each list read and written under the
    /// folder's lock (as every writer of the folder takes it), atomically (`AtomicFile`). Every
    /// list is read before any is written: a list that cannot be read (not an entity list, not
    /// UTF-8, a link) refuses them all, the files left as they were. A list nothing changed
    /// is not written.
    @discardableResult
    public func applyEntityActions(_ actions: [EntityAction]) throws -> [EntityListChange] {
        try applyEntityActions(actions.map { ($0, $0) })
    }

    /// Each action `changed` where the list holds its entity (nil: nothing to change there),
    /// `whole` where it does not.
    func applyEntityActions(_ actions: [(whole: EntityAction, changed: EntityAction?)]) throws -> [EntityListChange] {
        guard !actions.isEmpty else { return [] }
        var names: [String] = []
        for (action, _) in actions where !names.contains(action.list) {
            if let why = Self.entityListNameProblem(action.list) {
                throw DocumentError("The entity list “\(action.list)” cannot be written: \(why)")
            }
            names.append(action.list)
        }
        return try withFolderLock {
            var lists: [String: EntityList] = [:]
            for name in names {
                do {
                    lists[name] = try readEntityList(name) ?? EntityList()
                } catch let error as DocumentError {
                    throw DocumentError("\(error.message): it was left as it is, and no entity list was changed")
                }
            }
            var changes = names.map { EntityListChange(list: $0) }
            for (whole, changed) in actions {
                guard let i = names.firstIndex(of: whole.list) else { continue }
                let held = lists[whole.list]?.holds(whole.id) ?? false
                guard let action = held ? changed : whole else { continue }
                switch lists[action.list]?.apply(action) {
                case .created?: changes[i].created += 1
                case .updated?: changes[i].updated += 1
                case .missing?: changes[i].missing.append(action.id)
                case .unchanged?, nil: break
                }
            }
            for (i, name) in names.enumerated() where changes[i].created + changes[i].updated > 0 {
                let url = entityListURL(name)
                do {
                    try AtomicFile.write(Data((lists[name] ?? EntityList()).csv.utf8), to: url, in: fileSystem)
                } catch let error as SystemError {
                    throw DocumentError("Could not save \(url.lastPathComponent): \(error.reason)")
                }
            }
            return changes
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
                               clock: Questionnaire.Clock) throws -> [EntityListChange] {
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
        return try recordEntities(changing: pairs.reversed(), questionnaire: questionnaire, clock: clock)
    }
}
