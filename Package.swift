// swift-tools-version:6.0
import PackageDescription

// One direction only: survey → SurveyTerminal → SurveyRuntime → SurveyUI → SurveyModel.
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
        .target(name: "SurveyModel", dependencies: ["CZlib", "COpenSSL"]),
        .target(name: "SurveyUI", dependencies: ["SurveyModel"]),
        .target(name: "SurveyRuntime", dependencies: ["SurveyUI", "SurveyModel", "SurveyDatabase"]),
        .target(name: "SurveyTerminal", dependencies: ["SurveyRuntime", "SurveyUI", "SurveyModel", "CNcurses"]),
        // A team's PostgreSQL (issue 19): schema, roles, push and pull. Nothing in SurveyUI uses it.
        .target(name: "SurveyDatabase", dependencies: ["SurveyModel", "CPostgres"]),
        .executableTarget(name: "survey", dependencies: ["SurveyTerminal", "SurveyUI", "SurveyModel", "SurveyDatabase"]),
        // `make bench`: prints timings and memory on generated documents.
        .executableTarget(name: "survey-bench", dependencies: ["SurveyRuntime", "SurveyUI", "SurveyModel", "SurveyDatabase", "SurveyTestSupport"], path: "Benchmarks",
                          exclude: ["gen_survey_data.py", "tui_bench.py", "commit_bench.py", "tui_side_by_side.py"]),
        // Shared by the test targets: running child processes (python3, survey, tmux).
        .target(name: "SurveyTestSupport", path: "Tests/SurveyTestSupport"),
        // Shared by the UI core's and the runtime's tests: sample records, pressing keys
        // through the key table.
        .target(name: "SurveyUITestSupport", dependencies: ["SurveyUI", "SurveyModel"], path: "Tests/SurveyUITestSupport"),
        .testTarget(name: "SurveyModelTests", dependencies: ["SurveyModel", "SurveyTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SurveyUITests", dependencies: ["SurveyUI", "SurveyModel", "SurveyUITestSupport", "SurveyTestSupport"],
                    exclude: ["__Snapshots__"]),
        // Program on a real folder: effects carried out, outcomes fed back, background work.
        .testTarget(name: "SurveyRuntimeTests", dependencies: ["SurveyRuntime", "SurveyUI", "SurveyModel", "SurveyDatabase",
                                                               "SurveyUITestSupport", "SurveyTestSupport"]),
        // Against a throwaway PostgreSQL the tests start themselves (SurveyTestSupport).
        .testTarget(name: "SurveyDatabaseTests", dependencies: ["SurveyDatabase", "SurveyModel", "SurveyTestSupport"]),
        .testTarget(name: "SurveyEndToEndTests", dependencies: ["SurveyModel", "SurveyTestSupport"]),
        .testTarget(name: "SurveyCLITests", dependencies: ["SurveyModel", "SurveyUI", "SurveyTestSupport"]),
        // The .deb `make deb` built ($SURVEY_DEB): contents, Depends, ldd, running it extracted.
        .testTarget(name: "SurveyPackageTests", dependencies: ["SurveyTestSupport"]),
        .testTarget(name: "SurveyTerminalTests", dependencies: ["SurveyTerminal", "SurveyUI", "CNcurses"]),
    ]
)
