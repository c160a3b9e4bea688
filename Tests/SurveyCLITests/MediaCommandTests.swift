import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// `survey form attach FORM [LIST-FILE…]` and `survey add` with a file answer: the files go
/// into `NAME.media/` beside the document.
final class MediaCommandTests: CLITestCase {
    private func makePlot() throws -> URL {
        let form = try scratchFile("plot.csv", """
            survey,,,
            ,type,name,label
            ,select_one_from_file towns.csv,town,Town
            ,image,photo,Photo
            ,geopoint,spot,Spot
            """)
        _ = try scratchFile("towns.csv", "name,label\nka,Kampala\nju,Juba\n")
        XCTAssertEqual(try survey("docs", "new", "Plot").status, 0)
        return form
    }

    func testAttachCopiesTheListsTheFormReads() throws {
        let form = try makePlot()
        let extra = try scratchFile("legend.png", "png")
        let attached = try survey("form", "attach", form.path, extra.path, "--doc", "Plot")
        XCTAssertEqual(attached.status, 0, attached.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: documents.appendingPathComponent("Plot.media").path).sorted(),
                       ["legend.png", "towns.csv"], "the one given, and the one beside the form")
        let refused = try survey("add", "--doc", "Plot", "--set", "town=zz")
        XCTAssertEqual(refused.stderr, "survey: town \"zz\": “zz” is not one of the choices of Town\n")
    }

    func testAddCopiesAFileAnswerAndStoresItsName() throws {
        let form = try makePlot()
        XCTAssertEqual(try survey("form", "attach", form.path, "--doc", "Plot").status, 0)
        let photo = try scratchFile("tree.jpg", "jpeg bytes")
        let added = try survey("add", "--doc", "Plot", "--set", "town=ju", "--set", "photo=\(photo.path)", "--set", "spot=0.3 32.5")
        XCTAssertEqual(added.status, 0, added.stderr)
        let stored = try XCTUnwrap(try store.load("Plot").get().records.first)
        XCTAssertEqual(stored["photo"], .string("tree.jpg"))
        XCTAssertEqual(stored["spot"], .string("0.3 32.5"))
        XCTAssertEqual(FileManager.default.contents(atPath: documents.appendingPathComponent("Plot.media/tree.jpg").path),
                       Data("jpeg bytes".utf8))
        let bad = try survey("add", "--doc", "Plot", "--set", "spot=95 32", "--set", "photo=\(root.path)/none.jpg")
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stderr, "survey: --set photo: there is no file at \(root.path)/none.jpg\n")
        let far = try survey("add", "--doc", "Plot", "--set", "spot=95 32")
        XCTAssertEqual(far.stderr, "survey: spot \"95 32\": Spot: the latitude 95 is not between -90 and 90\n")
    }

    /// A list file beside the form that is a link (to a key, to /etc/shadow) is refused before
    /// anything is made: `docs new --form` leaves no document behind, `add` copies no linked photo.
    func testALinkBesideTheFormOrAsAPhotoIsRefused() throws {
        let form = try scratchFile("plot.csv", "survey,,,\n,type,name,label\n,select_one_from_file towns.csv,town,Town\n,image,photo,Photo\n")
        let secret = try scratchFile("id_rsa", "PRIVATE KEY")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("towns.csv").path, withDestinationPath: secret.path)
        let refused = try survey("docs", "new", "Plot", "--form", form.path)
        XCTAssertEqual(refused, Outcome(status: 1, stdout: "", stderr: "survey: \(root.path)/towns.csv is a symbolic link to \(secret.path): "
                                        + "survey copies a file itself, never through a link (give the file's own path)\n"))
        XCTAssertEqual(try folderContents(), [], "nothing was created")
        try FileManager.default.removeItem(at: root.appendingPathComponent("towns.csv"))
        _ = try scratchFile("towns.csv", "name,label\nka,Kampala\n")
        XCTAssertEqual(try survey("docs", "new", "Plot", "--form", form.path).status, 0)
        let link = root.appendingPathComponent("photo.jpg")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: secret.path)
        let photo = try survey("add", "--doc", "Plot", "--set", "town=ka", "--set", "photo=\(link.path)")
        XCTAssertEqual(photo.status, 1)
        XCTAssertTrue(photo.stderr.contains("is a symbolic link to \(secret.path)"), photo.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: documents.appendingPathComponent("Plot.media").path), ["towns.csv"])
    }
}
