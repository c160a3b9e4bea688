/// Left clicks, hit-tested against the same geometry the screen is drawn from.
extension AppState {
    /// `shown` is the status message that was on screen: a long one takes a row from the
    /// body, so the click is placed in that layout even though the click clears the message.
    mutating func click(at point: Point, drawnWith shown: StatusMessage?) -> [Effect] {
        let layout = Layout(size: size, splitWidth: screen.splitWidth, status: shown?.text)
        guard layout.kind != .tooSmall else { return [] }
        switch popover {
        case .list:
            let rows = list.body(in: layout)
            let box = layout.listPopoverBox(rowCount: list.projection.rowCount + (list.showsFilterLine ? 1 : 0))
            if rows.contains(point) {
                if let index = list.record(at: point, in: rows) {
                    showRecord(index)
                    popovers.dismiss()
                    screen.moveFocus(to: .form)
                }
            } else if !box.contains(point) {
                popovers.dismiss()
            }
            return []
        case .help:
            popovers.close(backToTheListFor: list.filterInput != nil && !isSplit)
            return []
        case .verify:
            // Verification is keyed: a click neither answers nor closes it.
            return []
        case .tree(let tree):
            // A click on a row goes there; outside the box closes it.
            let g = InterviewTreeView.geometry(tree, layout: layout)
            let position = g.scroll + point.y - g.rows.y
            if g.rows.contains(point), tree.visible.indices.contains(position) {
                return reduce(TreeAction.move(position - tree.highlighted)) + reduce(TreeAction.go)
            }
            if !g.box.contains(point) { popovers.dismiss() }
            return []
        case .documents:
            let rows = layout.documentManagerRows(rowCount: documents.count)
            if rows.contains(point) {
                manager.click(row: point.y - rows.y)
            } else if !layout.documentManagerBox(rowCount: documents.count).contains(point) {
                popovers.dismiss()
            }
            return []
        case .picker(let picker):
            let g = ChoicePickerView.geometry(picker, state: self)
            guard g.box.contains(point) else {
                popovers.dismiss()
                return []
            }
            guard g.rows.contains(point), let position = g.position(atRow: point.y) else { return [] }
            return reduce(PickerAction.click(row: position))
        case .confirmDelete, .saveAs, .recovery, .audit:
            return []
        case nil:
            break
        }
        if let button = layout.surveysButton, button.contains(point) {
            return committingField { $0.showList() }
        }
        if layout.isSplit {
            let rows = list.body(in: layout)
            if rows.contains(point) {
                guard let index = list.record(at: point, in: rows), let effects = commitEditing() else { return [] }
                screen.moveFocus(to: .list)
                showRecord(index)
                return effects
            }
        }
        guard document != nil, screen.detail == .form,
              let item = FormGeometry(form: layout.form, rows: FormRows.of(self), scroll: form.formScroll,
                                      finishing: finishesShownSurvey).item(at: point)
        else { return [] }
        if case .field(let i) = item, editing?.entry == i { return [] }
        if case .field = item {
            guard let effects = commitEditing() else { return [] }
            screen.moveFocus(to: .form)
            form.highlight(item)
            beginEditing(inserting: nil)
            return effects
        }
        // Clear and Add commit the field themselves.
        screen.moveFocus(to: .form)
        form.highlight(item)
        return item == .add ? addRecord() : clearForm()
    }

    /// The wheel over the survey list (pane or popover) or the documents list moves its
    /// highlight three rows, as lazygit's does; the form follows. Elsewhere it does nothing.
    mutating func wheel(_ delta: Int, at point: Point) {
        let step = delta * 3
        switch popover {
        case .list:
            if layout.listPopoverBox(rowCount: list.projection.rowCount + (list.showsFilterLine ? 1 : 0)).contains(point) {
                _ = follow(list.reduce(.move(step), in: listContext))
            }
        case .documents:
            if layout.documentManagerBox(rowCount: documents.count).contains(point) {
                manager.wheel(step, in: managerContext)
            }
        case nil:
            guard editing == nil, let pane = layout.listPane, pane.contains(point) else { return }
            _ = follow(list.reduce(.move(step), in: listContext))
        default:
            break
        }
    }
}
