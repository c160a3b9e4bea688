// swift-tools-version:6.0
import PackageDescription

// One direction only: survey → SurveyTerminal → SurveyRuntime → SurveyUI → SurveyForms → SurveyValues,
// and SurveyRuntime → SurveyStorage → SurveyForms.
// SurveyUI is the pure core (state, actions, update, views): no file, no thread, no clock
// but the one its state names. SurveyRuntime carries out its effects (the store, the session
// memory, background loading, indexing, writing and counting) and feeds the outcomes back as
// actions; it wakes the terminal's loop through one descriptor. CNcurses is imported by
// SurveyTerminal alone. SurveyDatabase (the team's PostgreSQL, through CPostgres) sits beside
// the UI core: the runtime (F9) and the shell use it, the UI core never does.
let package = Package(
    name: "survey",
    products: [
        .executable(name: "survey", targets: ["survey"]),
    ],
    targets: [
        // The module map links ncursesw (which pulls in tinfo); `make deps` installs
        // libncurses-dev. No pkgConfig: its -D flags are dropped by SwiftPM with a warning.
        .systemLibrary(name: "CNcurses", path: "CNcurses"),
        // zlib inflates the parts of .xlsx workbooks (XLSForm); `make deps` installs zlib1g-dev.
        .systemLibrary(name: "CZlib", path: "CZlib"),
        // libpq, loaded with dlopen at first use (the binary runs without libpq5); its header
        // comes from libpq-dev, which `make deps` installs.
        .systemLibrary(name: "CPostgres", path: "CPostgres"),
        // OpenSSL's libcrypto: every cryptographic primitive (digest(), media hashes); never
        // written by hand. `make deps` installs libssl-dev; the .deb then depends on libssl3.
        .systemLibrary(name: "COpenSSL", path: "COpenSSL"),
        // The model, in three modules (issue 29), one direction only: values ← forms ← storage.
        // SurveyValues: property lists, records, answer paths, CSV/JSON codecs, merging, and
        // the value types the UI core shows. No file, no thread.
        .target(name: "SurveyValues"),
        // SurveyForms: XLSForm, the expression language, the questionnaire, and the ODK shapes
        // data leaves in (as text and bytes; writing them to disk is the storage's). No file.
        .target(name: "SurveyForms", dependencies: ["SurveyValues", "CZlib", "COpenSSL"]),
        // SurveyStorage: the file system seam, documents on disk, the journal, trash, streams,
        // session memory, and sync's file side.
        .target(name: "SurveyStorage", dependencies: ["SurveyValues", "SurveyForms"]),
        .target(name: "SurveyUI", dependencies: ["SurveyValues", "SurveyForms"]),
        .target(name: "SurveyRuntime", dependencies: ["SurveyUI", "SurveyValues", "SurveyForms", "SurveyStorage", "SurveyDatabase"]),
        .target(name: "SurveyTerminal", dependencies: ["SurveyRuntime", "SurveyUI", "SurveyValues", "SurveyForms", "SurveyStorage", "CNcurses"]),
        // A team's PostgreSQL (issue 19): schema, roles, push and pull. Nothing in SurveyUI uses it.
        .target(name: "SurveyDatabase", dependencies: ["SurveyValues", "SurveyForms", "SurveyStorage", "CPostgres"]),
        .executableTarget(name: "survey", dependencies: ["SurveyTerminal", "SurveyUI", "SurveyValues", "SurveyForms", "SurveyStorage", "SurveyDatabase"]),
        // `make bench`: prints timings and memory on generated documents.
        .executableTarget(name: "survey-bench", dependencies: ["SurveyRuntime", "SurveyUI", "SurveyValues", "SurveyForms", "SurveyStorage", "SurveyDatabase", "SurveyTestSupport"], path: "Benchmarks",
                          exclude: ["gen_survey_data.py", "tui_bench.py", "commit_bench.py", "tui_side_by_side.py"]),
        // Shared by the test targets: running child processes (python3, survey, tmux).
        .target(name: "SurveyTestSupport", path: "Tests/SurveyTestSupport"),
        // Shared by the UI core's and the runtime's tests: sample records, pressing keys
        // through the key table.
        .target(name: "SurveyUITestSupport", dependencies: ["SurveyUI", "SurveyValues", "SurveyForms", "SurveyStorage"], path: "Tests/SurveyUITestSupport"),
        .testTarget(name: "SurveyModelTests", dependencies: ["SurveyValues", "SurveyForms", "SurveyStorage", "SurveyTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SurveyUITests", dependencies: ["SurveyUI", "SurveyValues", "SurveyForms", "SurveyStorage", "SurveyUITestSupport", "SurveyTestSupport"],
                    exclude: ["__Snapshots__"]),
        // Program on a real folder: effects carried out, outcomes fed back, background work.
        .testTarget(name: "SurveyRuntimeTests", dependencies: ["SurveyRuntime", "SurveyUI", "SurveyValues", "SurveyForms", "SurveyStorage", "SurveyDatabase",
                                                               "SurveyUITestSupport", "SurveyTestSupport"]),
        // Against a throwaway PostgreSQL the tests start themselves (SurveyTestSupport).
        .testTarget(name: "SurveyDatabaseTests", dependencies: ["SurveyDatabase", "SurveyValues", "SurveyForms", "SurveyStorage", "SurveyTestSupport"]),
        .testTarget(name: "SurveyEndToEndTests", dependencies: ["SurveyValues", "SurveyForms", "SurveyStorage", "SurveyTestSupport"]),
        .testTarget(name: "SurveyCLITests", dependencies: ["SurveyValues", "SurveyForms", "SurveyStorage", "SurveyUI", "SurveyTestSupport"]),
        // The .deb `make deb` built ($SURVEY_DEB): contents, Depends, ldd, running it extracted.
        .testTarget(name: "SurveyPackageTests", dependencies: ["SurveyTestSupport"]),
        .testTarget(name: "SurveyTerminalTests", dependencies: ["SurveyTerminal", "SurveyUI", "CNcurses"]),
    ]
)
