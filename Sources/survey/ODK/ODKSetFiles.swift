import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// The files of an ODK CSV set on disk, for `survey import`: a folder (survey's export, or
/// ODK Central's zip unpacked), or its main table with the repeat tables beside it. The main
/// table is `FORMID.csv` when the form has that id and the file is there; else the one CSV
/// whose name every other CSV's starts with (`roster.csv` beside `roster-member.csv`); the
/// repeat tables are the CSVs named `MAIN-….csv`.
struct ODKSetFiles {
    let main: (name: String, text: String)
    let repeats: [(name: String, text: String)]

    init(path: String, formID: String?) throws {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw DocumentError("\(path) does not exist")
        }
        let folder = isFolder ? URL(fileURLWithPath: path) : URL(fileURLWithPath: path).deletingLastPathComponent()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.lowercased().hasSuffix(".csv") && !$0.hasPrefix(".") }.sorted()
        let base: String
        if !isFolder {
            base = String(URL(fileURLWithPath: path).lastPathComponent.dropLast(4))
        } else if let formID, names.contains(FileNames.safe(formID) + ".csv") {
            // Named as the export names it: a form id is made a plain file name there.
            base = FileNames.safe(formID)
        } else {
            let stems = names.map { String($0.dropLast(4)) }
            let mains = stems.filter { stem in stems.allSatisfy { $0 == stem || $0.hasPrefix(stem + "-") } }
            guard mains.count == 1 else {
                throw DocumentError("\(path) holds no ODK CSV set: no one CSV file there names the others "
                    + "(a main table FORMID.csv beside its repeat tables FORMID-REPEAT.csv)")
            }
            base = mains[0]
        }
        func read(_ name: String) throws -> (name: String, text: String) {
            let url = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw DocumentError("\(url.path) could not be read")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw DocumentError("\(name): not UTF-8 text (save the spreadsheet as “CSV UTF-8”)")
            }
            return (name, text)
        }
        main = try read(base + ".csv")
        repeats = try names.filter { $0.hasPrefix(base + "-") }.map(read)
    }
}
