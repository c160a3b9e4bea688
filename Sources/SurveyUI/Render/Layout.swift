/// Where everything goes, as a pure function of the terminal size (UISplitViewController's
/// rule, lazygit's breakpoints): split at `splitWidth` columns and wider, collapsed below,
/// and "too small" when the form itself cannot be drawn. A status message longer than the
/// width takes a second row from the body while it shows, when the body can spare it.
public struct Layout: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case split, collapsed, tooSmall }

    /// The least that still shows the title, five fields, the buttons, status and key bar.
    public static let minimumSize = Size(width: 24, height: 9)
    public static let listWidthRange = 24...40
    /// The narrowest form the split layout will leave beside the list.
    public static let minimumFormWidth = 40

    public let size: Size
    public let kind: Kind
    public let titleBar: Rect
    /// The list pane (split only); its last column is the divider.
    public let listPane: Rect?
    public let form: Rect
    /// One row, or two while a long message shows.
    public let statusLine: Rect
    public let keyBar: Rect
    /// The toolbar's `Surveys` button (collapsed only).
    public let surveysButton: Rect?

    public init(size: Size, splitWidth: Int = 80, status: String? = nil) {
        self.size = size
        let w = size.width, h = size.height
        if w < Self.minimumSize.width || h < Self.minimumSize.height {
            kind = .tooSmall
            titleBar = Rect(x: 0, y: 0, width: 0, height: 0)
            listPane = nil
            form = Rect(x: 0, y: 0, width: w, height: h)
            statusLine = Rect(x: 0, y: 0, width: 0, height: 0)
            keyBar = Rect(x: 0, y: 0, width: 0, height: 0)
            surveysButton = nil
            return
        }
        titleBar = Rect(x: 0, y: 0, width: w, height: 1)
        // The second row only when the form keeps its smallest arrangement (the minimum height).
        let textWidth = StatusLine.textWidth(in: w)
        let statusRows = h > Self.minimumSize.height && !(status.map { StatusLine.isOneRow($0, width: textWidth) } ?? true)
            ? StatusLine.rows(status ?? "", width: textWidth, maxRows: 2).count : 1
        let statusHeight = min(max(statusRows, 1), 2)
        statusLine = Rect(x: 0, y: h - 1 - statusHeight, width: w, height: statusHeight)
        keyBar = Rect(x: 0, y: h - 1, width: w, height: 1)
        let body = Rect(x: 0, y: 1, width: w, height: h - 2 - statusHeight)
        let listWidth = Self.listWidth(in: w)
        if Self.isSplit(size: size, splitWidth: splitWidth) {
            kind = .split
            listPane = Rect(x: 0, y: body.y, width: listWidth, height: body.height)
            form = Rect(x: listWidth, y: body.y, width: w - listWidth, height: body.height)
            surveysButton = nil
        } else {
            kind = .collapsed
            listPane = nil
            form = body
            surveysButton = Rect(x: 1, y: 0, width: Self.surveysButtonLabel.count, height: 1)
        }
    }

    public static let surveysButtonLabel = "[Surveys]"

    /// The list pane's width in a split layout `width` columns wide.
    static func listWidth(in width: Int) -> Int {
        min(max(width * 3 / 10, listWidthRange.lowerBound), listWidthRange.upperBound)
    }

    /// Whether a terminal of `size` gets the split layout: what `kind` says, without laying
    /// out the rest (the key table asks on every key).
    static func isSplit(size: Size, splitWidth: Int) -> Bool {
        let w = size.width
        guard w >= minimumSize.width, size.height >= minimumSize.height else { return false }
        // A small --split-width never squeezes the form below what it needs.
        return w >= splitWidth && w - listWidth(in: w) >= minimumFormWidth
    }

    public var isSplit: Bool { kind == .split }

    /// The last row popovers may use, just above the status line.
    var popoverBottom: Int { kind == .tooSmall ? size.height - 2 : statusLine.y }

    /// The list popover's box, anchored under the toolbar button like an iPad popover,
    /// sized to its rows and never covering the status line or key bar.
    public func listPopoverBox(rowCount: Int) -> Rect {
        let width = min(size.width - 2, 44)
        let height = min(popoverBottom - 1, max(rowCount, 1) + 3)
        return Rect(x: 1, y: 1, width: width, height: height)
    }

    /// A centred box for text popovers (help, notices).
    public func centeredBox(width wanted: Int, height wanted2: Int) -> Rect {
        let width = min(size.width - 2, wanted)
        let height = min(popoverBottom - 1, wanted2)
        return Rect(x: (size.width - width) / 2, y: 1 + max(0, (popoverBottom - 1 - height) / 2),
                    width: width, height: height)
    }

    /// The document manager's box: centred, sized to its rows plus border and column header.
    public func documentManagerBox(rowCount: Int) -> Rect {
        centeredBox(width: 76, height: max(rowCount, 1) + 3)
    }

    /// The manager's document rows (below the column header).
    public func documentManagerRows(rowCount: Int) -> Rect {
        let inner = documentManagerBox(rowCount: rowCount).inset(by: 1)
        return Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
    }

    /// The rows of the list (below its header) in the pane or the popover.
    public func listRows(inPopover: Bool, rowCount: Int) -> Rect {
        if inPopover {
            let inner = listPopoverBox(rowCount: rowCount).inset(by: 1)
            return Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
        }
        guard let pane = listPane else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return Rect(x: pane.x, y: pane.y + 1, width: pane.width - 1, height: pane.height - 1)
    }
}
