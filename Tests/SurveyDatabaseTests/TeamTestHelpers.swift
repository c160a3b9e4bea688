import Foundation
import XCTest
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage

/// What the tests where the team store meets other features share (TeamCrossingTests,
/// FixReviewTests): a document by name on a laptop, a sync of it, and the sums form.
extension DatabaseTestCase {
    func records(_ store: DocumentStore, _ name: String = "Field") throws -> [Record] {
        Array(try store.load(name).get().records)
    }

    func answer(_ store: DocumentStore, _ id: String, _ key: String, in name: String = "Field") throws -> PropertyValue? {
        try records(store, name).first { $0.instanceID == id }?[key]
    }

    /// One sync of `store`'s document `name` as `role`, what `survey sync` (or `pull`/`push`) runs.
    @discardableResult
    func sync(_ store: DocumentStore, _ name: String, as role: String, device: String,
              pull: Bool = true, push: Bool = true) throws -> DocumentSync.Result {
        try DocumentSync.run(store: store, document: name, target: target(as: role), device: device, pull: pull, push: push,
                             at: { Date() })
    }

    /// A change keyed into survey `id` of document `name`, written as the app saves it.
    func edit(_ store: DocumentStore, _ name: String, _ id: String, _ change: (inout Record) -> Void) throws {
        var document = try store.load(name).get()
        let i = try XCTUnwrap(document.records.firstIndex { $0.instanceID == id })
        change(&document.records[i])
        _ = try store.save(document, as: name)
    }

    /// A form with two numbers and their calculations, attached to `store`'s "Field" as `version`.
    func attachSums(to store: DocumentStore, version: String = "1") throws {
        let file = store.folder.appendingPathComponent("sums-\(UUID().uuidString.prefix(6)).csv")
        try Data("""
            survey
            ,type,name,label,calculation
            ,integer,a,A
            ,integer,b,B
            ,calculate,total,,${a} + ${b}
            ,calculate,twice,,${a} * 2
            settings
            ,form_title,form_id,version
            ,Sums,sums,\(version)

            """.utf8).write(to: file)
        _ = try store.attachForm(from: file.path, to: "Field", at: Date())
        try FileManager.default.removeItem(at: file)
    }

    /// The answers as the app saves them: the form's calculations with them.
    func sums(_ a: Int, _ b: Int) -> (inout Record) -> Void {
        { $0["a"] = .integer(a); $0["b"] = .integer(b); $0["total"] = .string("\(a + b)"); $0["twice"] = .string("\(a * 2)") }
    }
}
