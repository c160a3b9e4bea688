import SurveyValues

/// The companion file of an entity list, `.LIST.entities.json`: what the list keeps beside its
/// CSV, never in its columns, which are ODK's.
extension EntityList {
    /// `{"conflicts": [{"name", "property", "base", "mine", "theirs", "survey"}], "retired":
    /// [ids], "editCursor": N, "editsApplied": [N], "edits": [{"change", "name", "label",
    /// "properties", "by"}], "csv": digest}`, keys sorted. `csv` is the SHA-256 of the CSV
    /// written with it (`companionCSVDigest`): a reader finding another CSV beside it knows
    /// the two were not written together.
    public var companionJSON: String {
        var members: [String: PropertyValue] = [:]
        if let companionCSVDigest { members["csv"] = .string(companionCSVDigest) }
        members["conflicts"] = .array(conflicts.map { c in
            var fields: [String: PropertyValue] = ["name": .string(c.id), "property": .string(c.property), "base": .string(c.base),
                                                   "mine": .string(c.mine), "theirs": .string(c.theirs)]
            if let survey = c.survey { fields["survey"] = .string(survey) }
            return .dictionary(fields)
        })
        members["retired"] = .array(retired.sorted().map { .string($0) })
        members["editCursor"] = .integer(Int(editCursor))
        members["editsApplied"] = .array(editsApplied.map { .integer(Int($0)) })
        members["edits"] = .array(editsTaken.map { edit in
            var fields: [String: PropertyValue] = ["change": .integer(Int(edit.change)), "name": .string(edit.entityID),
                                                   "properties": .dictionary(edit.properties.mapValues { .string($0) })]
            if let label = edit.label { fields["label"] = .string(label) }
            if let by = edit.by { fields["by"] = .string(by) }
            return .dictionary(fields)
        })
        return PropertyValue.jsonObjectText(members) + "\n"
    }

    /// Takes what the companion file holds (`companionJSON`'s shape); throws when it is not that.
    public mutating func readCompanion(_ bytes: [UInt8]) throws {
        let members = try PropertyValue.answers(jsonObject: bytes)
        func text(_ value: PropertyValue?) -> String? { if case .string(let s)? = value { return s } else { return nil } }
        func number(_ value: PropertyValue?) -> Int64? { if case .integer(let n)? = value { return Int64(n) } else { return nil } }
        var conflicts: [EntityConflict] = []
        if case .array(let items)? = members["conflicts"] {
            for item in items {
                guard case .dictionary(let f) = item, let id = text(f["name"]), let property = text(f["property"]) else {
                    throw DocumentError("a conflict without its entity and property")
                }
                conflicts.append(EntityConflict(id: id, property: property, base: text(f["base"]) ?? "", mine: text(f["mine"]) ?? "",
                                                theirs: text(f["theirs"]) ?? "", survey: text(f["survey"])))
            }
        }
        var retired: Set<String> = []
        if case .array(let items)? = members["retired"] { for item in items { if let id = text(item) { retired.insert(id) } } }
        var applied: [Int64] = []
        if case .array(let items)? = members["editsApplied"] { applied = items.compactMap(number) }
        var taken: [EntityEdit] = []
        if case .array(let items)? = members["edits"] {
            for item in items {
                guard case .dictionary(let f) = item, let id = text(f["name"]) else { continue }
                var properties: [String: String] = [:]
                if case .dictionary(let p)? = f["properties"] { for (k, v) in p { properties[k] = text(v) ?? "" } }
                taken.append(EntityEdit(list: "", entityID: id, label: text(f["label"]), properties: properties,
                                        change: number(f["change"]) ?? 0, by: text(f["by"])))
            }
        }
        editsTaken = taken
        companionCSVDigest = text(members["csv"])
        self.conflicts = conflicts
        self.retired = retired
        editCursor = number(members["editCursor"]) ?? 0
        editsApplied = applied
    }
}
