import Foundation
import SurveyModel

/// Runs `update` and carries out its effects against the document store, feeding each
/// outcome back in as an action. It owns no terminal, so tests drive it exactly as the
/// terminal loop does, on a real folder, and see what reaches the disk.
public struct Program {
    public private(set) var state: AppState
    public let store: DocumentStore
    public private(set) var isFinished = false

    public init(store: DocumentStore, documentName: String, size: Size, splitWidth: Int = 80) {
        self.store = store
        self.state = AppState(documentName: documentName,
                              loaded: store.load(documentName),
                              draft: store.loadDraft(for: documentName),
                              size: size,
                              splitWidth: splitWidth)
    }

    /// Handles one terminal event; returns false when it meant nothing in this state.
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Bool {
        guard let action = KeyMap.action(for: event, in: state) else { return false }
        send(action)
        return true
    }

    /// Each effect's outcome is handled before the next effect runs, so a failed document
    /// save restores the form before the draft is written.
    public mutating func send(_ action: Action) {
        for effect in update(&state, action) {
            if let outcome = perform(effect) { send(outcome) }
        }
    }

    private mutating func perform(_ effect: Effect) -> Action? {
        switch effect {
        case .saveDocument:
            guard let document = state.document else { return nil }
            do {
                let replaced = try store.save(document, as: state.documentName)
                return .documentSaved(replacedCharacters: replaced)
            } catch {
                return .documentSaveFailed(Self.describe(error))
            }
        case .saveDraft:
            do {
                try store.saveDraft(state.draft, for: state.documentName)
                return nil
            } catch {
                return .draftSaveFailed(Self.describe(error))
            }
        case .quit:
            isFinished = true
            return nil
        }
    }

    static func describe(_ error: Error) -> String {
        if let e = error as? DocumentError { return e.message }
        return (error as NSError).localizedDescription
    }

    public var screen: CellGrid { Screen.render(state) }
}
