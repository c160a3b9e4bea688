import Foundation
import XCTest
import SurveyTestSupport

/// The real biomass-plot form of issue 18 (UCL's, from pyxform's test suite: two languages,
/// five repeats, stems nested in trees with a `repeat_count`, lists in CSV files filtered by
/// earlier answers, a geopoint, photos, calculations in labels and constraint messages),
/// keyed heads-down in the real binary; then read back with plistlib, exported as ODK's CSV
/// set and joined back by an analyst's script, and imported into a second document.
final class BiomassEndToEndTests: EndToEndTestCase {
    static var form: URL {
        packageRoot.appendingPathComponent(
            "Tests/SurveyModelTests/Fixtures/forms/pyxform-suite/bug_example_xls--UCL_Biomass_Plot_Form-ecc08c78.xlsx")
    }

    /// The five list files the form names, small: districts by region, villages by
    /// district, plots by village and planting phase.
    private func writeLists() throws -> [String] {
        let lists = folder.deletingLastPathComponent().appendingPathComponent("lists")
        try FileManager.default.createDirectory(at: lists, withIntermediateDirectories: true)
        let files = [
            "UCL_regions.csv": "name,label\n1,Pwani\n2,Tanga\n",
            "UCL_districts.csv": "name,label,region_id\n11,Kibaha,1\n12,Bagamoyo,1\n21,Handeni,2\n",
            "UCL_villages.csv": "name,label,district_id\n111,Mlandizi,11\n112,Kwala,11\n211,Kabuku,21\n",
            "ULC_Biomass_Plots.csv": "name,label,village,plant_phase\nP1,Plot 1 Mlandizi,111,2022\nP2,Plot 2 Mlandizi,111,2023\n"
                + "P3,Plot 3 Kwala,112,2022\n",
            "species_names.csv": "name,label\nacacia_nilotica,Acacia nilotica\nmelia_azedarach,Melia azedarach\nother,Other\n",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: lists.appendingPathComponent(name)) }
        return files.keys.sorted().map { lists.appendingPathComponent($0).path }
    }

    private func survey(_ arguments: [String]) throws -> ChildOutcome {
        try ChildProcess.run([Self.binaryPath, "--dir", folder.path] + arguments)
    }

    /// The form under the name UCL gave its file, which is its id (its settings give none).
    private func makeDocument(_ name: String) throws {
        XCTAssertEqual(try survey(["docs", "new", name]).status, 0)
        let file = folder.deletingLastPathComponent().appendingPathComponent("UCL_Biomass_Plot_Form.xlsx")
        if !FileManager.default.fileExists(atPath: file.path) { try FileManager.default.copyItem(at: Self.form, to: file) }
        let attached = try survey(["form", "attach", file.path] + (try writeLists()) + ["--doc", name])
        XCTAssertEqual(attached.status, 0, attached.errors)
    }

    func testThePlotFormKeysHeadsDownAndItsCSVSetJoinsBack() throws {
        try makeDocument("Plots")
        let app = try launch(["--dir", folder.path, "--doc", "Plots"], width: 100, height: 30)
        app.waitFor("Jina Lako *", "Namba Yako ya Simu *")          // Swahili, the form's default language
        try app.press("Enter")
        app.waitFor("1 Aloyce")
        try app.type("1")                                          // enumerator
        try app.type("0712345678"); try app.press("Enter")         // phone, checked by the form's regex
        // Lists whose names (or labels) are numbers are typed by their codes, as from paper
        // (issue 27): region 1, district 11, village 111, planting phase 2022.
        try app.type("1")                                          // region: Pwani
        app.waitFor("11 Kibaha", "12 Bagamoyo")                    // districts of Pwani only
        try app.type("11")
        app.waitFor("111 Mlandizi", "112 Kwala")
        try app.type("111")                                        // village
        try app.type("2022")                                       // planting phase 2022, its own code
        app.waitFor("1 Plot 1 Mlandizi")                           // village and phase filter the plots
        XCTAssertFalse(try app.screen().contains("Plot 3 Kwala"))
        try app.type("1")
        try app.type("40"); try app.press("Enter")                 // canopy cover
        try app.type("-6.8 39.28"); try app.press("Enter")         // the plot's centre, a geopoint
        try app.press("Enter")                                     // no photo (optional)
        try app.type("1")                                          // monumented: yes
        try app.type("10"); try app.press("Enter")                 // slope
        try app.type("1")                                          // trees to measure: yes
        app.waitFor("Add a Miti? y/n", "plot kubwa ni 15.04 m")    // a note showing two calculations
        try app.type("y")
        try app.type("101"); try app.press("Enter")                // tag
        try app.type("1")                                          // species, from the list file
        try app.type("90"); try app.press("Enter")                 // bearing
        try app.type("5"); try app.press("Enter")                  // distance, under the plot's radius
        try app.press("Enter")                                     // bole height (optional)
        try app.type("2"); try app.press("Enter")                  // stems: the form asks for exactly 2
        app.waitFor("Tawi wa Mti na tag numba 101", "1 of 2")      // the roster's label shows the tag
        app.waitFor("› 1 of 2")                                    // the heading's breadcrumb: in tree 101, stem 1 of 2
        try app.type("3"); try app.press("Enter")                  // under the minimum circumference
        app.waitFor("Kiwango cha chini cha circumference kwa sehemu hii ya plot ni 6 cm.")
        try app.press("BSpace"); try app.type("30"); try app.press("Enter")
        try app.type("1")                                          // alive: no decay class asked
        try app.press("Enter"); try app.press("Enter")             // height (required only when dead), notes
        app.waitFor("2 of 2")
        try app.type("25"); try app.press("Enter")
        try app.type("1")
        try app.press("Enter"); try app.press("Enter")
        app.waitFor("Add another Miti? y/n")                       // the tree ends after its last stem
        try app.type("n")
        try app.type("2")                                          // no stumps
        try app.type("2"); try app.type("2")                       // no regeneration in either subplot
        app.waitFor("1 [ ] Moto")
        try app.type("1"); try app.type("4"); try app.press("Enter")   // disturbance: burning, farming
        try app.press("Enter")                                     // no remarks: on to [ Add ]
        try app.press("C-g")                                       // the interview as a tree, every stem listed
        app.waitFor("Go to", "Miti (1)", "1 of 1")
        try app.press("End")                                       // its last rows: the second stem's
        app.waitFor("2 of 2")
        try app.press("Escape")
        try app.press("Enter")
        app.waitFor("Added survey 1")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        let saved = try records(in: "Plots")
        XCTAssertEqual(saved.count, 1)
        let plot = try XCTUnwrap(saved.first)
        XCTAssertEqual(plot["plot_id"], .string("P1"))
        XCTAssertEqual(plot["formID"], .string("UCL_Biomass_Plot_Form"), "a form without form_id is named by its file, as pyxform names it")
        XCTAssertEqual(plot["formVersion"], .string("2022-04-11 16:26:28.971000"), "its date cell, as pyxform writes it")
        XCTAssertNil(plot["stumps"], "an unasked roster stores nothing")
        guard case .array(let trees)? = plot["trees"], trees.count == 1, case .dictionary(let tree) = trees[0],
              case .array(let stems)? = tree["stems"] else { return XCTFail("no nested trees and stems: \(plot)") }
        XCTAssertEqual(tree["tag"], .int(101))
        XCTAssertEqual(tree["plot_id1"], .string("P1"), "a calculation inside the roster reads the top level")
        XCTAssertEqual(stems.count, 2)
        guard case .dictionary(let first) = stems[0], case .dictionary(let second) = stems[1] else { return XCTFail("\(stems)") }
        XCTAssertEqual(first["cbh"], .int(30))
        XCTAssertEqual(second["cbh"], .int(25))
        XCTAssertEqual(second["tag_1"], .string("101"), "a stem's calculation reads its tree's tag")
        XCTAssertNil(first["decay_class"])

        // Out as ODK's CSV set, joined back by an analyst's script, in again.
        let set = folder.deletingLastPathComponent().appendingPathComponent("odk-set")
        let exported = try survey(["export", "--doc", "Plots", "--format", "odk-csv", "--output", set.path])
        XCTAssertEqual(exported.status, 0, exported.errors)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: set.path).sorted(),
                       ["UCL_Biomass_Plot_Form-stems.csv", "UCL_Biomass_Plot_Form-stumps.csv", "UCL_Biomass_Plot_Form-subplot1.csv",
                        "UCL_Biomass_Plot_Form-subplot2.csv", "UCL_Biomass_Plot_Form-trees.csv", "UCL_Biomass_Plot_Form.csv"])
        XCTAssertEqual(try ODKCSVJoin.compare(set: set, main: "UCL_Biomass_Plot_Form", with: documentURL("Plots")),
                       ["joined 1 surveys, 3 members"])
        try makeDocument("Back")
        let imported = try survey(["import", set.path, "--doc", "Back", "--format", "odk-csv"])
        XCTAssertEqual(imported.status, 0, imported.errors)
        XCTAssertEqual(try records(in: "Back"), saved, "the set imports back to the same nested survey")
    }

    /// Issue 30's measure: the keys a keyer presses to key the biomass plot with 3 trees and
    /// 7 stems (2, 3 and 2), from the first question to the survey added, counted as this test
    /// presses them (a typed code of three digits is three keys). The README gives the count;
    /// a change that adds a key to this path fails here first.
    func testKeyingAPlotWithThreeTreesAndSevenStemsTakesTheKeysTheREADMESays() throws {
        try makeDocument("Count")
        let app = try launch(["--dir", folder.path, "--doc", "Count"], width: 100, height: 30)
        var keys = 0
        func type(_ text: String) throws { keys += text.count; try app.type(text) }
        func press(_ key: String) throws { keys += 1; try app.press(key) }
        app.waitFor("Jina Lako *", "Namba Yako ya Simu *")
        try press("Enter")
        app.waitFor("1 Aloyce")
        try type("1")                                       // enumerator
        try type("0712345678"); try press("Enter")          // phone
        try type("1"); try type("11"); try type("111")      // region, district, village
        try type("2022")                                    // planting phase
        app.waitFor("1 Plot 1 Mlandizi")
        try type("1")                                       // plot
        try type("40"); try press("Enter")                  // canopy cover
        try type("-6.8 39.28"); try press("Enter")          // centre
        try press("Enter")                                  // no photo
        try type("1")                                       // monumented
        try type("10"); try press("Enter")                  // slope
        try type("1")                                       // trees to measure: yes
        for (n, stems) in [2, 3, 2].enumerated() {
            app.waitFor(n == 0 ? "Add a Miti? y/n" : "Add another Miti? y/n")
            try type("y")
            try type("\(101 + n)"); try press("Enter")      // tag
            try type("1")                                   // species
            try type("90"); try press("Enter")              // bearing
            try type("5"); try press("Enter")               // distance
            try press("Enter")                              // bole height (optional)
            try type("\(stems)"); try press("Enter")        // stems
            for stem in 0..<stems {
                app.waitFor("\(stem + 1) of \(stems)")
                try type("\(30 + stem)"); try press("Enter") // circumference
                try type("1")                               // alive
                try press("Enter"); try press("Enter")      // height, notes
            }
        }
        app.waitFor("Add another Miti? y/n")
        try type("n")
        try type("2")                                       // no stumps
        try type("2"); try type("2")                        // no regeneration
        app.waitFor("1 [ ] Moto")
        try type("1"); try type("4"); try press("Enter")    // disturbance
        try press("Enter")                                  // no remarks: on to [ Add ]
        try press("Enter")                                  // [ Add ]
        app.waitFor("Added survey 1")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)

        let plot = try XCTUnwrap(try records(in: "Count").first)
        guard case .array(let trees)? = plot["trees"] else { return XCTFail("no trees: \(plot)") }
        let stems = trees.map { tree -> Int in
            guard case .dictionary(let answers) = tree, case .array(let stems)? = answers["stems"] else { return -1 }
            return stems.count
        }
        XCTAssertEqual(stems, [2, 3, 2], "3 trees, 7 stems, as keyed")
        XCTAssertEqual(keys, Self.keysForThreeTreesAndSevenStems, "the README's count (“Keying a plot”) says \(Self.keysForThreeTreesAndSevenStems)")
    }

    /// The count the README gives (README.md, "Keying a plot"): change both together.
    static let keysForThreeTreesAndSevenStems = 137
}
