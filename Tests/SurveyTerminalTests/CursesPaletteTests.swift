import CNcurses
import SurveyUI
import XCTest
@testable import SurveyTerminal

final class CursesPaletteTests: XCTestCase {
    func testRolesPickTheirPairAndAttributes() {
        let palette = CursesPalette(hasColors: true)
        XCTAssertEqual(palette.rendition(of: .plain).pair, 0)
        XCTAssertEqual(palette.rendition(of: .plain).attributes, shim_attr_normal())
        XCTAssertEqual(palette.rendition(of: .accent).pair, Int16(Style.Role.accent.rawValue))
        XCTAssertEqual(palette.rendition(of: .accent).attributes, shim_attr_bold())
        XCTAssertEqual(palette.rendition(of: .error).pair, Int16(Style.Role.error.rawValue))
        XCTAssertEqual(palette.rendition(of: Style(role: .muted)).attributes, shim_attr_dim())
        XCTAssertEqual(palette.rendition(of: Style(role: .chrome)).attributes, shim_attr_reverse())
        XCTAssertEqual(palette.rendition(of: Style([.bold, .underline])).attributes,
                       shim_attr_bold() | shim_attr_underline())
    }

    func testWithoutColoursEveryRoleUsesPairZero() {
        let palette = CursesPalette()
        for role in Style.Role.allCases {
            XCTAssertEqual(palette.rendition(of: Style(role: role)).pair, 0)
        }
        XCTAssertEqual(palette.rendition(of: Style(role: .chrome)).attributes, shim_attr_reverse())
    }
}
