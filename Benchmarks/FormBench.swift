import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Issue 10's figures: a survey designer's 500-question XLSForm, generated here the same way
/// every run (pyxform's CSV layout, and an .xlsx of it when python3 has openpyxl), then
/// - the time to read and check it (`XLSFormSheets.read(fileAt:)` + `XLSForm.read` +
///   `Questionnaire(form:)`, what opening a document with a form costs),
/// - the form's rules per committed answer on a survey half keyed (`ruleProblem`, `settled`,
///   `relevance`), and the whole-record check [ Add ] makes (`problems(in:)`),
/// - the keys of browsing it in-process on a document of surveys answering it: `update` and
///   the frame (`Screen.render` into the grid kept from the frame before) timed apart, at
///   120x40, for ↓, Tab and → (median and p99).
/// Printed only; nothing asserts a time.
enum FormBench {
    /// The plots a household farms: 20 sections of 25 rows each.
    static let sections = 20
    static let rowsPerSection = 25
    static var questionCount: Int { sections * rowsPerSection }

    /// `today()` and `now()` pinned, so every run evaluates the same rules the same way.
    static let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_767_225_600),   // 2026-01-01
                                           timeZone: .utc)

    static let regions = ["north", "south", "east", "west"]
    static let waters = ["tap", "well", "river", "rain", "canal", "other"]
    static let ratings = ["very_good", "good", "fair", "poor", "very_poor"]
    static let crops: [String] = {
        let plants = ["maize", "sorghum", "millet", "rice", "cassava", "yam", "beans", "cowpea", "groundnut", "sesame",
                      "cotton", "coffee", "tea", "banana", "tomato", "onion"]
        let kinds = ["local", "improved", "hybrid", "seed"]
        return (0..<60).map { "\(plants[$0 % plants.count])_\(kinds[$0 / plants.count])" }
    }()

    // MARK: The form

    /// The form in pyxform's CSV layout: 500 survey rows (20 groups of a plot's questions:
    /// text, integers with constraints, decimals, dates, times, select_one and select_multiple,
    /// a cascading district list filtered by region, calculations chained within a group and
    /// across all of them, notes, required answers, groups shown by earlier answers), two label
    /// languages, choice lists, settings with an instance_name.
    static func formCSV() -> String {
        let header = ["", "type", "name", "label::English (en)", "label::Français (fr)", "hint::English (en)",
                      "required", "required_message", "constraint", "constraint_message", "relevant", "calculation",
                      "choice_filter", "default", "appearance"]
        let width = header.count
        func row(_ type: String, _ name: String, _ en: String = "", _ fr: String = "", hint: String = "",
                 required: String = "", requiredMessage: String = "", constraint: String = "", constraintMessage: String = "",
                 relevant: String = "", calculation: String = "", choiceFilter: String = "", defaultValue: String = "",
                 appearance: String = "") -> [String] {
            ["", type, name, en, fr, hint, required, requiredMessage, constraint, constraintMessage, relevant, calculation,
             choiceFilter, defaultValue, appearance]
        }
        var rows: [[String]] = [["survey"] + Array(repeating: "", count: width - 1), header]
        for k in 0..<sections {
            let p = "plot\(k)"
            let n = k + 1
            // Odd plots are asked about when the one before was not a poor season; even ones
            // when the one before had people working it: answers cascade down the form.
            let groupRelevant = k == 0 ? "" : k % 2 == 1 ? "${plot\(k - 1)_rating} != 'very_poor'" : "${plot\(k - 1)_workers} > 0"
            let runningTotal = k == 0 ? "coalesce(${\(p)_family}, 0)"
                : "coalesce(${plot\(k - 1)_total_family}, 0) + coalesce(${\(p)_family}, 0)"
            rows += [
                row("begin group", p, "Plot \(n)", "Parcelle \(n)", relevant: groupRelevant, appearance: "field-list"),
                row("note", "\(p)_intro", "Questions about plot \(n): who works it, what grows, what was sold.",
                    "Questions sur la parcelle \(n) : qui la travaille, ce qui pousse, ce qui a été vendu."),
                row("text", "\(p)_name", "Name of plot \(n)", "Nom de la parcelle \(n)", hint: "As the household calls it",
                    required: "yes", requiredMessage: "Ask what the household calls the plot",
                    constraint: "string-length(.) <= 60", constraintMessage: "At most 60 characters"),
                row("integer", "\(p)_workers", "People working it", "Personnes qui y travaillent", required: "yes",
                    constraint: ". >= 0 and . <= 40", constraintMessage: "0 to 40 people"),
                row("integer", "\(p)_hired", "Of them hired", "Dont salariés",
                    constraint: ". >= 0 and . <= ${\(p)_workers}", constraintMessage: "Cannot be more than the people working it"),
                row("calculate", "\(p)_family", "Family workers", "Travailleurs familiaux",
                    calculation: "${\(p)_workers} - ${\(p)_hired}"),
                row("calculate", "\(p)_total_family", "Family workers so far", "Travailleurs familiaux cumulés",
                    calculation: runningTotal),
                row("decimal", "\(p)_area", "Area (ha)", "Surface (ha)", hint: "Hectares, e.g. 1.5",
                    constraint: ". > 0 and . <= 500", constraintMessage: "More than 0 and at most 500 ha"),
                row("date", "\(p)_planted", "Date planted", "Date de semis", hint: "YYYY-MM-DD",
                    constraint: ". <= today()", constraintMessage: "Cannot be in the future"),
                row("select_one yesno", "\(p)_irrigated", "Is it irrigated?", "Est-elle irriguée ?", required: "yes"),
                row("select_multiple water", "\(p)_water", "Water sources", "Sources d'eau", hint: "Space chooses each one",
                    constraint: "count-selected(.) <= 3", constraintMessage: "At most three",
                    relevant: "${\(p)_irrigated} = 'yes'"),
                row("text", "\(p)_water_other", "Other source", "Autre source", required: "yes",
                    relevant: "selected(${\(p)_water}, 'other')"),
                row("select_one region", "\(p)_region", "Region", "Région", required: "yes", defaultValue: k == 0 ? "north" : ""),
                row("select_one district", "\(p)_district", "District", "District", required: "yes",
                    choiceFilter: "region = ${\(p)_region}"),
                row("select_one crop", "\(p)_crop", "Main crop", "Culture principale", appearance: "minimal"),
                row("select_multiple crop", "\(p)_crops_other", "Other crops", "Autres cultures",
                    constraint: "not(selected(., ${\(p)_crop}))", constraintMessage: "The main crop is already chosen"),
                row("integer", "\(p)_harvest", "Harvest (kg)", "Récolte (kg)",
                    constraint: ". >= 0 and . <= 1000000", constraintMessage: "0 to 1,000,000 kg"),
                row("calculate", "\(p)_yield", "Yield (kg/ha)", "Rendement (kg/ha)",
                    calculation: "if(${\(p)_area} > 0, round(${\(p)_harvest} div ${\(p)_area}, 1), '')"),
                row("begin group", "\(p)_sale", "Sales", "Ventes", relevant: "${\(p)_harvest} > 0"),
                row("select_one yesno", "\(p)_sold", "Sold any of it?", "En a vendu ?"),
                row("decimal", "\(p)_price", "Price per kg", "Prix au kg", required: "${\(p)_sold} = 'yes'",
                    constraint: ". > 0", relevant: "${\(p)_sold} = 'yes'"),
                row("time", "\(p)_market_time", "Time at the market", "Heure au marché", hint: "HH:MM",
                    relevant: "${\(p)_sold} = 'yes'"),
                row("end group", ""),
                row("select_one rating", "\(p)_rating", "How was the season?", "Comment était la saison ?"),
                row("end group", ""),
            ]
        }
        func choice(_ list: String, _ name: String, _ en: String, _ fr: String, region: String = "") -> [String] {
            ["", list, name, en, fr, region] + Array(repeating: "", count: width - 6)
        }
        rows.append(["choices"] + Array(repeating: "", count: width - 1))
        rows.append(["", "list_name", "name", "label::English (en)", "label::Français (fr)", "region"] + Array(repeating: "", count: width - 6))
        rows += [choice("yesno", "yes", "Yes", "Oui"), choice("yesno", "no", "No", "Non")]
        for r in regions { rows.append(choice("region", r, r.capitalized, r.capitalized)) }
        for (i, r) in regions.enumerated() {
            for d in 0..<4 { rows.append(choice("district", "d\(i)\(d)", "\(r.capitalized) district \(d + 1)", "District \(r) \(d + 1)", region: r)) }
        }
        for w in waters { rows.append(choice("water", w, w.capitalized, w.capitalized)) }
        for r in ratings { rows.append(choice("rating", r, r.replacingOccurrences(of: "_", with: " ").capitalized, r)) }
        for c in crops {
            let words = c.split(separator: "_")
            rows.append(choice("crop", c, "\(words[0].capitalized) (\(words[1]))", "\(words[0]) (\(words[1]))"))
        }
        rows.append(["settings"] + Array(repeating: "", count: width - 1))
        rows.append(["", "form_title", "form_id", "version", "instance_name", "default_language"] + Array(repeating: "", count: width - 6))
        rows.append(["", "Farm plots (benchmark)", "plots_bench", "2026010101", "concat(${plot0_name}, ' – ', ${plot0_crop})",
                     "English (en)"] + Array(repeating: "", count: width - 6))
        return CSV.text(rows)
    }

    /// The same sheets as an .xlsx written by openpyxl (as a spreadsheet program writes it:
    /// deflated parts, shared strings), or nil when python3 or openpyxl is missing.
    static func writeWorkbook(fromCSV csv: URL, to xlsx: URL) -> Bool {
        let script = """
            import csv, sys
            try: import openpyxl
            except ImportError: sys.exit(3)
            wb = openpyxl.Workbook(); wb.remove(wb.active); ws = None
            for cells in csv.reader(open(sys.argv[1], encoding='utf-8')):
                if cells and cells[0]:
                    ws = wb.create_sheet(cells[0]); continue
                if ws is not None: ws.append(cells[1:])
            wb.save(sys.argv[2])
            """
        return (try? LoadBenchmark.run(["python3", "-c", script, csv.path, xlsx.path])) != nil
    }

    // MARK: Answers

    /// The typed answer of survey `i` to the question at `index` (nil: left unanswered), each
    /// obeying the form's rules.
    static func answer(_ field: FieldSpec, survey i: Int) -> String? {
        let key = field.key
        guard key.hasPrefix("plot"), let cut = key.firstIndex(of: "_"), let k = Int(key[key.index(key.startIndex, offsetBy: 4)..<cut]) else { return nil }
        let question = String(key[key.index(after: cut)...])
        let workers = (i + k) % 9 + 1
        let hired = (i * 7 + k) % (workers + 1)
        let irrigated = (i + k) % 3 != 0
        let harvest = (i * 37 + k * 11) % 5000
        let sold = (i + k) % 2 == 0
        let waterPick = [waters[(i + k) % waters.count], waters[(i * 3 + k + 1) % waters.count]]
        let region = (i + k) % regions.count
        let crop = (i * 5 + k) % crops.count
        switch question {
        case "name": return ["Upper field", "Riverside", "Old orchard", "Near the road", "Behind the school", "Hill plot"][(i + k) % 6] + " \(i)"
        case "workers": return String(workers)
        case "hired": return String(hired)
        case "area": return String(format: "%.2f", 0.25 + Double((i * 13 + k) % 40) / 4)
        case "planted": return String(format: "2025-%02d-%02d", (i + k) % 9 + 1, (i * 3 + k) % 28 + 1)
        case "irrigated": return irrigated ? "yes" : "no"
        case "water": return irrigated ? Array(Set(waterPick)).sorted().joined(separator: " ") : nil
        case "water_other": return irrigated && waterPick.contains("other") ? "Neighbour's pump" : nil
        case "region": return regions[region]
        case "district": return "d\(region)\((i + k) % 4)"
        case "crop": return crops[crop]
        case "crops_other": return (i + k) % 4 == 0 ? nil : "\(crops[(crop + 1) % crops.count]) \(crops[(crop + 7) % crops.count])"
        case "harvest": return String(harvest)
        case "sold": return harvest > 0 ? (sold ? "yes" : "no") : nil
        case "price": return harvest > 0 && sold ? String(format: "%.2f", 0.1 + Double((i + k) % 50) / 10) : nil
        case "market_time": return harvest > 0 && sold ? String(format: "%02d:%02d", 6 + (i + k) % 8, (i * 7) % 60) : nil
        case "rating": return ratings[(i * 3 + k) % (ratings.count - 1)]   // never very_poor: every plot is asked
        default: return nil
        }
    }

    /// Survey `i` with the questions of the first `sections` plots answered, settled as the
    /// form keeps it (calculations filled in, answers of hidden questions dropped).
    static func survey(_ i: Int, answeringSections sections: Int, of questionnaire: Questionnaire) -> Record {
        var record = Record()
        for field in questionnaire.fields where field.kind.isAnswered {
            guard let k = Int(field.key.dropFirst(4).prefix { $0.isNumber }), k < sections,
                  let text = answer(field, survey: i), case .success(let value?) = field.parse(text) else { continue }
            record.values[field.key] = value
        }
        var hidden: [String: PropertyValue] = [:]
        return questionnaire.settled(record, hidden: &hidden, clock: clock)
    }

    // MARK: Measuring

    struct Spread {
        var times: [Double]
        init(_ times: [Double]) { self.times = times.sorted() }
        var median: Double { times[times.count / 2] }
        var p99: Double { times[Swift.min(times.count - 1, Int((Double(times.count - 1) * 0.99).rounded()))] }
        var min: Double { times.first! }
        var max: Double { times.last! }
    }

    /// A key's `update` and its frame, timed apart.
    struct KeySpread {
        var update: Spread, frame: Spread
        var line: String {
            "update \(ms(update.median)) / \(ms(update.p99))   frame \(ms(frame.median)) / \(ms(frame.p99))  (\(update.times.count) keys)"
        }
    }

    static func ms(_ s: Double) -> String { String(format: s < 1e-3 ? "%.3f" : "%.2f", s * 1e3) }

    /// Each run timed on its own.
    static func timings(runs: Int, _ body: (Int) throws -> Void) rethrows -> Spread {
        var times: [Double] = []
        for r in 0..<runs { times.append(try seconds { try body(r) }) }
        return Spread(times)
    }

    struct Loaded {
        var read: Double, check: Double, build: Double
        var total: Double { read + check + build }
    }

    /// Reads and checks a form file `runs` times; the parts of each run and the questionnaire.
    static func load(_ path: String, runs: Int) throws -> (Spread, Loaded, Questionnaire) {
        var parts: [Loaded] = []
        var questionnaire: Questionnaire?
        for _ in 0..<runs {
            var sheets: XLSFormSheets?
            var form: XLSForm?
            let read = try seconds { sheets = try XLSFormSheets.read(fileAt: path) }
            let check = seconds {
                let result = XLSForm.read(sheets!)
                form = result.form
                precondition(result.errors.isEmpty, "the generated form must have no errors: \(result.errors)")
            }
            let build = seconds { questionnaire = Questionnaire(form: form!) }
            parts.append(Loaded(read: read, check: check, build: build))
        }
        let spread = Spread(parts.map(\.total))
        let median = parts.sorted { $0.total < $1.total }[parts.count / 2]
        return (spread, median, questionnaire!)
    }

    static func run(quick: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-form-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let csvURL = folder.appendingPathComponent("Plots.form.csv")
        try formCSV().write(to: csvURL, atomically: true, encoding: .utf8)
        let loadRuns = quick ? 3 : 15
        let recordCount = quick ? 50 : 1_000
        let answerRuns = quick ? 40 : 400
        let keyPresses = quick ? 40 : 600
        let size = Size(width: 120, height: 40)

        // Reading and checking the form.
        let (csvSpread, csvParts, questionnaire) = try load(csvURL.path, runs: loadRuns)
        let fields = questionnaire.fields
        precondition(fields.count == questionCount, "the form must have \(questionCount) rows, not \(fields.count)")
        let asked = fields.filter(\.kind.isAnswered).count
        let calculated = fields.filter { $0.kind == .calculated }.count
        let notes = fields.filter { $0.kind == .note }.count
        let groups = fields.filter { $0.kind == .groupStart }.count
        let choiceCount = questionnaire.form?.choices.values.map(\.count).reduce(0, +) ?? 0
        let csvBytes = (try? FileManager.default.attributesOfItem(atPath: csvURL.path)[.size] as? Int) ?? 0
        print("")
        print("form (\(fields.count) questions: \(asked) asked, \(calculated) calculate, \(notes) notes, \(groups) groups;"
              + " \(questionnaire.form?.choices.count ?? 0) choice lists, \(choiceCount) choices; two languages):")
        func loadLine(_ label: String, _ bytes: Int, _ spread: Spread, _ parts: Loaded) {
            print("  load+check \(label) \(String(format: "%5.0f KB", Double(bytes) / 1024))  median \(ms(spread.median)) ms"
                  + (spread.times.count == 1 ? "  (1 run)" : "  (min \(ms(spread.min)), max \(ms(spread.max)); \(spread.times.count) runs)")
                  + "  read \(ms(parts.read)) + XLSForm.read \(ms(parts.check)) + Questionnaire \(ms(parts.build)) ms")
        }
        loadLine(".csv ", csvBytes, csvSpread, csvParts)
        let xlsxURL = folder.appendingPathComponent("Plots.form.xlsx")
        if writeWorkbook(fromCSV: csvURL, to: xlsxURL) {
            let (spread, parts, fromWorkbook) = try load(xlsxURL.path, runs: quick ? 1 : loadRuns)   // ~0.3 s each in a debug build
            precondition(fromWorkbook.fields == questionnaire.fields && fromWorkbook.form?.choices == questionnaire.form?.choices,
                         "the .xlsx must read as the same form as the .csv")
            let bytes = (try? FileManager.default.attributesOfItem(atPath: xlsxURL.path)[.size] as? Int) ?? 0
            loadLine(".xlsx", bytes, spread, parts)
        } else {
            print("  load+check .xlsx skipped: python3 with openpyxl writes it (make test-deps installs openpyxl)")
        }

        // The rules per committed answer, on a survey with the first half of its plots keyed:
        // the answer judged (`required`, `constraint`), the survey settled (calculations,
        // hidden answers set aside), the questions shown worked out again.
        let half = survey(7, answeringSections: sections / 2, of: questionnaire)
        let answeredNow = fields.filter { $0.kind.isAnswered && half.values[$0.key] != nil }.count
        let targets = fields.indices.filter { fields[$0].kind.isAnswered && half.values[fields[$0].key] != nil }
        var constraintTimes: [Double] = [], settleTimes: [Double] = [], relevanceTimes: [Double] = []
        var hidden: [String: PropertyValue] = [:]
        var record = half
        for r in 0..<answerRuns {
            // Another survey's answer to one of the questions already answered, in turn.
            let index = targets[(r * 37) % targets.count]
            // (Or none, when that survey leaves it unanswered: clearing is a commit too.)
            var value: PropertyValue?
            if let text = answer(fields[index], survey: r + 100), case .success(let parsed) = fields[index].parse(text) { value = parsed }
            var start = DispatchTime.now().uptimeNanoseconds
            func lap() -> Double {
                let now = DispatchTime.now().uptimeNanoseconds
                defer { start = now }
                return Double(now - start) / 1e9
            }
            let problem = FormInstance(questionnaire, record: record, clock: clock).problem(at: QuestionPlace(FieldIndex(index)), value: value)
            constraintTimes.append(lap())
            if problem == nil { record.values[fields[index].key] = value }   // as the form stores an accepted answer
            record = questionnaire.settled(record, hidden: &hidden, clock: clock)
            settleTimes.append(lap())
            _ = FormInstance(questionnaire, record: record, clock: clock).relevance()
            relevanceTimes.append(lap())
        }
        let perAnswer = Spread(constraintTimes.indices.map { constraintTimes[$0] + settleTimes[$0] + relevanceTimes[$0] })
        let check = timings(runs: answerRuns / 4) { _ in _ = FormInstance(questionnaire, record: half, clock: clock).problems() }
        print("  rules per answer  median \(ms(perAnswer.median)) ms  p99 \(ms(perAnswer.p99)) ms"
              + "  (constraint \(ms(Spread(constraintTimes).median)) + settled \(ms(Spread(settleTimes).median))"
              + " + relevance \(ms(Spread(relevanceTimes).median)) ms; \(perAnswer.times.count) answers"
              + " on a survey with \(answeredNow) of \(asked) answered at the start)")
        print("  whole-survey check (problems(in:), the [ Add ] gate)  median \(ms(check.median)) ms  p99 \(ms(check.p99)) ms")

        // Browsing the form in-process: update + a frame into a CellGrid, per key.
        var surveys: [Record] = []
        let made = seconds {
            surveys = (0..<recordCount).map { survey($0, answeringSections: sections, of: questionnaire) }
        }
        let document = SurveyDocument(records: surveys)
        var state = AppState(documentName: "Plots", loaded: .success(document), size: size, questionnaire: questionnaire, environment: AppEnvironment(clock: .system))
        _ = update(&state, .list(.focusForm))
        precondition(state.inputMode == .formBrowsing, "the form must be browsing, not \(state.inputMode)")
        let start = state
        var grid = Screen.render(start)
        func keys(_ action: Action, reset: (inout AppState, Int) -> Void) -> KeySpread {
            state = start
            var updates: [Double] = [], frames: [Double] = []
            for r in 0..<keyPresses {
                reset(&state, r)   // untimed: back to the start at the end
                updates.append(seconds { _ = update(&state, action) })
                // Into the grid of the frame before, as the terminal draws.
                frames.append(seconds { Screen.render(state, into: &grid) })
            }
            return KeySpread(update: Spread(updates), frame: Spread(frames))
        }
        let frame = timings(runs: keyPresses / 4) { _ in _ = Screen.render(start) }
        // ↓ from the first question down to [ Add ], then from the first again (whatever ↓
        // skips on the way).
        let down = keys(.form(.moveHighlight(1))) { s, _ in if s.formItem == .add { s.form.highlight(.field(EntryNumber(0))) } }
        let tab = keys(.form(.cycleHighlight(1))) { _, _ in }
        // → with the highlight mid-form, through the surveys (back to the first at the last).
        let right = keys(.form(.nextRecord)) { s, r in
            if case .record(let i) = s.shown, r > 0, i < recordCount - 1 { return }
            s = start
            s.form.highlight(.field(EntryNumber(fields.count / 2)))
        }
        print("  \(recordCount) surveys answering it (made in \(format(made))), at \(size.width)x\(size.height), per key in ms (median / p99):")
        func keyLine(_ label: String, _ spread: KeySpread) {
            print("  form \(label) key  \(spread.line)")
        }
        keyLine("↓  ", down)
        keyLine("Tab", tab)
        keyLine("→  ", right)
        print("  a frame alone  median \(ms(frame.median)) ms")
    }
}
