import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `Questionnaire(form:language:)`: one field per XLSForm row, of the right kind, with labels,
/// hints and choice labels in the chosen language; switching languages; and the original
/// five questions left exactly as they were.
final class QuestionnaireFromXLSFormTests: XCTestCase {
    private static let everyType = """
    survey,,,,,,,
    ,type,name,label,hint,required,calculation,relevant
    ,start,start,,,,,
    ,end,end,,,,,
    ,today,today,,,,,
    ,deviceid,device,,,,,
    ,note,intro,Welcome,,,,
    ,begin group,person,Person,,,,
    ,text,name,Name,Full name,yes,,
    ,integer,age,Age,In years,,,
    ,decimal,weight,,In kg,,,
    ,date,born,Born,,,,
    ,time,woke,Woke,,,,
    ,dateTime,seen,Seen,,,,
    ,select_one yn,smoker,Smokes?,,${age} >= 18,,
    ,select_multiple fruit or_other,fruits,Fruits,,no,,
    ,acknowledge,ok,Read back,,,,
    ,calculate,twice,,,,${age} * 2,
    ,geopoint,where,Where,,,,
    ,end group,,,,,,
    choices,,,,,,,
    ,list_name,name,label,,,,
    ,yn,yes,Yes,,,,
    ,yn,no,No,,,,
    ,fruit,apple,Apple,,,,
    ,fruit,mango,,,,,
    """

    func testEveryRowBecomesAFieldOfItsKindInFormOrder() throws {
        let q = try FormTestSupport.questionnaire(Self.everyType)
        XCTAssertEqual(q.fields.map(\.key), ["start", "end", "today", "device", "intro", "person", "name", "age", "weight",
                                             "born", "woke", "seen", "smoker", "fruits", "fruits_other", "ok", "twice",
                                             "where", ""])
        XCTAssertEqual(q.fields.map(\.kind), [
            .metadata("start"), .metadata("end"), .metadata("today"), .metadata("deviceid"), .note, .groupStart,
            .text(maxLength: Int.max), .wholeNumber(Int.min...Int.max), .decimal, .date, .time, .dateTime,
            .choice(list: "yn", names: ["yes", "no"], multiple: false),
            .choice(list: "fruit", names: ["apple", "mango", "other"], multiple: true),
            .text(maxLength: Int.max), .acknowledge, .calculated, .geo(.point), .groupEnd,
        ])
        XCTAssertEqual(q.fields.filter(\.kind.isAnswered).map(\.key),
                       ["name", "age", "weight", "born", "woke", "seen", "smoker", "fruits", "fruits_other", "ok", "where"])
        XCTAssertEqual(q.fields.filter(\.kind.isPicked).map(\.key), ["smoker", "fruits", "ok"])
        XCTAssertEqual(q.field(forKey: "name")?.label, "Name")
        XCTAssertEqual(q.field(forKey: "weight")?.label, "weight", "a question with a hint but no label shows its name")
        XCTAssertEqual(q.field(forKey: "name")?.hint, "Full name")
        XCTAssertEqual(q.field(forKey: "name")?.info, "Full name")
        XCTAssertEqual(q.field(forKey: "born")?.hint, "")
        XCTAssertEqual(q.fields.filter(\.isRequired).map(\.key), ["name", "smoker"],
                       "yes, or a condition, marks a question required; no does not")
        XCTAssertEqual(q.field(forKey: "fruits")?.choiceLabels, ["apple": "Apple", "mango": "mango", "other": "Other"],
                       "a choice without a label shows its name")
        XCTAssertTrue(q.fields.allSatisfy { !$0.storesEmptyText }, "ODK leaves unanswered questions out")
        XCTAssertEqual(q.form?.questions.count, q.fields.count)
        XCTAssertNil(q.language)
        XCTAssertEqual(q.languages, [])
        XCTAssertNil(q.nextLanguage(), "one language: nothing to switch to")
    }

    /// pyxform's `xls2json` reads the same rows as the same questions (groups flattened).
    func testTheFieldsArePyxformsQuestions() throws {
        let q = try FormTestSupport.questionnaire(Self.everyType)
        let oracle = FormTestSupport.pyxformQuestions(try FormTestSupport.pyxform(Self.everyType))
        func type(_ kind: FieldKind) -> String? {
            switch kind {
            case .text: return "text"
            case .wholeNumber: return "integer"
            case .decimal: return "decimal"
            case .date: return "date"
            case .time: return "time"
            case .dateTime: return "dateTime"
            case .choice(_, _, let multiple): return multiple ? "select all that apply" : "select one"
            case .acknowledge: return "acknowledge"
            case .note: return "note"
            case .calculated: return "calculate"
            case .groupStart: return "group"
            case .groupEnd: return nil
            case .geo(let g): return g.rawValue
            case .range: return "range"
            case .rank: return "rank"
            case .attachment(let a): return a == "image" ? "photo" : a
            case .metadata(let m): return m
            case .notCollected(let t): return t
            }
        }
        XCTAssertEqual(q.fields.compactMap { f in type(f.kind).map { "\($0) \(f.key)" } },
                       oracle.map { "\($0["type"] as? String ?? "?") \($0["name"] as? String ?? "?")" })
    }

    /// `or_other` as pyxform expands it, in a form with two languages: an `other` choice
    /// labelled "Other" in every language and an untranslated "Specify other." text question
    /// right after, asked only when `other` is picked.
    func testOrOtherIsExpandedAsPyxformExpandsIt() throws {
        let csv = """
        survey,,,,
        ,type,name,label::English,label::French
        ,select_multiple water or_other,water,Water,Eau
        ,select_one yn or_other,pick,Pick,Choisir
        choices,,,,
        ,list_name,name,label::English,label::French
        ,water,tap,Tap,Robinet
        ,yn,yes,Yes,Oui
        ,yn,other,Something else,Autre chose
        """
        let oracle = FormTestSupport.pyxformQuestions(try FormTestSupport.pyxform(csv))
        XCTAssertEqual(oracle.map { $0["name"] as? String }, ["water", "water_other", "pick", "pick_other"])
        let waterChoices = try XCTUnwrap(oracle[0]["choices"] as? [[String: Any]])
        XCTAssertEqual(waterChoices.map { $0["name"] as? String }, ["tap", "other"])
        XCTAssertEqual(waterChoices[1]["label"] as? [String: String], ["English": "Other", "French": "Other"])
        XCTAssertEqual(oracle[1]["label"] as? String, "Specify other.")
        XCTAssertEqual((oracle[1]["bind"] as? [String: String])?["relevant"], "selected(../water, 'other')")
        XCTAssertEqual((oracle[2]["choices"] as? [[String: Any]])?.map { $0["name"] as? String }, ["yes", "other"],
                       "a list that has an `other` keeps its own")

        for language in ["English", "French"] {
            let q = try FormTestSupport.questionnaire(csv, language: language)
            XCTAssertEqual(q.fields.map(\.key), ["water", "water_other", "pick", "pick_other"])
            XCTAssertEqual(q.field(forKey: "water")?.kind, .choice(list: "water", names: ["tap", "other"], multiple: true))
            XCTAssertEqual(q.field(forKey: "water")?.choiceLabels["other"], "Other", language)
            XCTAssertEqual(q.field(forKey: "water_other")?.label, "Specify other.", language)
            XCTAssertEqual(q.field(forKey: "water_other")?.kind, .text(maxLength: Int.max))
            XCTAssertEqual(q.field(forKey: "pick")?.kind, .choice(list: "yn", names: ["yes", "other"], multiple: false))
            XCTAssertEqual(q.field(forKey: "pick")?.choiceLabels["other"], language == "English" ? "Something else" : "Autre chose")
            XCTAssertEqual(q.shown(Record([:])), ["water", "pick"])
            XCTAssertEqual(q.shown(Record(["water": .string("tap other")])), ["water", "water_other", "pick"])
            XCTAssertEqual(q.shown(Record(["pick": .string("other")])), ["water", "pick", "pick_other"])
        }
    }

    func testHouseholdReadsWithoutWarnings() throws {
        let result = XLSForm.read(try XLSFormSheets.csv(String(contentsOf: FormTestSupport.householdURL, encoding: .utf8)))
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.warnings.map(\.description), [], "its geopoint is typed now, not shown as not collected")
        let q = try FormTestSupport.household()
        XCTAssertEqual(q.fields.map(\.key), [
            "start", "today", "intro", "respondent", "fname", "lname", "age", "sex", "consent", "",
            "household", "region", "district", "village", "members", "children", "adults", "water", "water_other",
            "distance", "has_phone", "phone", "location", "visit_date", "visit_time", "",
            "closing", "rating", "notes", "confirm", "",
        ])
        XCTAssertEqual(q.form?.formID, "household")
        XCTAssertEqual(q.form?.version, "2026113001")
        XCTAssertEqual(q.fields.filter(\.isRequired).map(\.key), ["fname", "lname", "age", "consent", "region", "confirm"])
    }

    func testHouseholdLabelsHintsAndChoiceLabelsInEachLanguage() throws {
        let english = try FormTestSupport.household()
        XCTAssertEqual(english.language, "English (en)", "the form's default_language")
        XCTAssertEqual(english.languages, ["English (en)", "Français (fr)"])
        XCTAssertEqual(english.field(forKey: "fname")?.label, "First name")
        XCTAssertEqual(english.field(forKey: "age")?.hint, "In completed years")
        XCTAssertEqual(english.field(forKey: "region")?.choiceLabels, ["north": "North", "south": "South"])
        XCTAssertEqual(english.field(forKey: "water")?.choiceLabels,
                       ["tap": "Tap", "well": "Well", "river": "River", "rain": "Rain water", "other": "Other"])
        XCTAssertEqual(english.field(forKey: "confirm")?.choiceLabels, ["OK": "OK"])

        let french = try XCTUnwrap(english.nextLanguage())
        XCTAssertEqual(french.language, "Français (fr)")
        XCTAssertEqual(french, try FormTestSupport.household(language: "Français (fr)"))
        XCTAssertEqual(french.field(forKey: "fname")?.label, "Prénom")
        XCTAssertEqual(french.field(forKey: "respondent")?.label, "Répondant")
        XCTAssertEqual(french.field(forKey: "age")?.hint, "In completed years", "no French hint: the default language's")
        XCTAssertEqual(french.field(forKey: "region")?.choiceLabels, ["north": "Nord", "south": "Sud"])
        XCTAssertEqual(french.field(forKey: "district")?.choiceLabels["lake"], "District du lac")
        XCTAssertEqual(french.field(forKey: "water")?.choiceLabels["other"], "Other", "pyxform's or_other is untranslated")
        XCTAssertEqual(french.fields.map(\.key), english.fields.map(\.key))
        XCTAssertEqual(french.fields.map(\.kind), english.fields.map(\.kind), "only words change with the language")

        XCTAssertEqual(french.nextLanguage(), english, "the key wraps around")
    }

    func testAMissingTranslationFallsBackToTheDefaultLanguage() throws {
        let csv = """
        survey,,,,,,
        ,type,name,label::English,label::French,hint::English,hint::French
        ,text,a,Name,Nom,Full name,Nom complet
        ,text,b,Village,,As on the map,
        ,select_one yn,c,Pick,Choisir,,
        ,text,d,,,Only a hint,
        choices,,,,,,
        ,list_name,name,label::English,label::French,,
        ,yn,yes,Yes,Oui,,
        ,yn,no,No,,,
        settings,,,,,,
        ,form_title,form_id,default_language,,,
        ,T,t,French,,,
        """
        let french = try FormTestSupport.questionnaire(csv)
        XCTAssertEqual(french.language, "French")
        XCTAssertEqual(french.fields.map(\.label), ["Nom", "Village", "Choisir", "d"])
        XCTAssertEqual(french.fields.map(\.hint), ["Nom complet", "As on the map", "", "Only a hint"])
        XCTAssertEqual(french.field(forKey: "c")?.choiceLabels, ["yes": "Oui", "no": "No"])
        let english = try FormTestSupport.questionnaire(csv, language: "English")
        XCTAssertEqual(english.fields.map(\.label), ["Name", "Village", "Pick", "d"])
        XCTAssertEqual(english.field(forKey: "c")?.choiceLabels, ["yes": "Yes", "no": "No"])

        // Without default_language, a missing French label is the first language's.
        let noDefault = try FormTestSupport.questionnaire(csv.replacingOccurrences(of: "default_language", with: "version"),
                                                          language: "French")
        XCTAssertEqual(noDefault.fields.map(\.label), ["Nom", "Village", "Choisir", "d"])
        XCTAssertEqual(noDefault.field(forKey: "c")?.choiceLabels, ["yes": "Oui", "no": "No"])
        // A language the form does not have shows the default one.
        XCTAssertEqual(try FormTestSupport.questionnaire(csv, language: "German").fields.map(\.label), ["Nom", "Village", "Choisir", "d"])
    }

    /// Without default_language the first language is shown, so the first switch must go
    /// to the second one.
    func testTheFirstSwitchChangesTheWordsWithoutADefaultLanguage() throws {
        let csv = """
        survey,,,,
        ,type,name,label::English,label::French
        ,text,a,Name,Nom
        """
        let first = try FormTestSupport.questionnaire(csv)
        XCTAssertEqual(first.fields.map(\.label), ["Name"])
        XCTAssertEqual(first.languages, ["English", "French"])
        let second = try XCTUnwrap(first.nextLanguage())
        XCTAssertEqual(second.fields.map(\.label), ["Nom"])
        XCTAssertEqual(try XCTUnwrap(second.nextLanguage()).fields.map(\.label), ["Name"])
    }

    /// An unnamed `label` column beside `label::French` is pyxform's "default" language (or
    /// the one default_language names): two languages to switch between.
    func testAnUnnamedLabelColumnIsALanguageToo() throws {
        let csv = """
        survey,,,,
        ,type,name,label,label::French
        ,text,a,Name,Nom
        ,integer,b,Age,
        """
        let oracle = FormTestSupport.pyxformQuestions(try FormTestSupport.pyxform(csv))
        XCTAssertEqual(oracle[0]["label"] as? [String: String], ["default": "Name", "French": "Nom"])
        let shown = try FormTestSupport.questionnaire(csv)
        XCTAssertEqual(shown.fields.map(\.label), ["Name", "Age"])
        XCTAssertEqual(shown.languages, ["default", "French"])
        let french = try XCTUnwrap(shown.nextLanguage())
        XCTAssertEqual(french.fields.map(\.label), ["Nom", "Age"])
        let back = try XCTUnwrap(french.nextLanguage())
        XCTAssertEqual(back.fields.map(\.label), ["Name", "Age"])

        let named = csv + "\nsettings,,,,\n,form_title,form_id,default_language,\n,T,t,English,\n"
        let namedOracle = FormTestSupport.pyxformQuestions(try FormTestSupport.pyxform(named))
        XCTAssertEqual(namedOracle[0]["label"] as? [String: String], ["English": "Name", "French": "Nom"])
        let english = try FormTestSupport.questionnaire(named)
        XCTAssertEqual(english.languages, ["English", "French"])
        XCTAssertEqual(english.fields.map(\.label), ["Name", "Age"])
        XCTAssertEqual(try XCTUnwrap(english.nextLanguage()).fields.map(\.label), ["Nom", "Age"])
    }

    /// The five original questions: same fields, same rules and messages, and every form
    /// rule a no-op for them.
    func testTheStandardQuestionnaireIsUnaffected() {
        let standard = Questionnaire.standard
        XCTAssertNil(standard.form)
        XCTAssertNil(standard.language)
        XCTAssertEqual(standard.fields.map(\.key), ["firstName", "lastName", "address", "phone", "age"])
        XCTAssertEqual(standard.fields.map(\.kind), [.text(maxLength: 100), .text(maxLength: 100), .text(maxLength: 200),
                                                     .text(maxLength: 40), .wholeNumber(0...150)])
        XCTAssertTrue(standard.fields.allSatisfy { $0.hint.isEmpty && !$0.isRequired && $0.choiceLabels.isEmpty && $0.storesEmptyText })
        let age = standard.fields[4], first = standard.fields[0]
        XCTAssertEqual(age.parse("+4").failureMessage, "Age must be a whole number from 0 to 150, or empty", "no sign for the age")
        XCTAssertEqual(age.parse("-1").failureMessage, "Age must be a whole number from 0 to 150, or empty")
        XCTAssertEqual(age.parse("150"), .success(.integer(150)))
        XCTAssertEqual(first.parse("  "), .success(.string("")), "the original app stores an empty name")
        XCTAssertEqual(first.parse(String(repeating: "x", count: 101)).failureMessage, "First name is limited to 100 characters")

        let record = Record.sample(first: "", last: "", age: 200)
        XCTAssertEqual(standard.relevance(in: record, clock: .wall), Array(repeating: true, count: 5))
        XCTAssertTrue(standard.isRelevant(4, in: record, clock: .wall))
        XCTAssertNil(standard.ruleProblem(4, value: .integer(200), in: record, clock: .wall))
        XCTAssertTrue(standard.problems(in: record, clock: .wall).isEmpty, "the five are judged by their kinds, not by form rules")
        var hidden: [String: PropertyValue] = ["x": .string("kept")]
        XCTAssertEqual(standard.settled(record, hidden: &hidden, clock: .wall), record)
        XCTAssertEqual(hidden, ["x": .string("kept")])
        XCTAssertEqual(standard.choices(for: 0, in: record, clock: .wall), [])
        XCTAssertNil(standard.defaultText(0, clock: .wall))
        XCTAssertEqual(standard.completed(record, device: DeviceMetadata(deviceID: "dev"), clock: FormTestSupport.clock), record,
                       "no metadata, no formID for the original five")
        XCTAssertEqual(standard.title(of: Record.sample()), "Lima, Ana")
        XCTAssertEqual(standard.title(of: record), "(no name)")
        XCTAssertEqual(standard.title(of: Record.sample(first: "Ana", last: "")), "Ana")
        XCTAssertEqual(standard.languages, [])
        XCTAssertNil(standard.nextLanguage())
        XCTAssertEqual(Record([:]).withEmptyTextAnswers(in: standard).values.count, 4)
    }
}
