import SurveyValues
import SurveyForms

/// Draws a whole frame from the state into a fresh grid. Pure: the same state always gives
/// the same grid, which is what the screen tests compare.
public enum Screen {
    public static func render(_ state: AppState) -> CellGrid {
        var grid = CellGrid(size: state.size)
        render(state, into: &grid)
        return grid
    }

    /// Draws the frame into `grid`, which is first made blank at the state's size: the same
    /// cells as `render(state)`, but an earlier frame's grid is reused rather than a new one
    /// allocated (and the old one freed) for every key.
    public static func render(_ state: AppState, into grid: inout CellGrid) {
        grid.reset(size: state.size)
        let layout = state.layout
        if layout.kind == .tooSmall {
            TooSmallView(size: state.size).draw(into: &grid, in: grid.bounds)
            return
        }
        let title = state.session.documentMissing ? "\(state.documentName) (missing)"
            : state.session.formTrouble != nil ? "\(state.documentName) (read-only)" : state.documentName
        TitleBar(documentName: title, position: state.document == nil ? "" : state.positionTitle,
                 surveysButton: layout.surveysButton, remark: state.finishesShownSurvey ? "incomplete" : nil)
            .draw(into: &grid, in: layout.titleBar)
        if let pane = layout.listPane {
            ListPane.make(from: state, focused: state.screen.focus == .list && state.popover == nil)
                .draw(into: &grid, in: Rect(x: pane.x, y: pane.y, width: pane.width - 1, height: pane.height))
            for y in pane.y..<pane.maxY { grid[pane.maxX - 1, y] = Cell("│", style: .muted) }
        }
        if state.screen.detail == .info {
            DocumentInfoView.make(from: state).draw(into: &grid, in: layout.form)
        } else if state.screen.detail == .conflicts {
            ConflictsView.make(from: state).draw(into: &grid, in: layout.form)
        } else if let error = state.session.loadError {
            UnreadableDocumentView(documentName: state.documentName, reason: error).draw(into: &grid, in: layout.form)
        } else if let trouble = state.session.formTrouble, state.shown == .draft {
            FormTroubleView(documentName: state.documentName, trouble: trouble).draw(into: &grid, in: layout.form)
        } else if case .record(let i) = state.shown, state.records.indices.contains(i), state.records[i].isSealed {
            SealedSurveyView.make(from: state, record: state.records[i]).draw(into: &grid, in: layout.form)
        } else {
            FormPane.make(from: state).draw(into: &grid, in: layout.form)
        }
        StatusLine(message: state.status ?? state.indexingRemark ?? state.highlightedDocumentRemark ?? state.readOnlyRemark ?? state.loadingRemark).draw(into: &grid, in: layout.statusLine)
        KeyBar(mode: state.inputMode).draw(into: &grid, in: layout.keyBar)

        switch state.popover {
        case .list:
            grid.cursor = nil
            let box = layout.listPopoverBox(rowCount: state.list.projection.rowCount + (state.list.showsFilterLine ? 1 : 0))
            let inner = grid.box(box, style: .accent)
            ListPane.make(from: state, focused: true).draw(into: &grid, in: inner)
        case .help:
            grid.cursor = nil
            HelpPopover.make(from: state).draw(into: &grid, layout: layout)
        case .documents:
            grid.cursor = nil
            DocumentManagerView.make(from: state).draw(into: &grid, layout: layout)
        case .confirmDelete(let name, let records):
            grid.cursor = nil
            ConfirmDeletePopover(name: name, records: records).draw(into: &grid, layout: layout)
        case .saveAs(let buffer):
            grid.cursor = nil
            SaveAsPopover(name: state.documentName, records: state.recordCount, buffer: buffer,
                          unreadable: state.session.missingReason != nil)
                .draw(into: &grid, layout: layout)
        case .recovery(let recovery):
            grid.cursor = nil
            RecoveryPopover.make(recovery, from: state).draw(into: &grid, layout: layout)
        case .picker(let picker):
            grid.cursor = nil
            ChoicePickerView.make(picker, from: state).draw(into: &grid)
        case .tree(let tree):
            grid.cursor = nil
            InterviewTreeView(tree: tree, layout: layout).draw(into: &grid)
        case .verify(let verify):
            grid.cursor = nil
            VerifyView(session: verify, layout: layout).draw(into: &grid)
        case .audit(let prompt):
            grid.cursor = nil
            AuditPromptView(prompt: prompt).draw(into: &grid, layout: layout)
        case nil:
            break
        }
    }
}
