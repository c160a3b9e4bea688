import FoundationEssentials

/// The ledger's file: an XML property list (plistlib reads it) whose root is a dictionary,
/// so it can never be mistaken for a document (an array) if renamed:
///
///     format = 1; pullCursor = 812; lastSync = <date>
///     surveys   = { ID = { answers = {…}; revision = "41"; deleted = true } }
///     conflicts = { ID = { theirs = {answers; revision; deleted};
///                          fields = [ { path = ["member", 1, "age"]; base; mine; theirs } ] } }
///     reviews   = { ID = { state = "hasIssues"; comment = "…" } }
///
/// A path's integers are places in a roster (from 0); an absent value is an absent key.
/// A file this code cannot read is refused whole (`DocumentError`) and never written over.
extension SyncLedger {
    static let currentFormat = 1

    public var propertyList: PropertyValue {
        var root: [String: PropertyValue] = ["format": .integer(Self.currentFormat)]
        if let pullCursor { root["pullCursor"] = .integer(Int(pullCursor)) }
        if let lastSync { root["lastSync"] = .date(lastSync) }
        root["surveys"] = .dictionary(bases.mapValues(\.propertyList))
        root["conflicts"] = .dictionary(conflicts.mapValues { conflict in
            .dictionary(["theirs": conflict.theirs.propertyList,
                         "fields": .array(conflict.fields.map(\.propertyList))])
        })
        root["reviews"] = .dictionary(reviews.mapValues { review in
            var entry: [String: PropertyValue] = ["state": .string(review.state.rawValue)]
            if let comment = review.comment { entry["comment"] = .string(comment) }
            return .dictionary(entry)
        })
        return .dictionary(root)
    }

    public init(propertyList value: PropertyValue) throws {
        guard case .dictionary(let root) = value else {
            throw DocumentError("not a sync ledger: the top level is \(value.kindDescription), expected a dictionary")
        }
        guard case .integer(let format)? = root["format"] else { throw DocumentError("not a sync ledger: it has no format") }
        guard format <= Self.currentFormat else {
            throw DocumentError("a sync ledger of format \(format), newer than this survey reads (\(Self.currentFormat))")
        }
        self.init()
        switch root["pullCursor"] {
        case nil: break
        case .integer(let cursor)?: pullCursor = Int64(cursor)
        case let other?: throw Self.bad("pullCursor", other)
        }
        switch root["lastSync"] {
        case nil: break
        case .date(let date)?: lastSync = date
        case let other?: throw Self.bad("lastSync", other)
        }
        for (id, entry) in try Self.entries(root["surveys"], "surveys") { bases[id] = try Version(entry, id) }
        for (id, entry) in try Self.entries(root["conflicts"], "conflicts") {
            guard case .dictionary(let fields) = entry, let theirs = fields["theirs"],
                  case .array(let list)? = fields["fields"] else { throw Self.bad("conflicts of \(id)", entry) }
            conflicts[id] = Conflict(theirs: try Version(theirs, id), fields: try list.map { try FieldConflict($0, id) })
        }
        for (id, entry) in try Self.entries(root["reviews"], "reviews") {
            guard case .dictionary(let fields) = entry, case .string(let name)? = fields["state"],
                  let state = ReviewState(rawValue: name) else { throw Self.bad("review of \(id)", entry) }
            var comment: String?
            if case .string(let text)? = fields["comment"] { comment = text }
            reviews[id] = SyncReview(state, comment: comment)
        }
    }

    private static func entries(_ value: PropertyValue?, _ name: String) throws -> [String: PropertyValue] {
        switch value {
        case nil: return [:]
        case .dictionary(let entries)?: return entries
        case let other?: throw bad(name, other)
        }
    }

    static func bad(_ what: String, _ value: PropertyValue) -> DocumentError {
        DocumentError("not a sync ledger: \(what) is \(value.kindDescription)")
    }
}

extension SyncLedger.Version {
    var propertyList: PropertyValue {
        var entry: [String: PropertyValue] = ["answers": .dictionary(answers)]
        if let revision { entry["revision"] = .string(revision.text) }
        if deleted { entry["deleted"] = .bool(true) }
        return .dictionary(entry)
    }

    init(_ value: PropertyValue, _ id: String) throws {
        guard case .dictionary(let entry) = value, case .dictionary(let answers)? = entry["answers"] else {
            throw SyncLedger.bad("the base of \(id)", value)
        }
        var revision: SyncRevision?
        switch entry["revision"] {
        case nil: break
        case .string(let text)?: revision = SyncRevision(text)
        case .integer(let number)?: revision = SyncRevision(Int64(number))
        case let other?: throw SyncLedger.bad("the revision of \(id)", other)
        }
        var deleted = false
        if case .bool(let flag)? = entry["deleted"] { deleted = flag }
        self.init(answers: answers, revision: revision, deleted: deleted)
    }
}

extension FieldConflict {
    var propertyList: PropertyValue {
        var entry: [String: PropertyValue] = ["path": .array(path.steps.map { step in
            switch step {
            case .key(let key): return .string(key)
            case .index(let index): return .integer(index)
            }
        })]
        if let base { entry["base"] = base }
        if let mine { entry["mine"] = mine }
        if let theirs { entry["theirs"] = theirs }
        return .dictionary(entry)
    }

    init(_ value: PropertyValue, _ id: String) throws {
        guard case .dictionary(let entry) = value, case .array(let steps)? = entry["path"] else {
            throw SyncLedger.bad("a conflict of \(id)", value)
        }
        let path = try steps.map { step -> SyncFieldPath.Step in
            switch step {
            case .string(let key): return .key(key)
            case .integer(let index) where index >= 0: return .index(index)
            default: throw SyncLedger.bad("a conflict's path in \(id)", step)
            }
        }
        self.init(path: SyncFieldPath(path), base: entry["base"], mine: entry["mine"], theirs: entry["theirs"])
    }
}
