import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// The offer of kept surveys' own reducer (issue 29): m, t, d, Esc and any other key decided
/// from the offer and what it reads of the app, with no `AppState` in sight.
final class RecoveryOfferReducerTests: XCTestCase {
    private let moment = Date(timeIntervalSince1970: 1_796_032_800)
    private let kept = Recovery(documentName: "Plots", fileName: ".Plots.recovered-1-2.plist", date: Date(timeIntervalSince1970: 0),
                                records: [Record(["firstName": .string("Ana")])])

    private func context(heldFor seconds: TimeInterval? = nil, document: String = "Plots", missing: Bool = false,
                         read: Bool = true) -> Recovery.OfferContext {
        .init(now: moment, heldUntil: seconds.map { moment.addingTimeInterval($0) }, documentName: document,
              documentMissing: missing, documentRead: read)
    }

    func testEachChoiceAsksWhatItSays() {
        XCTAssertEqual(kept.reduce(.mergeRecovery(theirsWhereBothChanged: false), in: context()),
                       .mergeHere(theirsWhereBothChanged: false))
        XCTAssertEqual(kept.reduce(.mergeRecovery(theirsWhereBothChanged: true), in: context(document: "Other")),
                       .restoreOnDisk(theirsWhereBothChanged: true), "another document: on disk")
        XCTAssertEqual(kept.reduce(.mergeRecovery(theirsWhereBothChanged: false), in: context(read: false)),
                       .restoreOnDisk(theirsWhereBothChanged: false), "not read here: on disk")
        XCTAssertEqual(kept.reduce(.mergeRecovery(theirsWhereBothChanged: false), in: context(missing: true)),
                       .warn("“Plots” is gone from the folder: save its records under a name first (F3), then merge these"))
        XCTAssertEqual(kept.reduce(.discardRecovery, in: context(heldFor: -0.5)), .discard, "the hold is over")
        XCTAssertEqual(kept.reduce(.postponeRecovery, in: context()), .postpone)
    }

    func testAChoiceWhileTheOfferHoldsIsRefusedAsAnyOtherKey() {
        let refusal = Recovery.OfferRequest.refuse("Not typed: the kept surveys wait for a choice: m to put them back, "
            + "d to discard them, Esc for later (a second after your last key)")
        XCTAssertEqual(kept.reduce(.keyNotAChoice, in: context()), refusal)
        XCTAssertEqual(kept.reduce(.discardRecovery, in: context(heldFor: 0.5)), refusal)
        XCTAssertEqual(kept.reduce(.postponeRecovery, in: context(heldFor: 0.5)), refusal)
        let clash = Recovery(documentName: "Plots", fileName: ".Plots.recovered-1-2.plist", date: Date(timeIntervalSince1970: 0),
                             records: kept.records, bases: ["uuid:a": Record()])
        guard case .refuse(let message) = clash.reduce(.keyNotAChoice, in: context()) else { return XCTFail("refused") }
        XCTAssertTrue(message.contains("m to merge them, t to take theirs where both changed"), message)
    }
}
