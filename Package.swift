// swift-tools-version:6.0
import PackageDescription

// One direction only: survey → SurveyTerminal → SurveyUI → SurveyModel.
// CNcurses is imported by SurveyTerminal alone.
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
        .target(name: "SurveyModel", dependencies: ["CZlib"]),
        .target(name: "SurveyUI", dependencies: ["SurveyModel"]),
        .target(name: "SurveyTerminal", dependencies: ["SurveyUI", "SurveyModel", "CNcurses"]),
        .executableTarget(name: "survey", dependencies: ["SurveyTerminal", "SurveyUI", "SurveyModel"]),
        // `make bench`: prints timings and memory on generated documents.
        .executableTarget(name: "survey-bench", dependencies: ["SurveyUI", "SurveyModel"], path: "Benchmarks",
                          exclude: ["gen_survey_data.py", "tui_bench.py", "commit_bench.py", "tui_side_by_side.py"]),
        // Shared by the test targets: running child processes (python3, survey, tmux).
        .target(name: "SurveyTestSupport", path: "Tests/SurveyTestSupport"),
        .testTarget(name: "SurveyModelTests", dependencies: ["SurveyModel", "SurveyTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SurveyUITests", dependencies: ["SurveyUI", "SurveyModel", "SurveyTestSupport"],
                    exclude: ["__Snapshots__"]),
        .testTarget(name: "SurveyEndToEndTests", dependencies: ["SurveyModel", "SurveyTestSupport"]),
        .testTarget(name: "SurveyCLITests", dependencies: ["SurveyModel", "SurveyUI", "SurveyTestSupport"]),
        // The .deb `make deb` built ($SURVEY_DEB): contents, Depends, ldd, running it extracted.
        .testTarget(name: "SurveyPackageTests", dependencies: ["SurveyTestSupport"]),
        .testTarget(name: "SurveyTerminalTests", dependencies: ["SurveyTerminal", "SurveyUI", "CNcurses"]),
    ]
)
