import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

extension SurveyServer {
    /// A supervisor's edit (or retirement) of an entity as the server keeps it
    /// (`survey.entity_edits`, migration 7): read by every laptop's sync after the surveys.
    public func editEntity(_ edit: EntityEdit) throws -> Int64 {
        let properties = PropertyValue.jsonObjectText(edit.properties.mapValues { .string($0) })
        let result = try connection.execute("""
            INSERT INTO survey.entity_edits (list, entity_id, label, properties, retired) VALUES ($1, $2, $3, $4::jsonb, $5)
            RETURNING change_seq, edited_by
            """, [edit.list, edit.entityID, edit.label, properties, edit.retired ? "true" : "false"])
        guard let number = result.scalar.flatMap({ Int64($0) }) else {
            throw DatabaseError(.protocolError, "the server kept the edit but did not say its number")
        }
        return number
    }

    /// The edits of entity list `list` after `cursor`, in the order they were made, below
    /// the change horizon (`Schema.lockFreeChanges`): an edit being committed meanwhile comes
    /// at the next sync, never passed over.
    public func entityEdits(list: String, since cursor: Int64, limit: Int = 10_000) throws -> [EntityEdit] {
        try entityEdits(lists: [list], since: cursor, limit: limit)
    }

    /// The edits of any of `lists` after `cursor` (up to `last` when given: a sync takes them
    /// with the surveys pulled up to there, in one order), in the order they were made: one
    /// round trip for every list, however many there are.
    public func entityEdits(lists: [String], since cursor: Int64, upTo last: Int64? = nil, limit: Int = 10_000) throws -> [EntityEdit] {
        guard !lists.isEmpty else { return [] }
        let names = PropertyValue.jsonObjectText(["lists": .array(lists.map { .string($0) })])
        let result = try connection.execute("""
            SELECT change_seq, entity_id, label, properties::text, retired, edited_by, extract(epoch FROM edited_at)::text, list
            FROM survey.entity_edits
            WHERE list IN (SELECT jsonb_array_elements_text($1::jsonb -> 'lists')) AND change_seq > $2
              AND change_seq < survey.change_horizon() AND ($4::bigint IS NULL OR change_seq <= $4::bigint)
            ORDER BY change_seq LIMIT $3
            """, [names, String(cursor), String(limit), last.map { String($0) }])
        return result.rows.compactMap { row in
            guard let number = row[0].flatMap({ Int64($0) }), let id = row[1], let list = row[7] else { return nil }
            var properties: [String: String] = [:]
            if let text = row[3], let members = try? PropertyValue.answers(jsonObject: Array(text.utf8)) {
                for (key, value) in members { if case .string(let s) = value { properties[key] = s } }
            }
            return EntityEdit(list: list, entityID: id, label: row[2], properties: properties, retired: row[4] == "t",
                              change: number, by: row[5], at: row[6].flatMap(Double.init).map { Date(timeIntervalSince1970: $0) })
        }
    }
}
