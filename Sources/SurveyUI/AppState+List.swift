/// The survey list: its highlight, which the form follows, and its scroll.
extension AppState {
    /// Rows of the list that fit on screen now (pane or popover).
    var listViewportHeight: Int {
        layout.listRows(inPopover: !layout.isSplit, rowCount: recordCount).height
    }

    /// Moves the list highlight (clamped) and shows that record at once.
    mutating func moveListCursor(to index: Int) {
        guard recordCount > 0 else { return }
        showRecord(min(max(0, index), recordCount - 1))
    }

    /// Shows a record on the form and keeps the list highlight and scroll on it.
    mutating func showRecord(_ index: Int) {
        shown = .record(index)
        ensureListCursorVisible()
    }

    /// Scrolls the list as little as possible so the highlighted row is on screen.
    mutating func ensureListCursorVisible() {
        let height = listViewportHeight
        listCursor = min(max(0, listCursor), max(0, recordCount - 1))
        guard height > 0 else { return }
        if listCursor < listScroll { listScroll = listCursor }
        if listCursor >= listScroll + height { listScroll = listCursor - height + 1 }
        listScroll = min(max(0, listScroll), max(0, recordCount - height))
    }

    /// Esc (or F1 on help): help goes back to the list it was opened over; anything else closes.
    mutating func closePopover() {
        popover = popover == .help ? popoverUnderHelp : nil
        popoverUnderHelp = nil
    }

    /// F2: the list pane takes focus (split) or the list pops up (collapsed). Commits first.
    mutating func showList() -> [Effect] {
        guard let effects = commitEditing() else { return [] }
        if layout.isSplit {
            popover = nil
            focus = .list
        } else {
            popover = .list
        }
        ensureListCursorVisible()
        return effects
    }

    /// Keeps focus and popovers legal for the layout: collapsed has no list pane to focus,
    /// split has no list popover (its pane takes the focus instead).
    mutating func resize(to newSize: Size) {
        size = newSize
        switch layout.kind {
        case .collapsed where focus == .list:
            focus = .form
        case .split where popover == .list:
            popover = nil
            focus = .list
        default:
            break
        }
        ensureListCursorVisible()
        ensureManagerCursorVisible()
    }
}
