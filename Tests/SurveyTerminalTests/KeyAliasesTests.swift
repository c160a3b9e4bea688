import CNcurses
import XCTest
@testable import SurveyTerminal

final class KeyAliasesTests: XCTestCase {
    func testEveryAliasIsAnEscapeSequenceListedOnce() {
        let sequences = KeyAliases.sequences.map(\.sequence)
        XCTAssertEqual(Set(sequences).count, sequences.count)
        for sequence in sequences {
            XCTAssertTrue(sequence.hasPrefix("\u{1B}"), sequence.debugDescription)
            XCTAssertGreaterThan(sequence.utf8.count, 2)
        }
    }

    func testEveryAliasButTheKeypadCentreDecodesToAKey() {
        for alias in KeyAliases.sequences where alias.code != KEY_B2 {
            XCTAssertNotNil(KeyDecoder.decode(code: UInt32(alias.code), isFunctionKey: true),
                            alias.sequence.debugDescription)
        }
    }
}
