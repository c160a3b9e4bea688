import CNcurses
import SurveyUI

/// Turns the UI's meaning-based `Style` into a curses rendition (attribute bits plus a colour
/// pair), so the UI core never knows whether the terminal has colours.
///
/// Each `Style.Role` has one colour pair, numbered by its raw value (normal is pair 0, the
/// terminal's own colours). Accent and error are coloured text on the terminal's default
/// background (`use_default_colors`), so the app looks right on light and dark themes alike.
/// Muted and chrome use default colours plus an attribute (dim, reverse) instead of a
/// colour, which also keeps them readable on monochrome terminals.
struct CursesPalette {
    /// Whether `install()` set up colour pairs; without them every role draws in pair 0.
    let hasColors: Bool

    init(hasColors: Bool = false) {
        self.hasColors = hasColors
    }

    /// Sets up colours on the current screen. Call once, after `initscr`.
    static func install() -> CursesPalette {
        guard has_colors(), start_color() != ERR else { return CursesPalette() }
        // -1 means "the terminal's default"; without use_default_colors fall back to black.
        let background: Int16 = use_default_colors() != ERR ? -1 : Int16(COLOR_BLACK)
        let foregroundDefault: Int16 = background == -1 ? -1 : Int16(COLOR_WHITE)
        for role in Style.Role.allCases where role != .normal {
            guard Int32(role.rawValue) < shim_color_pairs() else { return CursesPalette() }
            init_pair(Int16(role.rawValue), foreground(of: role) ?? foregroundDefault, background)
        }
        return CursesPalette(hasColors: true)
    }

    private static func foreground(of role: Style.Role) -> Int16? {
        switch role {
        case .accent: return Int16(COLOR_CYAN)
        case .error: return Int16(COLOR_RED)
        case .normal, .muted, .chrome: return nil
        }
    }

    /// Attribute bits and colour pair for `style`, ready for `wattr_set`.
    func rendition(of style: Style) -> (attributes: attr_t, pair: Int16) {
        var attributes = Self.attributes(style.attributes)
        switch style.role {
        case .muted: attributes |= shim_attr_dim()
        case .chrome: attributes |= shim_attr_reverse()
        case .normal, .accent, .error: break
        }
        let pair = hasColors ? Int16(style.role.rawValue) : 0
        return (attributes, pair)
    }

    private static func attributes(_ attributes: Style.Attributes) -> attr_t {
        var result = shim_attr_normal()
        if attributes.contains(.bold) { result |= shim_attr_bold() }
        if attributes.contains(.reverse) { result |= shim_attr_reverse() }
        if attributes.contains(.underline) { result |= shim_attr_underline() }
        if attributes.contains(.dim) { result |= shim_attr_dim() }
        return result
    }
}
