import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `deviceid` and `username` are filled from the laptop: its sync name and its login, each
/// overridable by the environment.
final class DeviceMetadataTests: XCTestCase {
    func testTheEnvironmentNamesTheEnumeratorAndTheLaptop() {
        let given = DeviceMetadata.current(environment: ["SURVEY_USERNAME": " ana.lima ", "SURVEY_DEVICE": "laptop-7"])
        XCTAssertEqual(given, DeviceMetadata(deviceID: "laptop-7", username: "ana.lima"))
    }

    func testWithoutItTheLoginAndTheHostNameAreUsed() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let found = DeviceMetadata.current(environment: ["XDG_STATE_HOME": state.path])
        let login = try XCTUnwrap(getpwuid(geteuid())).pointee.pw_name.map { String(cString: $0) }
        XCTAssertEqual(found.username, login)
        XCTAssertFalse(found.username.isEmpty)
        XCTAssertEqual(found.deviceID, SyncDevice.current(environment: ["XDG_STATE_HOME": state.path]))
        XCTAssertTrue(found.deviceID.hasPrefix("survey:"))
        XCTAssertEqual(DeviceMetadata.current(environment: ["SURVEY_USERNAME": "  "]).username, login, "blank is not a name")
    }

    /// A form's `username` row is stored with the login, as Collect stores its settings' name;
    /// it is no longer warned about as metadata a laptop lacks.
    func testAFormsUsernameRowIsFilledAndNotWarnedAbout() throws {
        let csv = "survey,,,\n,type,name,label\n,username,who,\n,text,name,Name\n"
        let result = XLSForm.read(try XLSFormSheets.csv(csv))
        XCTAssertFalse(result.warnings.contains { $0.description.contains("username") }, "\(result.warnings)")
        let q = Questionnaire(form: try XCTUnwrap(result.form))
        let stored = q.completed(Record(["name": .string("Ana")]), device: DeviceMetadata(deviceID: "d", username: "ana.lima"), clock: .wall)
        XCTAssertEqual(stored["who"], .string("ana.lima"))
    }
}
