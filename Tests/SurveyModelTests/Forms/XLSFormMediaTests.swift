import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// List files beside a form: `select_one_from_file`, `choice_filter` over their columns,
/// `pulldata()` and `instance('list')/root/item[…]/column`.
final class XLSFormMediaTests: TemporaryFolderTestCase {
    static let form = """
    survey,,,,,
    ,type,name,label,choice_filter,calculation
    ,select_one_from_file regions.csv,region,Region,,
    ,select_one_from_file villages.csv,village,Village,region = ${region},
    ,calculate,people,,,"pulldata('villages', 'population', 'name', ${village})"
    ,select_one yn,ok,OK?,,
    ,calculate,ok_label,,,instance('yn')/root/item[name = ${ok}]/label
    ,calculate,second,,,instance('villages')/root/item[region = 'north'][2]/label
    choices,,,,,
    ,list_name,name,label,,
    ,yn,yes,Yes indeed,,
    ,yn,no,No,,
    """

    private func write(_ text: String, _ name: String) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    private func loaded() throws -> (Questionnaire, [XLSFormProblem]) {
        let form = try FormTestSupport.form(Self.form)
        let (withMedia, warnings) = form.loadingMedia(from: folder)
        return (Questionnaire(form: withMedia), warnings)
    }

    func testAListFileIsTheQuestionsChoicesAndItsColumnsFilterThem() throws {
        try write("name,label\nnorth,North\nsouth,South\n", "regions.csv")
        try write("name,label,region,population\nn1,Alpha,north,120\nn2,Beta,north,80\ns1,Gamma,south,300\n", "villages.csv")
        let (q, warnings) = try loaded()
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(q.fields[0].kind, .choice(list: "regions.csv", names: ["north", "south"], multiple: false))
        XCTAssertEqual(q.fields[1].choiceLabels["s1"], "Gamma")
        let north = Record(["region": .string("north")])
        XCTAssertEqual(q.choices(for: 1, in: north, clock: .wall).map(\.name), ["n1", "n2"], "choice_filter reads the file's region column")
        XCTAssertEqual(q.ruleProblem(1, value: .string("s1"), in: north, clock: .wall), "“s1” is not one of the choices of Village")
        let done = q.completed(Record(["region": .string("north"), "village": .string("n2"), "ok": .string("yes")]), clock: .wall)
        XCTAssertEqual(done["people"], .string("80"), "pulldata finds the row whose name is the village")
        XCTAssertEqual(done["ok_label"], .string("Yes indeed"), "instance() reads a choice list of the form too")
        XCTAssertEqual(done["second"], .string("Beta"), "a number in a predicate is a position")
    }

    func testAMissingFileIsAWarningAndTheListIsEmpty() throws {
        try write("name,label\nnorth,North\n", "regions.csv")
        let (q, warnings) = try loaded()
        XCTAssertEqual(warnings.map(\.message), ["the list file villages.csv is not beside the form: attach it with survey form attach FORM villages.csv"])
        XCTAssertEqual(q.fields[1].kind, .choice(list: "villages.csv", names: [], multiple: false))
        XCTAssertEqual(q.completed(Record(["village": .string("n1")]), clock: .wall)["people"], nil, "pulldata of a missing file is empty")
    }

    /// `pulldata('prices', …)` reads prices.csv, else prices.xml: a prices.csv that is there
    /// but cannot be read (a symbolic link that loops) leaves the XML to be read, and says
    /// why only when nothing could be (a reviewer's find: the first failure stopped the search).
    func testAnUnreadableCSVLeavesTheXMLOfTheSameNameToPulldata() throws {
        let form = try FormTestSupport.form("""
            survey,,,,
            ,type,name,label,calculation
            ,text,code,Code,
            ,calculate,price,,"pulldata('prices', 'price', 'code', ${code})"
            """)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("prices.csv").path,
                                                   withDestinationPath: "prices.csv")
        try write("<root><item><code>a</code><price>3</price></item></root>", "prices.xml")
        let (loaded, warnings) = form.loadingMedia(from: folder)
        XCTAssertEqual(warnings.map(\.message), [])
        XCTAssertEqual(Questionnaire(form: loaded).completed(Record(["code": .string("a")]), clock: .wall)["price"], .string("3"))

        try FileManager.default.removeItem(at: folder.appendingPathComponent("prices.xml"))
        let (_, alone) = form.loadingMedia(from: folder)
        XCTAssertEqual(alone.map(\.message), ["the list file prices.csv cannot be read: prices.csv could not be read (Too many levels of symbolic links)"])
    }

    func testAnXMLListReadsAsODKWritesIt() throws {
        try write("name,label\nnorth,North\n", "regions.csv")
        let xml = "<root><item><name>n1</name><label>Alpha &amp; co</label><region>north</region></item><item><name>s1</name><label>Gamma</label><region>south</region></item></root>"
        // pulldata('villages', …) reads villages.csv, another source of the instance name
        // than villages.xml: refused, as pyxform refuses it; a path reads the XML list.
        let both = Self.form.replacingOccurrences(of: "villages.csv", with: "villages.xml")
        XCTAssertEqual(XLSForm.read(try XLSFormSheets.csv(both)).errors.map(\.row), [5])
        let form = try FormTestSupport.form(both.replacingOccurrences(of: "pulldata('villages', 'population', 'name', ${village})",
                                                                      with: "instance('villages')/root/item[name = ${village}]/population"))
        try write(xml, "villages.xml")
        let q = Questionnaire(form: form.loadingMedia(from: folder).form)
        XCTAssertEqual(q.fields[1].choiceLabels, ["n1": "Alpha & co", "s1": "Gamma"])
        XCTAssertEqual(q.completed(Record(["village": .string("s1")]), clock: .wall)["people"], nil, "no population column: empty")
    }

    func testAListFileMustBeCSVOrXML() throws {
        let result = XLSForm.read(try XLSFormSheets.csv("survey,,,\n,type,name,label\n,select_one_from_file towns.txt,town,Town\n"))
        XCTAssertEqual(result.errors.map(\.description),
                       ["survey row 3, type: the list file of select_one_from_file must end in .csv or .xml (or .geojson): “towns.txt”"])
    }

    /// A 5,000-row list is read once, when the questionnaire is made, and narrowed by its filter.
    func testAFiveThousandRowListLoadsOnce() throws {
        try write("name,label\nnorth,North\nsouth,South\n", "regions.csv")
        var csv = "name,label,region,population\n"
        for i in 0..<5_000 { csv += "v\(i),Village \(i),\(i % 2 == 0 ? "north" : "south"),\(i)\n" }
        try write(csv, "villages.csv")
        let (q, _) = try loaded()
        guard case .choice(_, let names, _) = q.fields[1].kind else { return XCTFail("not a choice") }
        XCTAssertEqual(names.count, 5_000)
        XCTAssertEqual(q.choices(for: 1, in: Record(["region": .string("south")]), clock: .wall).count, 2_500)
        XCTAssertTrue(q.form?.media === q.nextLanguage()?.form?.media ?? q.form?.media, "the rows are shared, not read again")
        XCTAssertEqual(q.completed(Record(["region": .string("south"), "village": .string("v4999")]), clock: .wall)["people"], .string("4999"))
    }

    /// A FIFO or a 3 GB sparse file named as a list is refused at once, never read (a FIFO
    /// would block the app opening the form forever).
    func testAListThatIsAPipeOrHugeIsRefusedWithoutReading() throws {
        try write("name,label\nnorth,North\n", "regions.csv")
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("villages.csv").path, 0o600), 0)
        let (_, warnings) = try loaded()
        XCTAssertTrue(warnings.contains { $0.message.contains("villages.csv is not a regular file") }, "\(warnings)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("villages.csv"))
        FileManager.default.createFile(atPath: folder.appendingPathComponent("villages.csv").path, contents: nil)
        XCTAssertEqual(truncate(folder.appendingPathComponent("villages.csv").path, 3 << 30), 0)
        let (_, again) = try loaded()
        XCTAssertTrue(again.contains { $0.message.contains("a choice list is at most 128 MB") }, "\(again)")
    }

    /// A list file a select reads with something wrong in it is said, with the file and
    /// where in it (they all passed in silence): no `name` column, text that is not UTF-8,
    /// rows without a name, a name given twice. A file only `pulldata` reads needs no `name`.
    func testAListFilesProblemsAreSaidWithTheFileAndTheRow() throws {
        let form = try FormTestSupport.form("""
            survey,,,,
            ,type,name,label,calculation
            ,select_one_from_file fruits.csv,fruit,Fruit,
            ,select_one_from_file veg.csv,veg,Veg,
            ,select_multiple_from_file dup.csv,d,D,
            ,select_one_from_file items.xml,x,X,
            ,calculate,price,,"pulldata('prices', 'price', 'code', ${fruit})"
            """)
        try write("label,code\nApple,a\nPear,p\n", "fruits.csv")
        try Data(Array("name,label\nleek,Leek\n\"c".utf8) + [0xE9] + Array("leri\",Celery\n".utf8))
            .write(to: folder.appendingPathComponent("veg.csv"))
        try write("name,label\na,A\nb,B\na,A again\n,nameless\n\nb,B again\n", "dup.csv")
        try write("<root><item><label>One</label></item><item><name>1</name><label>x</label></item><item><name>1</name></item></root>", "items.xml")
        try write("code,price\na,3\n", "prices.csv")
        let (loaded, warnings) = form.loadingMedia(from: folder)
        XCTAssertEqual(warnings.map(\.message), [
            "the list file fruits.csv has no name column (its columns: label, code): its list is empty",
            "the list file veg.csv cannot be read: line 3 is not UTF-8 text (save the file as “CSV UTF-8”, or XML in UTF-8)",
            "the list file dup.csv: row 5 has no name: left out of the list",
            "the list file dup.csv gives a name twice: “a” (row 2 and row 4), “b” (row 3 and row 7): an answer cannot tell them apart",
            "the list file items.xml: item 1 has no name: left out of the list",
            "the list file items.xml gives a name twice: “1” (item 2 and item 3): an answer cannot tell them apart",
        ])
        XCTAssertEqual(loaded.choices["fruits.csv"], [])
        XCTAssertEqual(loaded.choices["veg.csv"], [])
        XCTAssertEqual(loaded.choices["dup.csv"]?.map(\.name), ["a", "b", "a", "b"], "both kept, as ODK Collect shows them")
        XCTAssertEqual(Questionnaire(form: loaded).completed(Record(["fruit": .string("a")]), clock: .wall)["price"], .string("3"))
    }

    func testSheetNamesAreReadInAnyCase() throws {
        let result = XLSForm.read(try XLSFormSheets.csv("SURVEY,,,\n,type,name,label\n,select_one yn,ok,OK\nChoices,,,\n,list_name,name,label\n,yn,yes,Yes\nSETTINGS,,,\n,form_title,form_id,\n,T,tid,\n"))
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.form?.choices["yn"]?.map(\.name), ["yes"])
        XCTAssertEqual(result.form?.formID, "tid")
    }

    func testPathsAreParsedIntoLookups() throws {
        XCTAssertEqual(try FormExpression(parsing: "instance('c1')/root/item[name = ${q1}]/label"),
                       .call("instance", [.string("c1"), .string("label"), .binary(.equal, .choiceColumn("name"), .field("q1"))]))
        XCTAssertEqual(try FormExpression(parsing: "current()/../pos + 1"), .binary(.plus, .field("pos"), .number(1)))
        XCTAssertThrowsError(try FormExpression(parsing: "instance('c1')")) { error in
            XCTAssertEqual("\(error)", "instance('c1') is read as instance('c1')/root/item[name = ${q}]/label")
        }
        XCTAssertEqual(try FormExpression(parsing: "pulldata('f', 'a', 'b', .)").instanceNames, ["f"])
    }
}
