import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The scanner must read every file exactly as `PropertyListSerialization` does, or hand it
/// over (nil). Compared value by value, strings by their UTF-8 bytes and reals by their bits,
/// since Swift's `==` treats canonically equivalent strings and 0.0 / -0.0 as equal.
final class PropertyListScannerTests: XCTestCase {
    func testDocumentsWeWriteAreScannedExactlyAsFoundationReadsThem() throws {
        var random = SplitMix(seed: 7)
        for round in 0..<300 {
            let document = SurveyDocument(records: (0..<random.next(below: 8)).map { _ in
                Record(randomDictionary(&random, depth: 0))
            })
            let data = try document.propertyListData()
            let records = try XCTUnwrap(scanned(data), "round \(round): fell back")
            let foundation = try SurveyDocument(foundationPropertyListData: data)
            assertIdentical(records, foundation.records, "round \(round)")
        }
    }

    func testFilesPlistlibWritesAreScannedExactlyAsFoundationReadsThem() throws {
        let script = #"""
            import base64, datetime, plistlib, random, sys
            r = random.Random(11)
            pieces = ["", "a", "Zoë", "山田", "🏙️", "𝄞", "&", "<", ">", "\"", "'", "]]>", "\t", "\n",
                      "\r\n", " lead", "trail ", "e\u0301", "\u0085", "\u007f", "x" * 300]
            def text(): return "".join(r.choice(pieces) for _ in range(r.randint(0, 4)))
            def value(depth):
                kind = r.randint(0, 9 if depth < 3 else 7)
                if kind == 0: return text()
                if kind == 1: return r.choice([0, 1, -1, 2**63 - 1, -2**63, r.randint(-10**12, 10**12)])
                if kind == 2: return r.choice([0.1, 1e300, -1e-300, 5e-324, 3.0, -0.0, 1e15, 2.5e-7, r.uniform(-1e6, 1e6)])
                if kind == 3: return r.random() < 0.5
                if kind == 4: return datetime.datetime(r.randint(1, 9999), r.randint(1, 12), r.randint(1, 28),
                                                       r.randint(0, 23), r.randint(0, 59), r.randint(0, 59))
                if kind == 5: return bytes(r.randrange(256) for _ in range(r.choice([0, 1, 2, 3, 57, 200])))
                if kind in (6, 7): return text()
                if kind == 8: return [value(depth + 1) for _ in range(r.randint(0, 3))]
                return {text(): value(depth + 1) for _ in range(r.randint(0, 3))}
            for n in range(int(sys.argv[2])):
                records = [{text(): value(1) for _ in range(r.randint(0, 6))} for _ in range(r.randint(0, 5))]
                with open(f"{sys.argv[1]}/{n}.plist", "wb") as f:
                    plistlib.dump(records, f, fmt=plistlib.FMT_XML, sort_keys=r.random() < 0.5)
            """#
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try TestSupport.python(script, [folder.path, "150"])
        for n in 0..<150 {
            let data = try Data(contentsOf: folder.appendingPathComponent("\(n).plist"))
            let records = try XCTUnwrap(scanned(data), "file \(n): fell back")
            assertIdentical(records, try SurveyDocument(foundationPropertyListData: data).records, "file \(n)")
        }
    }

    func testFixturesAreScanned() throws {
        for name in ["seed-serialized.xml", "plistlib-unicode.plist"] {
            let data = try TestSupport.fixtureData(name)
            let records = try XCTUnwrap(scanned(data), name)
            assertIdentical(records, try SurveyDocument(foundationPropertyListData: data).records, name)
        }
    }

    /// Spellings the scanner reads itself, each compared with Foundation.
    func testAcceptedSpellingsMatchFoundation() throws {
        let bodies = [
            "<dict><key>s</key><string/><key>t</key><string></string><key>k</key><dict/><key>a</key><array/></dict>",
            "<dict><key>e</key><string>&amp;&lt;&gt;&quot;&apos;&#13;&#10;&#x9;&#xe9;&#233;&#x1F3D9;&#x10FFFF;</string></dict>",
            "<dict><key>&lt;k&gt; &amp; é</key><integer>-9223372036854775808</integer></dict>",
            "<dict><key>i</key><integer>9223372036854775807</integer><key>z</key><integer>0</integer></dict>",
            "<dict><key>r</key><real>1e300</real><key>r2</key><real>-2.5E-7</real><key>r3</key><real>7</real></dict>",
            "<dict><key>r</key><real>0.30000000000000004</real><key>r2</key><real>4.9406564584124654e-324</real></dict>",
            "<dict><key>d</key><date>1900-01-01T00:00:00Z</date><key>d2</key><date>2024-02-29T23:59:59Z</date></dict>",
            "<dict><key>d</key><date>9999-12-31T23:59:59Z</date><key>d2</key><date>1969-12-31T23:59:59Z</date></dict>",
            "<dict><key>d</key><date>0001-01-01T00:00:00Z</date><key>d2</key><date>1582-10-14T12:00:00Z</date></dict>",
            "<dict><key>d</key><date>1000-06-15T00:00:00Z</date><key>r</key><real>-0.0</real></dict>",
            "<dict><key>b</key><data>\n\tAAEC/w==\n\t</data><key>b2</key><data></data><key>b3</key><data>QUJD REVG</data></dict>",
            "<dict><key>raw</key><string>a > b ]]> c \u{7F} \u{85} \u{FFFD} \t\n</string></dict>",
            "<dict><key></key><true/><key> </key><false/></dict>",
            "\n  <dict>\n\t<key>x</key>\n\t<array>\n\t\t<array><dict><key>y</key><string>z</string></dict></array>\n\t</array>\n  </dict>\n",
            "<dict/><dict/>",
        ]
        for body in bodies {
            for data in [plist(body), Data("<plist><array>\(body)</array></plist>".utf8)] {
                let records = try XCTUnwrap(scanned(data), body)
                assertIdentical(records, try SurveyDocument(foundationPropertyListData: data).records, body)
            }
        }
        XCTAssertEqual(scanned(plist("")), [])
        XCTAssertEqual(scanned(Data("<plist><array/></plist>".utf8)), [])
    }

    /// Everything outside the subset is handed to Foundation, and the document (or the
    /// error) is then exactly Foundation's.
    func testEverythingElseFallsBackToFoundation() throws {
        let deep = String(repeating: "<array>", count: 600) + String(repeating: "</array>", count: 600)
        let bomb = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <plist version="1.0"><array><dict><key>x</key><string>&b;&b;&b;</string></dict></array></plist>
            """
        let fallbacks: [Data] = [
            plist("<!-- note --><dict/>"),
            plist("<dict><key>x</key><string><![CDATA[<a>]]></string></dict>"),
            plist("<dict><key>x</key><string>a\rb\r\nc</string></dict>"),
            plist("<dict>\r\n<key>x</key><string>y</string></dict>"),
            plist("<dict ><key>x</key><string>y</string></dict>"),
            plist("<dict><key>x</key><string id=\"1\">y</string></dict>"),
            plist("<?pi data?><dict/>"),
            plist("<dict><key>x</key><string>&unknown;</string></dict>"),
            plist("<dict><key>x</key><string>&#0;</string></dict>"),
            plist("<dict><key>x</key><string>&#xFFFE;</string></dict>"),
            plist("<dict><key>x</key><string>\u{1}</string></dict>"),
            plist("<dict><key>\u{FEFF}x</key><string>\u{FEFF}\u{FEFF}y</string></dict>"),
            plist("<dict><key>x</key><string>&#xFEFF;y</string></dict>"),
            plist("<dict><key>x</key><string>\u{FFFF}</string></dict>"),
            plist("<dict><key>x</key><string>a</string><key>x</key><string>b</string></dict>"),
            plist("<dict><key>age</key><integer>1</integer><key>x</key><true/><key>age</key><integer>2</integer></dict>"),
            plist("<dict><key>long key</key><true/><key>x</key><true/><key>long key</key><false/></dict>"),
            plist("<dict><key>n</key><integer>18446744073709551615</integer></dict>"),
            plist("<dict><key>n</key><integer>99999999999999999999999</integer></dict>"),
            plist("<dict><key>n</key><integer>0x1F</integer></dict>"),
            plist("<dict><key>n</key><integer>+5</integer></dict>"),
            plist("<dict><key>n</key><integer>007</integer></dict>"),
            plist("<dict><key>n</key><integer> 5 </integer></dict>"),
            plist("<dict><key>n</key><integer>-0</integer></dict>"),
            plist("<dict><key>n</key><integer/></dict>"),
            plist("<dict><key>r</key><real>nan</real></dict>"),
            plist("<dict><key>r</key><real>-inf</real></dict>"),
            plist("<dict><key>r</key><real>1e999</real></dict>"),
            plist("<dict><key>r</key><real>.5</real></dict>"),
            plist("<dict><key>d</key><date>0000-12-30T00:00:00Z</date></dict>"),
            plist("<dict><key>d</key><date>-0001-01-01T00:00:00Z</date></dict>"),
            plist("<dict><key>d</key><date>2023-02-29T00:00:00Z</date></dict>"),
            plist("<dict><key>d</key><date>2024-01-02T03:04:05.5Z</date></dict>"),
            plist("<dict><key>d</key><date>2024-01-02</date></dict>"),
            plist("<dict><key>b</key><data>AAE</data></dict>"),
            plist("<dict><key>b</key><data>A=AA</data></dict>"),
            plist("<dict><key>b</key><data>AA*A</data></dict>"),
            plist("<dict><key>b</key><data/></dict>"),
            plist("<dict><key>t</key><true></true></dict>"),
            plist("<dict><key>x</key><string>unclosed</dict>"),
            plist("<dict><key>x</key></dict>"),
            plist("<dict><string>no key</string></dict>"),
            plist("<dict/><string>x</string>"),
            plist("<dict><key>deep</key>\(deep)</dict>"),
            Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict/></plist>".utf8),
            Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><string>x</string></plist>".utf8),
            Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist version=\"1.0\"><array/></plist>".utf8),
            Data("\u{FEFF}<plist version=\"1.0\"><array/></plist>".utf8),
            Data("<plist version=\"1.0\"><array/></plist> trailing".utf8),
            Data("<plist version=\"1.0\"><array/>".utf8),
            Data([0x3C, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x3E, 0x3C, 0x61, 0x72, 0x72, 0x61, 0x79, 0x3E, 0x3C, 0x64, 0x69,
                  0x63, 0x74, 0x3E, 0x3C, 0x6B, 0x65, 0x79, 0x3E, 0xC3, 0x28, 0x3C, 0x2F, 0x6B, 0x65, 0x79, 0x3E]),
            Data(bomb.utf8),
            try PropertyListSerialization.data(fromPropertyList: [["a": 1]], format: .binary, options: 0),
            Data("garbage".utf8),
        ]
        for data in fallbacks {
            let text = String(decoding: data.prefix(120), as: UTF8.self)
            XCTAssertNil(scanned(data), text)
            switch (Result { try SurveyDocument(propertyListData: data) },
                    Result { try SurveyDocument(foundationPropertyListData: data) }) {
            case (.success(let mine), .success(let theirs)):
                assertIdentical(mine.records, theirs.records, text)
            case (.failure(let mine), .failure(let theirs)):
                XCTAssertEqual("\(mine)", "\(theirs)", text)
            case (let mine, let theirs):
                XCTFail("\(text): \(mine) against Foundation's \(theirs)")
            }
        }
        // What the hostile ones come to: Foundation refuses them.
        XCTAssertThrowsError(try SurveyDocument(propertyListData: plist("<dict><key>deep</key>\(deep)</dict>")))
        XCTAssertThrowsError(try SurveyDocument(propertyListData: Data(bomb.utf8)))
    }

    /// Whole property lists of any shape (session files, drafts, sync ledgers) are read by the
    /// scanner exactly as Foundation's decoder reads them, or handed over.
    func testAnyValueIsScannedExactlyAsFoundationReadsIt() throws {
        var random = SplitMix(seed: 19)
        for round in 0..<400 {
            let root = randomValue(&random, depth: 0)
            let data = PropertyListWriter.data(for: root)
            let scannedValue = try XCTUnwrap(PropertyListScanner.value(in: data), "round \(round): fell back")
            let foundation = try PropertyListReader.decoded(data)
            XCTAssertTrue(identical(scannedValue, foundation.value), "round \(round): \(scannedValue) against \(foundation.value)")
            XCTAssertTrue(identical(try PropertyListReader.read(data).value, foundation.value))
        }
        for body in ["<string/>", "<integer>-3</integer>", "<dict/>", "<array><true/><false/></array>",
                     "<dict><key>a</key><dict><key>b</key><array><date>2024-02-29T23:59:59Z</date></array></dict></dict>"] {
            let data = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n".utf8)
            let mine = try XCTUnwrap(PropertyListScanner.value(in: data), body)
            XCTAssertTrue(identical(mine, try PropertyListReader.decoded(data).value), body)
        }
        // Outside the subset: handed over, so the value or the error stays Foundation's.
        for body in ["<!-- c --><dict/>", "<dict><key>x</key><string>a\rb</string></dict>", "<integer>0x1F</integer>",
                     "<dict><key>x</key><true/><key>x</key><false/></dict>", "<dict/><dict/>", "", "<string>&bogus;</string>",
                     String(repeating: "<array>", count: 70) + String(repeating: "</array>", count: 70)] {
            let data = Data("<plist version=\"1.0\">\(body)</plist>".utf8)
            XCTAssertNil(PropertyListScanner.value(in: data), body)
            switch (Result { try PropertyListReader.read(data).value }, Result { try PropertyListReader.decoded(data).value }) {
            case (.success(let mine), .success(let theirs)): XCTAssertTrue(identical(mine, theirs), body)
            case (.failure(let mine), .failure(let theirs)): XCTAssertEqual("\(mine)", "\(theirs)", body)
            case (let mine, let theirs): XCTFail("\(body): \(mine) against Foundation's \(theirs)")
            }
        }
    }

    func testNestingUpToTheLimitIsScanned() throws {
        // The root array is level 1, a record 2, its values 3: arrays around a value at the limit.
        let depth = PropertyListScanner.maximumDepth - 3
        let body = "<dict><key>n</key>" + String(repeating: "<array>", count: depth) + "<true/>"
            + String(repeating: "</array>", count: depth) + "</dict>"
        let records = try XCTUnwrap(scanned(plist(body)))
        assertIdentical(records, try SurveyDocument(foundationPropertyListData: plist(body)).records, "deep")
        let deeper = body.replacingOccurrences(of: "<true/>", with: "<array><true/></array>")
        XCTAssertNil(scanned(plist(deeper)))
    }

    func testAFileIsScannedAsItIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = SurveyDocument(records: (0..<300).map { Record.sample(first: "Ana \($0)", age: $0) })
        try DocumentStore(folder: folder).save(document, as: "Read")
        let url = folder.appendingPathComponent("Read.plist")
        // Windows of 64 bytes, grown to hold a record; the 300 records cross many of them.
        XCTAssertEqual(try DocumentFileReader.scannedRecords(RawPath(url.path), window: 64).get(), Array(document.records))
        XCTAssertEqual(try DocumentStore(folder: folder).load("Read").get(), document)
        try Data("<plist><array><dict><!-- c --></dict></array></plist>".utf8).write(to: url)
        XCTAssertNil(try DocumentFileReader.scannedRecords(RawPath(url.path), window: 64).get())
        XCTAssertEqual(try DocumentStore(folder: folder).load("Read").get(), SurveyDocument(records: [Record()]))
    }

    /// Rosters and a sync ledger's bases (lists and dictionaries with plain keys inside a
    /// survey) are packed straight from the text: the same bytes as packing what Foundation
    /// reads, whether the nested value is all plain or meets a real, a date or a key with an
    /// entity part-way through (read again the slow way, from where it started).
    func testNestedListsAndDictionariesArePackedAsTheirValuesWouldBe() throws {
        var random = SplitMix(seed: 23)
        let keys = ["age", "firstName", "member", "m_name", "answers", "base", "revision", "deleted", "x", "instanceID"]
        func plainValue(depth: Int) -> PropertyValue {
            switch random.next(below: depth < 4 ? 9 : 5) {
            case 0: return .string(["", "Ana", "uuid:0123456789abcdef0123456789abcdef0123", "a & b", "1 < 2", "Zoë"][random.next(below: 6)])
            case 1: return .integer([0, -1, 42, Int.max, Int.min][random.next(below: 5)])
            case 2: return .bool(random.next(below: 2) == 0)
            case 3: return random.next(below: 4) == 0 ? .real(1.5) : .string("plain text")
            case 4: return random.next(below: 6) == 0 ? .date(Date(timeIntervalSince1970: 1_700_000_000)) : .integer(7)
            case 5, 6: return .array((0..<random.next(below: 4)).map { _ in plainValue(depth: depth + 1) })
            default:
                var entries: [String: PropertyValue] = [:]
                for _ in 0..<random.next(below: 4) {
                    let key = random.next(below: 12) == 0 ? "k&y" : keys[random.next(below: keys.count)]
                    entries[key] = plainValue(depth: depth + 1)
                }
                return .dictionary(entries)
            }
        }
        var nestedSeen = 0
        for round in 0..<300 {
            let records = (0..<(1 + random.next(below: 4))).map { _ in
                var values: [String: PropertyValue] = ["instanceID": .string("uuid:\(round)")]
                for key in ["member", "base", "notes"] where random.next(below: 3) != 0 { values[key] = plainValue(depth: 0) }
                return Record(values)
            }
            let data = try SurveyDocument(records: records).propertyListData()
            let mine = try XCTUnwrap(scanned(data), "round \(round): fell back")
            let foundation = try SurveyDocument(foundationPropertyListData: data).records
            assertIdentical(mine, foundation, "round \(round)")
            for (a, b) in zip(mine, foundation) {
                XCTAssertEqual(a.packed, Record(b.values).packed, "round \(round): \(b.values)")
                nestedSeen += b.values.values.filter { if case .array = $0 { return true }; if case .dictionary = $0 { return true }; return false }.count
            }
        }
        XCTAssertGreaterThan(nestedSeen, 300, "the rounds held nested values")
    }

    // MARK: - Helpers

    /// The scanner's answer for `data` in memory, checked against the same bytes read a few
    /// at a time through a 16-byte window (so every token is cut somewhere).
    /// A survey is read into packed bytes that take the room its answers need and no more
    /// (a million surveys as dictionaries took 590 MB). One read without an id has room for
    /// the id it is given next, which goes in where it is: the survey is not copied.
    func testSurveysTakeTheRoomTheyNeed() throws {
        let answers: [String: PropertyValue] = ["firstName": .string("Ana"), "lastName": .string("Lima"),
                                                "address": .string("1 Rua"), "phone": .string("555"), "age": .integer(30)]
        var withID = answers
        withID[Record.instanceIDKey] = .string("uuid:1")
        let data = try SurveyDocument(records: [Record(withID), Record(answers)]).propertyListData()
        var records = try XCTUnwrap(PropertyListScanner.records(in: data))
        XCTAssertLessThan(records[0].packed.capacity, records[0].packed.count + 16, "no spare room beyond malloc's rounding")
        XCTAssertLessThan(records[0].packed.count, 60, "six known keys take a byte each")
        XCTAssertGreaterThanOrEqual(records[1].packed.capacity, records[1].packed.count + 18, "room for an id")
        let before = records[1].packed.withUnsafeBufferPointer { $0.baseAddress }
        XCTAssertTrue(records[1].identify(at: 1))
        XCTAssertEqual(records[1].packed.withUnsafeBufferPointer { $0.baseAddress }, before, "given its id in place")
        XCTAssertEqual(records[1].values.count, 6)
        XCTAssertEqual(records[1].instanceID, Record.derivedInstanceID(position: 1, of: Record(answers)))
        XCTAssertEqual(records[1].packed, Record(records[1].values).packed, "as if packed with its id")
        XCTAssertEqual(records[0].values, withID)
    }

    private func scanned(_ data: Data, file: StaticString = #filePath, line: UInt = #line) -> [Record]? {
        let whole = PropertyListScanner.records(in: data)
        var offset = 0
        var piece = 0
        let streamed = PropertyListScanner.records(sizeHint: data.count, window: 16) { buffer in
            piece = piece % 13 + 1
            let count = min(piece, buffer.count, data.count - offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<offset + count)
            offset += count
            return count
        }
        XCTAssertEqual(whole == nil, streamed == nil, "streamed and whole disagree", file: file, line: line)
        if let whole, let streamed {
            XCTAssertTrue(zip(whole, streamed).allSatisfy { identical(.dictionary($0.values), .dictionary($1.values)) }
                          && whole.count == streamed.count, "streamed and whole differ", file: file, line: line)
        }
        return whole
    }

    private func plist(_ body: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <array>\(body)</array>
            </plist>

            """.utf8)
    }

    private func assertIdentical(_ mine: some Collection<Record>, _ theirs: some Collection<Record>, _ context: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(mine.count, theirs.count, context, file: file, line: line)
        for (a, b) in zip(mine, theirs) where !identical(.dictionary(a.values), .dictionary(b.values)) {
            XCTFail("\(context): \(a) differs from Foundation's \(b)", file: file, line: line)
            return
        }
    }

    private func identical(_ a: PropertyValue, _ b: PropertyValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
        case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
        case (.date(let x), .date(let y)):
            return x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(identical)
        case (.dictionary(let x), .dictionary(let y)):
            let xKeys = x.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
            let yKeys = y.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
            return xKeys == yKeys && x.allSatisfy { key, value in y[key].map { identical(value, $0) } ?? false }
        default: return a == b
        }
    }

    private func randomDictionary(_ random: inout SplitMix, depth: Int) -> [String: PropertyValue] {
        var values: [String: PropertyValue] = [:]
        for _ in 0..<random.next(below: 7) { values[randomText(&random)] = randomValue(&random, depth: depth + 1) }
        return values
    }

    private func randomText(_ random: inout SplitMix) -> String {
        let pieces = ["", "a", "José", "山田", "🏙️", "𝄞", "&", "<", ">", "\"", "'", "]]>", "&amp;", "\t", "\n", "\r",
                      "\r\n", " ", "\u{7}", "\u{0}", "\u{1B}[2J", "\u{FFFE}", "\u{FFFF}", "\u{85}", "\u{7F}", "e\u{301}",
                      "\u{E9}", "x\u{FEFF}", "firstName", String(repeating: "long ", count: 40)]
        return (0..<random.next(below: 5)).map { _ in pieces[random.next(below: pieces.count)] }.joined()
    }

    private func randomValue(_ random: inout SplitMix, depth: Int) -> PropertyValue {
        switch random.next(below: depth < 3 ? 10 : 8) {
        case 0, 1: return .string(randomText(&random))
        case 2:
            let integers = [0, 1, -1, Int.max, Int.min, 42, -7, 1 << 40]
            return .integer(random.next(below: 2) == 0 ? integers[random.next(below: integers.count)]
                            : Int(truncatingIfNeeded: random.next()) >> random.next(below: 64))
        case 3:
            let reals = [0.1, 1e300, -1e-300, 5e-324, 1, 3, -0.0, 1e15, 123_456_789_012_345.6, .greatestFiniteMagnitude,
                         2.5e-7, -1234.5678]
            if random.next(below: 2) == 0 { return .real(reals[random.next(below: reals.count)]) }
            let bits = Double(bitPattern: random.next())
            return .real(bits.isFinite ? bits : 0.5)
        case 4: return .bool(random.next(below: 2) == 0)
        case 5:
            // 0001-01-01 to 9999-12-31, whole seconds (what the writer keeps).
            let seconds = -62_135_596_800 + Int(random.next() % 315_537_897_600)
            return .date(Date(timeIntervalSince1970: Double(seconds)))
        case 6: return .data(Data((0..<random.next(below: 70)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        case 7: return .string("")
        case 8: return .array((0..<random.next(below: 4)).map { _ in randomValue(&random, depth: depth + 1) })
        default: return .dictionary(randomDictionary(&random, depth: depth))
        }
    }
}
