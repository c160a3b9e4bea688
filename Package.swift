// swift-tools-version:5.10
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
        .target(name: "SurveyModel"),
        .target(name: "SurveyUI", dependencies: ["SurveyModel"]),
        .target(name: "SurveyTerminal", dependencies: ["SurveyUI", "SurveyModel", "CNcurses"]),
        .executableTarget(name: "survey", dependencies: ["SurveyTerminal", "SurveyUI", "SurveyModel"]),
        // `make bench`: prints timings and memory on generated documents.
        .executableTarget(name: "survey-bench", dependencies: ["SurveyUI", "SurveyModel"], path: "Benchmarks"),
        .testTarget(name: "SurveyModelTests", dependencies: ["SurveyModel"], exclude: ["Fixtures"]),
        .testTarget(name: "SurveyUITests", dependencies: ["SurveyUI", "SurveyModel"], exclude: ["__Snapshots__"]),
        .testTarget(name: "SurveyEndToEndTests", dependencies: ["SurveyModel"]),
        .testTarget(name: "SurveyCLITests", dependencies: ["SurveyModel"]),
        .testTarget(name: "SurveyTerminalTests", dependencies: ["SurveyTerminal", "SurveyUI", "CNcurses"]),
    ]
)
