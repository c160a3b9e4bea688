/// Where each entity of a form goes (the group or repeat whose `meta/entity` block pyxform
/// writes it into), and the scope conflicts pyxform refuses: pyxform 4.5's
/// `entities_parsing.py` (`get_allocation_request`, `allocate_entities_to_containers`),
/// ported step for step so `form check` gives its verdict, and its row, on the same form.
/// Its quirks are kept on purpose (a tie goes to the first candidate, the first `save_to`
/// lineage alone is asked about a reserved container): a form pyxform refuses is refused here.
struct EntityAllocation {
    enum ContainerType: Equatable, Hashable { case survey, group, `repeat` }

    struct Node: Hashable {
        let name: String
        let type: ContainerType
    }

    /// The containers from the survey down to one: `/survey/g1/r1`.
    struct Path: Hashable, CustomStringConvertible {
        var nodes: [Node]

        static let survey = Path(nodes: [Node(name: "survey", type: .survey)])

        func prefix(_ count: Int) -> Path { Path(nodes: Array(nodes.prefix(count))) }

        /// The nearest repeat (or the survey) at or above the end of the path.
        var scopeBoundary: Path {
            for i in nodes.indices.reversed() where nodes[i].type != .group { return prefix(i + 1) }
            return .survey
        }

        /// How many repeats the path goes through (pyxform's `get_scope_boundary_node_count`).
        var boundaryNodeCount: Int { nodes.dropFirst().filter { $0.type == .repeat }.count }

        /// How many groups end the path below its scope boundary.
        var subpathNodeCount: Int {
            var count = 0
            for node in nodes.reversed() {
                if node.type != .group { break }
                count += 1
            }
            return count
        }

        var description: String { "/" + nodes.map(\.name).joined(separator: "/") }
    }

    /// A `save_to` (`property`) or a question the entities sheet names (`question`), at the
    /// container of its row.
    struct Reference {
        let path: Path
        let row: Int
        var property: String?
        var question: String?
    }

    /// The references to one entity list, in survey-sheet order.
    struct Entity {
        let list: String
        let row: Int
        var references: [Reference] = []
    }

    /// A refusal: the sheet, row and column it is reported at, and why.
    struct Refusal: Error {
        let sheet: String
        let row: Int
        let column: String?
        let message: String
    }

    struct Request {
        let scope: Path
        let list: String
        let requested: Path
        let entityRow: Int
        /// Ordered, no repeats (pyxform's dict used as a set).
        let lineages: [Path]
    }

    /// Where `entity` asks to go, or why its references cannot share one container.
    static func request(for entity: Entity) throws(Refusal) -> Request {
        var deepestScopeRef: Reference?
        var deepestScope: Path?
        var deepestScopeCount = 0
        var deepestContainer: Reference?
        var deepestContainerSub = 0
        var deepestSaveTo: Reference?
        var deepestSaveToSub = 0
        var lineages: [Path] = []
        var boundaries: [(ref: Reference, boundary: Path)] = []

        for ref in entity.references {
            let sub = ref.path.subpathNodeCount
            let boundary = ref.path.scopeBoundary
            let boundaryCount = boundary.boundaryNodeCount
            if deepestScope == nil || boundaryCount > deepestScopeCount {
                if boundary != deepestScope {
                    deepestContainer = ref
                    deepestContainerSub = sub
                    if ref.property != nil {
                        deepestSaveTo = ref
                        deepestSaveToSub = sub
                    }
                }
                deepestScope = boundary
                deepestScopeCount = boundaryCount
                deepestScopeRef = ref
            }
            boundaries.append((ref, boundary))
            if deepestContainer == nil || (boundary == deepestScope && sub > deepestContainerSub) {
                deepestContainer = ref
                deepestContainerSub = sub
            }
            if ref.property != nil {
                if !lineages.contains(ref.path) { lineages.append(ref.path) }
                if deepestSaveTo == nil || (boundary == deepestScope && sub > deepestSaveToSub) {
                    deepestSaveTo = ref
                    deepestSaveToSub = sub
                }
            }
        }
        guard let deepestScope, let deepestScopeRef, let deepestContainer else {
            return Request(scope: .survey, list: entity.list, requested: .survey, entityRow: entity.row, lineages: [])
        }
        var requested = deepestSaveTo?.path ?? deepestContainer.path
        if let any = lineages.first, let deepestSaveTo {
            let minimum = lineages.map(\.nodes.count).min() ?? 0
            var common = any.prefix(minimum)
            if lineages.count > 1 {
                // As pyxform: a difference at one depth cuts the common path there, and the
                // search goes on to the next depth.
                for i in 0..<minimum {
                    let target = any.nodes[i]
                    if lineages.contains(where: { $0.nodes[i] != target }) { common = any.prefix(i) }
                }
                let candidates = [deepestSaveTo.path.scopeBoundary, common]
                func key(_ p: Path) -> (Int, Int) { (p.boundaryNodeCount, p.subpathNodeCount) }
                requested = key(candidates[1]) > key(candidates[0]) ? candidates[1] : candidates[0]
            } else {
                requested = common
            }
        }
        let requestedScope = requested.scopeBoundary
        for (ref, boundary) in boundaries {
            if Array(deepestScope.nodes.prefix(boundary.nodes.count)) != boundary.nodes {
                throw conflict(entity, ref, other: deepestScopeRef.path)
            }
            if ref.property != nil, requestedScope != boundary {
                throw conflict(entity, ref, other: requested)
            }
        }
        return Request(scope: deepestScope, list: entity.list, requested: requested, entityRow: entity.row, lineages: lineages)
    }

    /// pyxform's "reference scope conflict": at the `save_to`'s row, or at the entity's
    /// when a question its expressions name is out of its scope.
    private static func conflict(_ entity: Entity, _ ref: Reference, other: Path) -> Refusal {
        let advice = "copy either value into the desired container scope with a calculate question, then use that calculate for the save_to"
        if let property = ref.property {
            return Refusal(sheet: "survey", row: ref.row, column: "save_to",
                           message: "the entity list \(entity.list) has a reference in container scope '\(other)' which is not compatible "
                               + "with this save_to reference (“\(property)”) in scope '\(ref.path)' "
                               + "(an entity's fields cannot reach into a repeat it is not declared in): "
                               + "check the spelling of the list name in the save_to, or \(advice)")
        }
        return Refusal(sheet: "entities", row: entity.row, column: nil,
                       message: "the entity list \(entity.list) has a reference in container scope '\(other)' which is not compatible "
                           + "with the variable reference to '\(ref.question ?? "")' in scope '\(ref.path)' "
                           + "(an entity's fields cannot reach into a repeat it is not declared in): "
                           + "check the spelling of the variable references, or \(advice)")
    }

    /// The container each list's entity goes into: `entities` in the survey sheet's order of
    /// first reference, then `unreferenced` (in the entities sheet's order) at the survey.
    static func allocate(_ entities: [Entity], unreferenced: [(list: String, row: Int)]) throws(Refusal) -> [Path: String] {
        var scopes: [(scope: Path, requests: [Request])] = []
        func add(_ request: Request) {
            if let i = scopes.firstIndex(where: { $0.scope == request.scope }) { scopes[i].requests.append(request) }
            else { scopes.append((request.scope, [request])) }
        }
        for entity in entities { add(try request(for: entity)) }
        for (list, row) in unreferenced {
            add(Request(scope: .survey, list: list, requested: .survey, entityRow: row, lineages: []))
        }
        if scopes.count == 1, scopes[0].scope == .survey, scopes[0].requests.count == 1 {
            return [.survey: scopes[0].requests[0].list]
        }
        let rows = Dictionary((entities.map { ($0.list, $0.row) } + unreferenced.map { ($0.list, $0.row) }),
                              uniquingKeysWith: { a, _ in a })
        var allocations: [Path: String] = [:]
        var reserved: [Path: String] = [:]
        for (scope, requests) in scopes {
            let limit = scope.nodes.count - 1
            for request in requests.enumerated().sorted(by: { ($0.element.entityRow, $0.offset) < ($1.element.entityRow, $1.offset) }).map(\.element) {
                var conflict: String?
                var depth = request.requested.nodes.count
                while depth > limit {
                    let current = request.requested.prefix(depth)
                    depth -= 1
                    conflict = allocations[current] ?? reserved[current]
                    if conflict != nil {
                        // pyxform asks about the first lineage only.
                        if let first = request.lineages.first, let taken = reserved[first] {
                            conflict = taken
                            break
                        }
                        continue
                    }
                    allocations[current] = request.list
                    reserved[current] = request.list
                    for lineage in request.lineages {
                        var i = lineage.nodes.count
                        while i > current.nodes.count - 1 {
                            reserved[lineage.prefix(i)] = request.list
                            i -= 1
                        }
                    }
                    break
                }
                if let conflict {
                    throw Refusal(sheet: "entities", row: request.entityRow, column: nil,
                                  message: "each container (survey, group, repeat) may have only one entity declaration, but there are no "
                                      + "valid containers available in the scope '\(scope)', which has been allocated to the entity "
                                      + "on row \(rows[conflict] ?? 0): check which entities the save_to column refers to, and which "
                                      + "questions the entities sheet refers to (as in its label)")
                }
            }
        }
        return allocations
    }
}
