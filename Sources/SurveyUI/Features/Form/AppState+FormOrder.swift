import SurveyValues
import SurveyForms

/// Which questions the highlight visits, in Tab/↑/↓ order: the ones a person answers that
/// `relevant` shows now, then Clear and Add. Notes, group headings, calculated values and rows
/// a terminal cannot collect are shown but skipped, as are read-only questions.
extension AppState {
    /// Whether each field shows for the record on the form (always, without a form).
    public var formRelevance: [Bool] {
        guard questionnaire.form != nil else { return Array(repeating: true, count: questionnaire.fields.count) }
        return caches.ruleCache.relevance(questionnaire, formRecord, ruleClock)
    }

    /// The highlight's stops, in order.
    var navigableItems: [FormItem] {
        let outline = self.outline
        return outline.indices.filter { outline.isNavigable($0) }.map { .field($0) } + [.clear, .add]
    }

    /// The first question a survey starts on.
    var firstFormItem: FormItem { navigableItems.first ?? .clear }

    /// ↑/↓ stop at the ends; Tab/Shift-Tab wrap. A highlight left on a question that has
    /// just been hidden moves from where it was.
    mutating func moveHighlight(by delta: Int, wrap: Bool) {
        let items = navigableItems
        let end = outline.count
        let n = items.count
        let i: Int
        if let here = items.firstIndex(of: formItem) {
            i = here + delta
        } else {
            // Not a stop any more: the next stop after it (or the one before, going back).
            let after = items.firstIndex { order($0, end: end) > order(formItem, end: end) } ?? n - 1
            i = delta > 0 ? after : after - 1
        }
        form.highlight(items[wrap ? ((i % n) + n) % n : min(max(0, i), n - 1)])
    }

    /// A form item's place in the whole form, for comparing items that are not stops.
    private func order(_ item: FormItem, end: Int) -> Int {
        switch item {
        case .field(let i): return i
        case .clear: return end
        case .add: return end + 1
        }
    }

    /// The highlight on a stop: the first one from where it is (after a record change hid
    /// its question, or a new form).
    mutating func settleHighlight() {
        let items = navigableItems
        guard !items.contains(formItem) else { return }
        let end = outline.count
        form.highlight(items.first { order($0, end: end) > order(formItem, end: end) } ?? .add)
    }

    /// The form's geometry as drawn now.
    public var formGeometry: FormGeometry { formGeometry(in: layout.form, outline: outline) }

    /// The same in `rect`, its rows laid out once per record and width (`FormRuleCache.layout`).
    func formGeometry(in rect: Rect, outline: FormWalk) -> FormGeometry {
        guard questionnaire.form != nil else {
            return caches.flatGeometry.geometry(form: rect, rows: FormRows.of(self, outline: outline), scroll: form.formScroll,
                                                finishing: finishesShownSurvey)
        }
        let rows = drawnForm(outline).rows
        let laidOut = caches.ruleCache.layout(questionnaire, formRecord, ruleClock, key: drawnKey, rows: rows, width: rect.width)
        return FormGeometry(form: rect, rows: rows, scroll: form.formScroll, layout: laidOut,
                            keepHeading: highlightsMember(in: outline), finishing: finishesShownSurvey)
    }

    /// Scrolls a long form so the highlighted question (and the line under it) is in view.
    mutating func keepFormHighlightInView() {
        guard questionnaire.form != nil else { form.scroll(to: 0); return }
        let geometry = formGeometry
        guard geometry.viewport.height > 0, let span = geometry.contentSpan(of: formItem) else {
            form.scroll(to: geometry.scroll)
            return
        }
        var top = geometry.scroll
        // Inside a roster, its heading ("Household member 2 of 4") too, when both fit.
        if let (entry, _) = rosterHeadingHere, case .field(let i) = formItem, i != entry,
           let headingSpan = geometry.contentSpan(of: .field(entry)),
           span.upperBound - headingSpan.lowerBound < geometry.viewport.height {
            top = min(top, headingSpan.lowerBound)
            if span.upperBound >= top + geometry.viewport.height { top = span.upperBound - geometry.viewport.height + 1 }
        }
        if span.lowerBound < top { top = span.lowerBound }
        if span.upperBound >= top + geometry.viewport.height { top = span.upperBound - geometry.viewport.height + 1 }
        form.scroll(to: max(0, min(top, geometry.contentHeight - geometry.viewport.height)))
    }

    /// Answers hidden for the record on the form (none when it is another record's).
    var hiddenAnswersHere: [String: PropertyValue] { form.hiddenAnswers.values(for: hiddenAnswersOwner) }

    var hiddenAnswersOwner: String {
        switch shown {
        case .draft: return "New"
        case .record: return formRecord.instanceID ?? "record \(list.rows.cursor)"
        }
    }
}

extension FormWalk {
    /// A question a person answers and `relevant` shows, or a roster's heading (where
    /// PgUp/PgDn, ^O and ^D act on its members).
    func isNavigable(_ index: Int) -> Bool {
        guard isShown(index) else { return false }
        if heading(index) != nil { return true }
        guard field(index).kind.isAnswered else { return false }
        return !isReadOnly(index)
    }
}
