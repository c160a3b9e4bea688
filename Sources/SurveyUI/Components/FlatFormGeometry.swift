import Synchronization

/// The five-field form's geometry, kept from one frame to the next. Laying out the labels
/// and values (their widths, the wrap of a long label) was a fifth of a frame's work, and
/// browsing survey after survey changes none of what it reads: the form's rectangle, its
/// rows and its scroll. A designer's form keeps its layout in `FormRuleCache` instead. A
/// class, so drawing, which only reads the state, can fill it in; it never changes what is
/// drawn, so it takes no part in comparing states.
final class FlatFormGeometry: Sendable, Equatable {
    private struct Entry {
        let rect: Rect
        let rows: [FormRow]
        let scroll: Int
        let finishing: Bool
        let geometry: FormGeometry
    }
    private let last = Mutex<Entry?>(nil)

    /// What `FormGeometry(form: rect, rows: rows, scroll: scroll, finishing: finishing)` gives.
    func geometry(form rect: Rect, rows: [FormRow], scroll: Int, finishing: Bool = false) -> FormGeometry {
        if let known = last.withLock({ $0 }), known.rect == rect, known.scroll == scroll, known.finishing == finishing, known.rows == rows {
            return known.geometry
        }
        let geometry = FormGeometry(form: rect, rows: rows, scroll: scroll, finishing: finishing)
        last.withLock { $0 = Entry(rect: rect, rows: rows, scroll: scroll, finishing: finishing, geometry: geometry) }
        return geometry
    }

    static func == (a: FlatFormGeometry, b: FlatFormGeometry) -> Bool { true }
}
