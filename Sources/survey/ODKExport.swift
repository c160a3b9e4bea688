import FoundationEssentials
import SurveyModel

/// `survey export --format odk-csv|odk-xml --output FOLDER`: the files of ODK's CSV set, or
/// one ODK submission per survey in ODK Briefcase's storage layout, each written as
/// `ExportFile` writes (whole or not at all). Nothing is written when any file is already
/// there and `--force` was not given, so a second export never mixes with a first.
struct ODKExport {
    let format: DataFormat
    let folder: String
    let force: Bool
    let groupNames: Bool

    /// How many surveys were exported.
    func write(store: DocumentStore, name: String, questionnaire: Questionnaire) throws -> Int {
        let reader = try RecordBatchReader(store: store, name: name)
        var records: [Record] = []
        while let batch = try reader.next() { records += batch }
        let root = URL(fileURLWithPath: folder)
        var files: [(path: [String], text: String)] = []
        if format == .odkCSV {
            let formID = questionnaire.form?.formID.flatMap { $0.isEmpty ? nil : $0 } ?? name
            files = SurveyDocument(records: records)
                .odkCSVFiles(questionnaire: questionnaire, formID: formID, groupNames: groupNames)
                .map { ([$0.name], $0.text) }
        } else {
            for (i, record) in records.enumerated() {
                files.append((ODKSubmission.briefcasePath(record, questionnaire: questionnaire, fallbackID: "survey\(i + 1)"),
                              ODKSubmission.xml(record, questionnaire: questionnaire)))
            }
        }
        let urls = files.map { $0.path.reduce(root) { $0.appendingPathComponent($1) } }
        if !force, let there = urls.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            throw DocumentError("\(there.path) already exists (add --force to replace it)")
        }
        for (url, file) in zip(urls, files) {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw DocumentError("Could not create \(url.deletingLastPathComponent().path): \(error)")
            }
            do {
                try ExportFile.write(Data(file.text.utf8), to: url, replacing: force)
            } catch is ExportFile.AlreadyExists {
                throw DocumentError("\(url.path) already exists (add --force to replace it)")
            }
        }
        return records.count
    }
}
