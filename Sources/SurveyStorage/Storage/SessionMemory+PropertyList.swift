import FoundationEssentials
import SurveyValues
import SurveyForms

/// The state file: a small XML property list, readable and editable by hand.
///
///     <dict>
///       <key>folders</key>
///       <dict>
///         <key>/home/me/.local/share/survey</key>
///         <dict>
///           <key>lastDocument</key> <string>Market Street</string>
///           <key>records</key> <dict> <key>Market Street</key> <integer>3</integer> </dict>
///         </dict>
///       </dict>
///     </dict>
extension SessionMemory {
    func propertyListData() throws -> Data {
        var entries: [String: PropertyValue] = [:]
        for (folder, memory) in folders {
            var entry: [String: PropertyValue] = [:]
            if let last = memory.lastDocument { entry["lastDocument"] = .string(last) }
            if !memory.records.isEmpty { entry["records"] = .dictionary(memory.records.mapValues { .integer($0) }) }
            if !memory.recordIDs.isEmpty { entry["recordIDs"] = .dictionary(memory.recordIDs.mapValues { .string($0) }) }
            if !memory.listOrders.isEmpty { entry["listOrders"] = .dictionary(memory.listOrders.mapValues { .string($0) }) }
            if !memory.questions.isEmpty { entry["questions"] = .dictionary(memory.questions.mapValues { .string($0) }) }
            if !memory.languages.isEmpty { entry["languages"] = .dictionary(memory.languages.mapValues { .string($0) }) }
            entries[folder] = .dictionary(entry)
        }
        let root = PropertyValue.dictionary(["folders": .dictionary(entries)])
        return PropertyListWriter.data(for: root)
    }

    /// Anything that is not the expected shape is skipped, piece by piece: one bad entry
    /// does not cost the others.
    static func folders(fromPropertyList data: Data) -> [String: FolderMemory] {
        guard !data.isEmpty,
              let root = try? PropertyListReader.read(data).value,
              case .dictionary(let top) = root,
              case .dictionary(let folderEntries)? = top["folders"] else { return [:] }
        var folders: [String: FolderMemory] = [:]
        for (folder, value) in folderEntries {
            guard folder.hasPrefix("/"), case .dictionary(let entry) = value else { continue }
            var memory = FolderMemory()
            if case .string(let last)? = entry["lastDocument"], !last.isEmpty { memory.lastDocument = last }
            if case .dictionary(let records)? = entry["records"] {
                for (document, record) in records {
                    if case .integer(let index) = record { memory.records[document] = index }
                }
            }
            for (key, path) in [("recordIDs", \FolderMemory.recordIDs), ("listOrders", \FolderMemory.listOrders),
                                ("questions", \FolderMemory.questions), ("languages", \FolderMemory.languages)] {
                guard case .dictionary(let values)? = entry[key] else { continue }
                for (document, value) in values {
                    if case .string(let text) = value, !text.isEmpty { memory[keyPath: path][document] = text }
                }
            }
            if !memory.isEmpty { folders[folder] = memory }
        }
        return folders
    }
}
