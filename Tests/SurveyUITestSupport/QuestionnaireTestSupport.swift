import Foundation
import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI
import SurveyStorage

/// The example form kept in the repository (Examples/household.csv), as the app runs it.
public func householdQuestionnaire(language: String? = nil) throws -> Questionnaire {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/household.csv").standardizedFileURL
    let result = XLSForm.read(try XLSFormSheets.read(fileAt: url.path))
    guard let form = result.form else { throw DocumentError("household.csv: \(result.errors)") }
    return Questionnaire(form: form, language: language)
}

/// A state running the household form, its clock pinned to 2026-11-30 10:00 UTC.
public func householdState(_ records: [Record] = [], width: Int = 120, height: Int = 40) throws -> AppState {
    var s = AppState(documentName: "Households", loaded: .success(SurveyDocument(records: records)),
                     size: Size(width: width, height: height), questionnaire: try householdQuestionnaire(), environment: .forTests)
    s.environment.timeZone = .utc
    s.environment.clock = .pinned(Date(timeIntervalSince1970: 1_796_032_800))   // 2026-11-30T10:00:00Z
    s.environment.device = DeviceMetadata(deviceID: "survey:test", username: "enumerator1")
    return s
}

extension AppState {
    /// The row of a question by its name among the top level's fields (what the form's
    /// rules, `formRelevance`, go by).
    public func fieldIndex(_ name: String) -> Int {
        questionnaire.fields.firstIndex { $0.key == name }!
    }

    /// The entry of a question by its name in the walk the form shows now (in a roster, its
    /// member shown): what the highlight and the field being typed go by.
    public func entry(_ name: String) -> EntryNumber {
        let walk = outline
        return walk.indices.first { walk.heading($0) == nil && walk.field($0).key == name }!
    }

    /// The form's text, for looking at.
    public var screenText: String { Screen.render(self).lines.joined(separator: "\n") }
}

/// The roster example kept in the repository (Examples/roster.csv): a village, a `member`
/// repeat (name, age, school for the young) and a count of the members after it.
public func rosterQuestionnaire() throws -> Questionnaire {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/roster.csv").standardizedFileURL
    let result = XLSForm.read(try XLSFormSheets.read(fileAt: url.path))
    guard let form = result.form else { throw DocumentError("roster.csv: \(result.errors)") }
    return Questionnaire(form: form)
}

/// A state running the roster form, its clock pinned as `householdState`'s.
public func rosterState(_ records: [Record] = [], width: Int = 120, height: Int = 40) throws -> AppState {
    var s = AppState(documentName: "Roster", loaded: .success(SurveyDocument(records: records)),
                     size: Size(width: width, height: height), questionnaire: try rosterQuestionnaire(), environment: .forTests)
    s.environment.timeZone = .utc
    s.environment.clock = .pinned(Date(timeIntervalSince1970: 1_796_032_800))
    return s
}

/// A form written as an XLSForm's CSV in the test itself (`survey,,,\n,type,name,label…`),
/// read as `survey form attach` reads one.
public func questionnaire(csv: String) throws -> Questionnaire {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("form-\(UUID().uuidString).csv")
    try Data(csv.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = XLSForm.read(try XLSFormSheets.read(fileAt: url.path))
    guard let form = result.form else { throw DocumentError("the test's form: \(result.errors)") }
    return Questionnaire(form: form)
}

/// A state running that form on an empty document (or `records`), its clock pinned as
/// `householdState`'s.
public func formState(csv: String, records: [Record] = [], documentName: String = "Plots", width: Int = 100,
                      height: Int = 40) throws -> AppState {
    var s = AppState(documentName: documentName, loaded: .success(SurveyDocument(records: records)),
                     size: Size(width: width, height: height), questionnaire: try questionnaire(csv: csv), environment: .forTests)
    s.environment.clock = .pinned(Date(timeIntervalSince1970: 1_796_032_800))
    return s
}
