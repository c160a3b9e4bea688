import XCTest

/// Records gain an `instanceID` (`uuid:…`) at their document's first save: the only change
/// the app makes to records it did not edit. Tests compare the rest exactly.
extension PlistValue {
    /// The record without its `instanceID`.
    var withoutInstanceID: PlistValue {
        guard case .dictionary(var entries) = self else { return self }
        entries.removeValue(forKey: "instanceID")
        return .dictionary(entries)
    }
}

/// Every record has an id of the form ODK uses, and no two share one.
func assertInstanceIDs(_ records: [PlistValue], file: StaticString = #filePath, line: UInt = #line) {
    let ids = records.compactMap { record -> String? in
        guard case .string(let id) = record["instanceID"] else { return nil }
        return id
    }
    XCTAssertEqual(ids.count, records.count, "every record has an instanceID: \(records)", file: file, line: line)
    XCTAssertEqual(Set(ids).count, ids.count, "ids are distinct: \(ids)", file: file, line: line)
    for id in ids {
        XCTAssertTrue(id.hasPrefix("uuid:") && UUID(uuidString: String(id.dropFirst(5))) != nil,
                      "\(id) is uuid: + an RFC 4122 UUID", file: file, line: line)
    }
}
