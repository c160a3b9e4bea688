import SurveyValues

/// The `entities` sheet and the survey sheet's `save_to` column, read as pyxform 4.5 reads
/// them (`pyxform/entities/entities_parsing.py`), with its rules and, in survey's voice, its
/// reasons: a form pyxform refuses for its entities is refused here at the same row
/// (`XLSFormEntityTests`). pyxform stops at its first error; this reports one per row.
extension XLSFormReader {
    /// The columns pyxform takes on the entities sheet (`dataset` is `list_name`'s old
    /// name; `repeat` is taken and ignored, as pyxform does).
    static let entityColumns: Set<String> = ["list_name", "dataset", "entity_id", "create_if", "update_if", "repeat", "label"]

    mutating func readEntities(_ sheet: [XLSFormSheets.Row]?, survey: [XLSFormSheets.Row], into form: inout XLSForm) {
        let before = errors.count
        let declared = readEntitySheet(sheet)
        var entities = declared.map { EntityAllocation.Entity(list: $0.list, row: $0.row) }
        let (properties, order) = readSaveTo(survey, declared: declared, entities: &entities)
        guard !declared.isEmpty else { return }
        // pyxform allocates once every reference is known, and only for a form read so far
        // without an entity error: a conflict is then the form's only entity error.
        if errors.count == before {
            let referenced = order.compactMap { list in entities.first { $0.list == list } }
            let unreferenced = declared.filter { d in !referenced.contains { $0.list == d.list } }.map { ($0.list, $0.row) }
            do {
                let allocations = try EntityAllocation.allocate(referenced, unreferenced: unreferenced)
                let keys = Dictionary(form.allQuestions.filter { $0.kind != .endGroup }.map { ($0.row, $0.name) },
                                      uniquingKeysWith: { a, _ in a })
                form.entitiesVersion = declared.count > 1 || allocations.keys.contains { $0.boundaryNodeCount > 0 } ? .v2025_1_0 : .v2024_1_0
                form.entities = declared.compactMap { declaration in
                    var entity = declaration
                    guard let path = allocations.first(where: { $0.value == declaration.list })?.key else {
                        // pyxform's search for a container starts below the entity's scope and
                        // so finds none: it writes no meta/entity, and converts the form.
                        warnings.append(XLSFormProblem(sheet: "entities", row: declaration.row, column: nil,
                                                       message: "pyxform finds no container for the entity list \(declaration.list) "
                                                           + "(its save_to questions are outside the repeat its expressions read): "
                                                           + "it writes no entity for it, so a survey of this form registers nothing "
                                                           + "in \(declaration.list), in ODK Collect or here; put its save_to questions "
                                                           + "and the questions its label reads in one repeat"))
                        return nil
                    }
                    entity.container = path.nodes.dropFirst().map(\.name)
                    entity.repeats = path.nodes.filter { $0.type == .repeat }.map(\.name)
                    entity.properties = properties.filter { $0.list == declaration.list }.map {
                        EntityProperty(name: $0.name, question: keys[$0.row] ?? $0.question, row: $0.row)
                    }
                    return entity
                }
                resolveEntityPaths(&form)
            } catch {
                errors.append(XLSFormProblem(sheet: error.sheet, row: error.row, column: error.column, message: error.message))
            }
        }
        checkEntityReferences(form.entities.isEmpty ? declared : form.entities, form: form)
    }

    // MARK: The entities sheet

    /// The declarations of the sheet, each row checked as pyxform checks it (a row with an
    /// error is kept when it names a list, so a `save_to` naming it is not refused too).
    private mutating func readEntitySheet(_ sheet: [XLSFormSheets.Row]?) -> [EntityDeclaration] {
        guard let sheet else { return [] }
        let (columns, data) = table(sheet)
        let header = sheet.first { row in row.cells.contains { !$0.trimmingWhitespace().isEmpty } }
        // pyxform refuses a column it does not know once a row has a value in it.
        var unknown: [String] = []
        for (i, column) in columns.enumerated() where !column.name.isEmpty && !Self.entityColumns.contains(column.name) {
            let raw = header?.cells[i].trimmingWhitespace() ?? column.name
            if data.contains(where: { i < $0.cells.count && !$0.cells[i].isEmpty }), !unknown.contains(raw) { unknown.append(raw) }
        }
        if !unknown.isEmpty {
            errors.append(XLSFormProblem(sheet: "entities", row: header?.number, column: nil,
                                         message: "the column(s) \(unknown.map { "'\($0)'" }.joined(separator: ", ")) are not supported "
                                             + "by this version of pyxform (nor by survey): check the spelling of the column names, "
                                             + "or remove the columns"))
            return []
        }
        var declared: [EntityDeclaration] = []
        var seen: [String: Int] = [:]
        for (number, cells) in data {
            func cell(_ name: String) -> String? {
                value(name, in: cells, columns: columns) ?? columns.indices.first { columns[$0].name == name && $0 < cells.count && !cells[$0].isEmpty }.map { cells[$0] }
            }
            func refuse(_ column: String?, _ message: String) {
                errors.append(XLSFormProblem(sheet: "entities", row: number, column: column, message: message))
            }
            let list = cell("list_name") ?? cell("dataset")
            guard let list else {
                refuse("list_name", "the entity list has no name: entity lists must have a name")
                continue
            }
            if let problem = Self.entityNameProblem(list, what: "list name") { refuse("list_name", problem); continue }
            let entityID = cell("entity_id"), createIf = cell("create_if"), updateIf = cell("update_if"), label = cell("label")
            if entityID == nil, updateIf != nil {
                refuse("entity_id", "the entity list \(list) has no entity_id, but an entity_id is required when updating entities "
                    + "(updating is meant by an entity_id and/or an update_if): add an entity_id, or to only create entities "
                    + "move the update_if to create_if")
            } else if entityID != nil, createIf != nil, updateIf == nil {
                refuse("update_if", "the entity list \(list) has no update_if, but an update_if is required when upserting entities "
                    + "(upserting is meant by a create_if and an entity_id together): add an update_if, or to only create entities "
                    + "remove the entity_id")
            } else if entityID == nil, label == nil {
                refuse("label", "the entity list \(list) has no label, but a label is required when creating entities "
                    + "(creating is meant by a create_if, or by no entity_id): add a label, or to update entities instead "
                    + "give an entity_id (and optionally an update_if)")
            } else if let first = seen[list] {
                refuse("list_name", "“\(list)” is already declared on row \(first): the list_name column must not have any duplicate names")
                continue
            }
            seen[list] = seen[list] ?? number
            var declaration = EntityDeclaration(list: list, row: number)
            declaration.label = label.flatMap { parse($0, sheet: "entities", row: number, column: "label") }
            declaration.entityID = entityID.flatMap { parse($0, sheet: "entities", row: number, column: "entity_id") }
            declaration.createIf = createIf.flatMap { parse($0, sheet: "entities", row: number, column: "create_if") }
            declaration.updateIf = updateIf.flatMap { parse($0, sheet: "entities", row: number, column: "update_if") }
            declared.append(declaration)
        }
        return declared
    }

    /// pyxform's rules for a list or property name, its reason; nil when it passes.
    static func entityNameProblem(_ name: String, what: String, property: Bool = false) -> String? {
        if property, ["name", "label"].contains(name.lowercased()) {
            return "“\(name)” is not a valid \(what): names used here must not be 'name' or 'label' (case-insensitive), "
                + "which every entity has already"
        }
        if name.hasPrefix("__") {
            return "“\(name)” is not a valid \(what): names used here must not begin with two underscores (ODK keeps those for its own)"
        }
        if !property, name.contains(".") { return "“\(name)” is not a valid \(what): names used here must not contain a period" }
        if !isXMLName(name) {
            return "“\(name)” is not a valid \(what): names must begin with a letter or underscore; after the first character, "
                + "names may contain letters, digits, underscores, hyphens, or periods"
        }
        return nil
    }

    /// Every `${name}` the entities sheet reads names a row of the survey sheet (or
    /// `${instanceID}`), as pyxform checks it.
    private mutating func checkEntityReferences(_ declared: [EntityDeclaration], form: XLSForm) {
        var known: Set<String> = [Record.instanceIDKey]
        for q in form.allQuestions where !q.name.isEmpty && q.kind != .endGroup {
            known.insert(q.name)
            if let last = q.name.split(separator: "/").last { known.insert(String(last)) }
        }
        for d in declared {
            for (column, expression) in [("entity_id", d.entityID), ("create_if", d.createIf), ("update_if", d.updateIf), ("label", d.label)] {
                for name in expression?.fieldReferences ?? [] where !known.contains(name) && !FormExpression.isPath(name) {
                    errors.append(XLSFormProblem(sheet: "entities", row: d.row, column: column,
                                                 message: "unknown field ${\(name)}: reference variables must contain a name from the survey sheet"))
                }
            }
        }
    }

    // MARK: The survey sheet's save_to

    /// Each `save_to` checked, and every reference to a list (its `save_to`s, and the rows
    /// its expressions name) recorded at the container of its row; the lists in the order
    /// they are first referred to, which is the order pyxform allocates them in.
    private mutating func readSaveTo(_ survey: [XLSFormSheets.Row], declared: [EntityDeclaration],
                                     entities: inout [EntityAllocation.Entity])
        -> (properties: [(list: String, name: String, question: String, row: Int)], order: [String]) {
        let (columns, data) = table(survey)
        var named: [String: [String]] = [:]   // question name → lists whose expressions read it
        for d in declared {
            for expression in [d.entityID, d.createIf, d.updateIf, d.label] {
                for name in expression?.fieldReferences ?? [] where !(named[name]?.contains(d.list) ?? false) {
                    named[name, default: []].append(d.list)
                }
            }
        }
        var path = EntityAllocation.Path.survey
        var properties: [(list: String, name: String, question: String, row: Int)] = []
        var order: [String] = []
        func refer(_ list: String, _ reference: EntityAllocation.Reference) {
            guard let i = entities.firstIndex(where: { $0.list == list }) else { return }
            entities[i].references.append(reference)
            if !order.contains(list) { order.append(list) }
        }
        for (number, cells) in data {
            guard let type = value("type", in: cells, columns: columns) else { continue }
            let name = value("name", in: cells, columns: columns)
            let control = Self.control(type)
            let container: EntityAllocation.ContainerType? = control.map { c in
                ["repeat", "lgroup", "looped group"].contains(c.control) ? .repeat : .group
            }
            if let saveTo = value("save_to", in: cells, columns: columns) {
                if let property = checkSaveTo(saveTo, row: number, isContainer: control != nil, declared: declared,
                                              properties: properties) {
                    properties.append((property.list, property.name, name ?? "", number))
                    refer(property.list, EntityAllocation.Reference(path: path, row: number, property: property.name))
                }
            }
            if control?.begins != false, let name {
                for list in named[name] ?? [] {
                    refer(list, EntityAllocation.Reference(path: path, row: number, question: name))
                }
            }
            if let control, let container {
                if control.begins {
                    path.nodes.append(EntityAllocation.Node(name: name ?? "", type: container))
                } else if path.nodes.count > 1 {
                    path.nodes.removeLast()
                }
            }
        }
        return (properties, order)
    }

    /// The list and property a `save_to` names, or nil with pyxform's reason.
    private mutating func checkSaveTo(_ text: String, row: Int, isContainer: Bool, declared: [EntityDeclaration],
                                      properties: [(list: String, name: String, question: String, row: Int)]) -> (list: String, name: String)? {
        func refuse(_ message: String) -> (list: String, name: String)? {
            errors.append(XLSFormProblem(sheet: "survey", row: row, column: "save_to", message: message))
            return nil
        }
        guard !declared.isEmpty else {
            return refuse("to save entity properties using the save_to column, add an entities sheet and declare an entity")
        }
        let parts = text.split(separator: "#", omittingEmptySubsequences: false).map(String.init)
        let list: String, name: String
        switch parts.count {
        case 1:
            guard declared.count == 1 else {
                return refuse("when there is more than one entity declaration, save_to names must be prefixed with the entity "
                    + "list_name that the property belongs to, separated with a '#' (as in households#phone)")
            }
            (list, name) = (declared[0].list, text)
        case 2:
            (list, name) = (parts[0], parts[1])
        default:
            return refuse("“\(text)” is not a valid save_to: a save_to value must have at most one '#' delimiter character")
        }
        guard declared.contains(where: { $0.list == list }) else {
            return refuse("the entity list name '\(list)' was not found on the entities sheet: check the spelling of the list name "
                + "in the save_to value, or add a row for this entity list on the entities sheet")
        }
        if name.isEmpty {
            return refuse("“\(text)” is not a valid save_to: names must begin with a letter or underscore; after the first character, "
                + "names may contain letters, digits, underscores, hyphens, or periods")
        }
        if isContainer {
            return refuse("groups and repeats can't be saved as entity properties: remove the save_to value from this row, "
                + "or move it to a question")
        }
        if let problem = Self.entityNameProblem(name, what: "property name", property: true) { return refuse(problem) }
        if let other = properties.first(where: { $0.list == list && $0.name == name }) {
            return refuse("the save_to property '\(name)' is already assigned by row \(other.row): remove or change one of these "
                + "duplicate save_to property names")
        }
        return (list, name)
    }
}
