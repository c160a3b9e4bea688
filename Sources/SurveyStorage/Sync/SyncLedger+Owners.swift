import FoundationEssentials
import SurveyValues
import SurveyForms

/// Whose survey it is (issue 28). The team's server lets only the role that first pushed a
/// survey change its answers or delete it (row-level security); a supervisor sets only its
/// review. A laptop that let anyone else change it locally would see the change refused at
/// every sync, and the laptops would stay different, so the laptop mirrors the rule: a survey
/// whose owner is known and is not the role this laptop syncs as is read-only here, in the
/// app and in the shell, and a change to it from before is kept as a conflict, never sent
/// (`SyncPlan.holdOthersChanges`). A supervisor's laptop owns no survey (supervisors push
/// none), so every synced survey is read-only there too, as the server has it.
extension SyncLedger {
    /// The owner of survey `id` when it is not the role this laptop last synced as, or nil
    /// when this laptop may change it: its own, one not synced yet, or one whose owner it has
    /// not heard of.
    public func othersOwner(of id: String) -> String? { othersOwner(of: id, as: role) }

    /// The owner of survey `id` when it is not `role`'s (a sync, which knows its role before
    /// the ledger does).
    public func othersOwner(of id: String, as role: String?) -> String? {
        guard let owner = owners[id], owner != role else { return nil }
        return owner
    }

    /// Every survey this laptop may not change, by id, with its owner.
    public var othersSurveys: [String: String] {
        owners.isEmpty ? [:] : owners.dictionary.filter { $0.value != role }
    }
}

