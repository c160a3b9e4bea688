import Foundation
import XCTest
@testable import SurveyStorage

/// A folder whose sync snapshots read the ledger in part however small it is
/// (`DocumentStore.ledgerReadInPartFrom` lowered to 0), with the journal's steps
/// (`LedgerJournalTestCase`): what the partial ledger's tests share.
class PartialLedgerTestCase: LedgerJournalTestCase {
    private var savedInPart: Int64 = 0

    override func setUp() {
        super.setUp()
        savedInPart = DocumentStore.ledgerReadInPartFrom
        DocumentStore.ledgerReadInPartFrom = 0
    }

    override func tearDown() {
        DocumentStore.ledgerReadInPartFrom = savedInPart
        super.tearDown()
    }
}
