import SurveyValues

/// What a finished survey of the form registers or updates in its entity lists (ODK's
/// entities: XLSForm's `entities` sheet and the survey sheet's `save_to` column), as pyxform
/// 4.5 reads them. A household registered once is offered by `select_one_from_file
/// households.csv` in the follow-up form; the follow-up updates it.
///
/// Read by `XLSFormReader+Entities.swift` with pyxform's rules; what a survey's answers make
/// of it is `FormInstance.entityActions()`.
public struct EntityDeclaration: Equatable, Sendable {
    /// Whether a survey creates an entity, updates one, or either (pyxform's "upsert"): from
    /// which of `entity_id`, `create_if` and `update_if` the row has (no `entity_id`: create;
    /// `entity_id`: update; both `create_if` and `entity_id` with `update_if`: either).
    public enum Mode: String, Equatable, Sendable { case create, update, upsert }

    /// The entity list (`list_name`, or pyxform's older `dataset`): its file is `LIST.csv`.
    public var list: String
    /// The `entities` sheet's row, as the file numbers it.
    public var row: Int
    public var label: FormExpression?
    /// The id of the entity to update (usually the answer of a `select_one_from_file
    /// LIST.csv`); nil when the form only creates.
    public var entityID: FormExpression?
    public var createIf: FormExpression?
    public var updateIf: FormExpression?
    /// The questions whose answers are the entity's properties (`save_to`), in sheet order.
    public var properties: [EntityProperty] = []
    /// Where pyxform puts the entity (its `meta/entity` block): the groups and repeats
    /// around it, outermost first, by name; empty for the survey itself.
    public var container: [String] = []
    /// The repeats among `container`, outermost first: one entity per member of the
    /// innermost (spec 2025.1.0); empty for one entity per survey.
    public var repeats: [String] = []

    public var mode: Mode {
        guard entityID != nil else { return .create }
        return createIf != nil ? .upsert : .update
    }
}

/// One `save_to`: the entity property a question's answer is saved to.
public struct EntityProperty: Equatable, Sendable {
    /// The property's name (after the `list#` prefix): a column of the list file.
    public var name: String
    /// The question whose answer it is (its key in the record or the member).
    public var question: String
    /// The survey sheet's row.
    public var row: Int
}

/// The version of ODK's entities spec a form needs, as pyxform decides it (a form does not
/// name it): 2025.1.0 when it declares more than one list or an entity in a repeat, else
/// 2024.1.0.
public enum EntitiesVersion: String, Equatable, Sendable {
    case v2024_1_0 = "2024.1.0"
    case v2025_1_0 = "2025.1.0"
}

extension XLSForm {
    /// The declaration of `list`, if the form has one.
    public func entity(_ list: String) -> EntityDeclaration? {
        entities.first { $0.list == list }
    }
}
