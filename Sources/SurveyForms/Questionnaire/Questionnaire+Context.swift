import FoundationEssentials
import SurveyValues

/// What an expression sees of a survey, from where it is evaluated: the top level (no steps)
/// or one instance of a roster (`member[2]`, `plot[1]/tree[3]`). Names are read as pyxform
/// writes them into the XForm's binds:
/// - a question of the same instance, or of an instance around it, is that one answer
///   (`../age`, `../../age`);
/// - a question in a repeat the rule is not inside is the node-set of every instance, in
///   document order (`sum(/data/member/age)`), narrowed to the instances the rule shares
///   (`sum(../plot/area)` in a member is that member's plots); as a single value, the first;
/// - a repeat's own name is its instances (`count(${member})`);
/// - `position(..)` is the instance's place, `indexed-repeat` any instance, the missing
///   levels of its path taken from where the rule is, as JavaRosa fills them in.
extension Questionnaire {
    package func context(_ record: Record, current: String, clock: Clock) -> FormContext {
        context(record.values, at: [], current: current, clock: clock)
    }

    package func context(_ values: [String: PropertyValue], current: String, clock: Clock) -> FormContext {
        context(values, at: [], current: current, clock: clock)
    }

    package func context(_ values: [String: PropertyValue], at steps: [AnswerPath.Step], current: String, clock: Clock) -> FormContext {
        guard let outline = outline?.value else {
            var context = FormContext(current: .string(current), now: clock.now, timeZone: clock.timeZone) { name in
                .string(XLSForm.text(of: values[name]))
            }
            let fields = self.fields
            context.choiceLabel = { question, choice in fields.first { $0.key == question }?.choiceLabels[choice] }
            if let form { context.instance = { [language] name in form.instanceRows(name, language: language) } }
            let saved = lastSaved
            context.lastSaved = { name in .string(XLSForm.text(of: saved[name])) }
            return context
        }
        let chain = steps.map(\.name)
        var context = FormContext(current: .string(current), now: clock.now, timeZone: clock.timeZone) { name in
            guard let g = outline.resolve(name, from: chain) else { return .string(XLSForm.text(of: values[name])) }
            let valueChain = outline.valueChain(g)
            if outline.scopeOfRepeatRow[g] == nil, valueChain.count <= chain.count, chain.starts(with: valueChain) {
                return .string(XLSForm.text(of: AnswerTree.value(values, steps.prefix(valueChain.count), name)))
            }
            return Self.nodes(of: g, named: name, in: values, from: steps, outline: outline).first ?? .string("")
        }
        context.nodeSet = { name in
            guard let g = outline.resolve(name, from: chain) else { return [.string(XLSForm.text(of: values[name]))] }
            return Self.nodes(of: g, named: name, in: values, from: steps, outline: outline)
        }
        context.repeatPositions = steps.map { $0.index + 1 }
        context.indexedRepeat = { name, path in
            guard let g = outline.resolve(name, from: chain) else { return .string("") }
            let valueChain = outline.valueChain(g)
            var at: [AnswerPath.Step] = []
            for (depth, repeatName) in valueChain.enumerated() {
                let index: Int
                if let given = path.first(where: { $0.repeat == repeatName }) { index = given.index - 1 }
                else if depth < steps.count, chain[depth] == repeatName, at.count == depth, depth == 0 || at[depth - 1] == steps[depth - 1] {
                    index = steps[depth].index
                } else { index = 0 }
                at.append(AnswerPath.Step(name: repeatName, index: index))
            }
            if outline.scopeOfRepeatRow[g] != nil { return .string("") }
            return .string(XLSForm.text(of: AnswerTree.value(values, at[...], name)))
        }
        context.choiceLabel = { question, choice in outline.choiceLabels[question]?[choice] }
        if let form { context.instance = { [language] name in form.instanceRows(name, language: language) } }
        // pyxform writes it from the top of the last saved instance
        // (`instance('__last-saved')/data/member/age`): in a repeat, its first instance's.
        let saved = lastSaved
        context.lastSaved = { name in
            guard let g = outline.resolve(name, from: []) else { return .string(XLSForm.text(of: saved[name])) }
            return Self.nodes(of: g, named: name, in: saved, from: [], outline: outline).first ?? .string("")
        }
        return context
    }

    /// Every value of node `g` seen from `steps`: one per instance of the repeats it is in
    /// that the rule is not inside, in document order (one node when it is inside all of
    /// them). A repeat's values are its instances, counted from the instance around it.
    static func nodes(of g: Int, named name: String, in values: [String: PropertyValue], from steps: [AnswerPath.Step],
                      outline: FormOutline) -> [FormValue] {
        let valueChain = outline.valueChain(g)
        let isRepeat = outline.scopeOfRepeatRow[g] != nil
        var shared = 0
        while shared < min(valueChain.count, steps.count), valueChain[shared] == steps[shared].name { shared += 1 }
        if isRepeat { shared = min(shared, valueChain.count - 1) }
        guard let start = AnswerTree.instance(values, steps.prefix(shared)) else { return [] }
        var found: [FormValue] = []
        func walk(_ answers: [String: PropertyValue], _ depth: Int) {
            if depth == valueChain.count {
                found.append(isRepeat ? .string("") : .string(XLSForm.text(of: answers[name])))
                return
            }
            guard case .array(let items)? = answers[valueChain[depth]] else { return }
            for case .dictionary(let inner) in items { walk(inner, depth + 1) }
        }
        walk(start, shared)
        return found
    }
}
