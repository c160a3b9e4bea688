import FoundationEssentials
import SurveyValues
import SurveyForms

/// What the runtime supplies and the core only reads (TCA's dependencies): the clock, the
/// time zone, this machine's id and the documents' folder. Tests pin the clock and the zone.
public struct AppEnvironment: Equatable, Sendable {
    /// The moment `today()`, `now()` and the `start`/`end` metadata read.
    public var clock: WallClock
    /// Time zone for dates shown on screen and read by the form's rules.
    public var timeZone: TimeZoneRule
    /// The `deviceid` and `username` metadata a form may ask for.
    public var device: DeviceMetadata
    /// Where the documents live, for the info view.
    public var documentFolder: String

    public init(clock: WallClock, timeZone: TimeZoneRule = .current, device: DeviceMetadata = DeviceMetadata(),
                documentFolder: String = "") {
        self.clock = clock
        self.timeZone = timeZone
        self.device = device
        self.documentFolder = documentFolder
    }
}

/// What time it is: the runtime's clock (`WallClock.system` in SurveyRuntime), or a moment
/// pinned by a test. The core never reads the time itself.
public struct WallClock: Equatable, Sendable {
    private let read: @Sendable () -> Date
    /// The moment, when pinned.
    public let pinned: Date?

    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
        self.pinned = nil
    }

    public static func pinned(_ date: Date) -> WallClock {
        WallClock(pinned: date)
    }

    private init(pinned: Date) {
        self.read = { pinned }
        self.pinned = pinned
    }

    public var now: Date { pinned ?? read() }

    /// Clocks that tell the time are all the same clock; pinned ones are equal when pinned
    /// at the same moment.
    public static func == (a: WallClock, b: WallClock) -> Bool { a.pinned == b.pinned }
}
