import FoundationEssentials
import SurveyValues

/// What one survey does to the form's entity lists once it is finished: for each declared
/// entity (`XLSForm.entities`), and for each member of its repeat when it is declared in one
/// (spec 2025.1.0), "creates entity ID in list L with label X and properties {…}", "updates
/// entity E", or nothing (its `create_if` / `update_if` false, or its group or member hidden,
/// as ODK Collect leaves a non-relevant `meta/entity` out of the submission).
public struct EntityAction: Equatable, Sendable {
    public enum Kind: String, Equatable, Sendable {
        case create, update
        /// Both `create_if` and `update_if` hold (pyxform's upsert): the entity is updated
        /// when the list has it, else created (ODK Central's reading).
        case createOrUpdate
    }

    public struct Property: Equatable, Sendable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var kind: Kind
    public var list: String
    /// The entity's id (the list file's `name`): for a create, derived from the survey's
    /// `instanceID` (and the member), so every laptop finds the same id for the same survey;
    /// for an update, the value of `entity_id`.
    public var id: String
    /// nil when the form gives none (an update that keeps the label).
    public var label: String?
    /// The `save_to` answers, in the survey sheet's order (text, as the list file holds them).
    public var properties: [Property]
    /// The member the entity belongs to (none: the survey).
    public var member: [AnswerPath.Step]
    /// What the update was made from (ODK's `baseVersion`, with its values), when the survey
    /// carries it (`EntityBase.recordKey`): a change made from an old version is merged
    /// property by property (`EntityList.apply`). nil for a create, and for a survey stored
    /// before bases were kept.
    public var base: EntityBase? = nil

    public init(kind: Kind, list: String, id: String, label: String?, properties: [Property], member: [AnswerPath.Step],
                base: EntityBase? = nil) {
        self.kind = kind
        self.list = list
        self.id = id
        self.label = label
        self.properties = properties
        self.member = member
        self.base = base
    }
}

extension FormInstance {
    /// The entity creates and updates this survey makes, in the entities sheet's order and,
    /// in a repeat, member by member. A create needs the survey's `instanceID` (every
    /// finished survey has one); an update needs a non-empty `entity_id`.
    public func entityActions() -> [EntityAction] {
        guard let form = questionnaire.form, !form.entities.isEmpty else { return [] }
        var actions: [EntityAction] = []
        for entity in form.entities {
            for member in members(of: entity.repeats, from: []) {
                if let action = action(entity, at: member) { actions.append(action) }
            }
        }
        return actions
    }

    /// The steps of every member of the repeats `chain` leads through (one empty path when
    /// the chain is empty), in document order.
    private func members(of chain: [String], from steps: [AnswerPath.Step]) -> [[AnswerPath.Step]] {
        guard let name = chain.first else { return [steps] }
        let count = AnswerTree.count(values, steps[...], name)
        return (0..<count).flatMap { members(of: Array(chain.dropFirst()), from: steps + [AnswerPath.Step(name: name, index: $0)]) }
    }

    private func action(_ entity: EntityDeclaration, at steps: [AnswerPath.Step]) -> EntityAction? {
        guard isShown(entity, at: steps) else { return nil }
        let context = questionnaire.context(values, at: steps, current: "", clock: clock)
        func text(_ expression: FormExpression?) -> String? { expression.map { $0.evaluate(in: context).string } }
        // The attribute is a string bind: Collect takes "1" and "true" as true.
        func holds(_ expression: FormExpression?) -> Bool {
            guard let expression else { return true }
            let value = expression.evaluate(in: context)
            if case .boolean(let b) = value { return b }
            return ["1", "true"].contains(value.string.trimmingWhitespace())
        }
        let creates: Bool, updates: Bool
        switch entity.mode {
        case .create: (creates, updates) = (holds(entity.createIf), false)
        case .update: (creates, updates) = (false, holds(entity.updateIf))
        case .upsert: (creates, updates) = (holds(entity.createIf), holds(entity.updateIf))
        }
        let id: String
        if entity.mode == .create {
            guard creates, let survey = values[Record.instanceIDKey].map(XLSForm.text(of:)), !survey.isEmpty else { return nil }
            id = Self.entityID(survey: survey, list: entity.list, member: steps, values: values)
        } else {
            guard creates || updates, let given = text(entity.entityID)?.trimmingWhitespace(), !given.isEmpty else { return nil }
            id = given
        }
        let properties = entity.properties.map { property in
            EntityAction.Property(name: property.name, value: XLSForm.text(of: AnswerTree.value(values, steps[...], property.question)))
        }
        let kind: EntityAction.Kind = creates && updates ? .createOrUpdate : creates ? .create : .update
        return EntityAction(kind: kind, list: entity.list, id: id, label: text(entity.label), properties: properties, member: steps,
                            base: kind == .create ? nil : EntityBase.stamped(in: values, list: entity.list, id: id))
    }

    /// Whether the entity's `meta/entity` block is in the submission: its member shown, and
    /// each group of its container inside that member shown.
    private func isShown(_ entity: EntityDeclaration, at steps: [AnswerPath.Step]) -> Bool {
        guard questionnaire.instanceShows(steps, in: values, clock: clock) else { return false }
        let groups = entity.container.split(omittingEmptySubsequences: false, whereSeparator: { entity.repeats.contains($0) }).last ?? []
        guard !groups.isEmpty else { return true }
        let scope = questionnaire.scopeQuestionnaire(steps)
        let relevance = relevance(at: steps)
        for group in groups {
            if let i = scope.fields.firstIndex(where: { $0.kind == .groupStart && $0.key == group }), i < relevance.count, !relevance[i] {
                return false
            }
        }
        return true
    }

    /// A created entity's id: an RFC 4122 name-based (SHA-1, version 5 layout) UUID of the
    /// survey's id, the list and the member (its own id when it has one, else its place),
    /// so the same survey gives the same entity on every laptop and at every evaluation.
    static func entityID(survey: String, list: String, member steps: [AnswerPath.Step], values: [String: PropertyValue]) -> String {
        var name = "survey-entity\u{1F}" + survey + "\u{1F}" + list
        var answers = values
        for step in steps {
            answers = AnswerTree.instance(answers, [step][...]) ?? [:]
            let own = AnswerMerge.memberIDKeys.lazy.compactMap { answers[$0].map(XLSForm.text(of:)) }.first { !$0.isEmpty }
            name += "\u{1F}" + step.name + "\u{1F}" + (own ?? "#\(step.index)")
        }
        var bytes = Array((MessageDigest.hash(Array(name.utf8), algorithm: "SHA-1") ?? []).prefix(16))
        if bytes.count < 16 { bytes += Array(repeating: 0, count: 16 - bytes.count) }
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte in let h = String(byte, radix: 16); return h.count == 1 ? "0" + h : h }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
