import CNcurses
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyRuntime
import SurveyUI

/// The interactive loop: terminal events in, frames out. All decisions are in the UI core's
/// `update`, run by `Program` (the runtime); this only moves bytes between it and curses,
/// and waits in one `poll` on the terminal and the runtime's wake-up descriptor.
public enum TerminalApp {
    /// Runs the app on `terminal` (made, and so checked, before the document was prepared).
    public static func run(on terminal: Terminal, store: DocumentStore, documentName: String, splitWidth: Int,
                           memory: SessionMemory? = nil) -> Int32 {
        do {
            try terminal.start()
        } catch {
            fputs("survey: \(error)\n", shim_stderr())
            return 2
        }
        defer { terminal.stop() }
        // A file of 1 MB or more (about 4,000 surveys, 10 ms to read whole) shows its first
        // records at once; the rest loads behind them (at 10,000 surveys the first frame
        // came in 17 ms instead of 41). Every commit goes through the document's journal,
        // durable in half a millisecond; the `.plist` follows in the background (a whole-file
        // save took 4 ms at 1,000 surveys).
        var program = Program(store: store, documentName: documentName, size: terminal.size,
                              splitWidth: splitWidth, memory: memory, identifyLater: true, journalThreshold: 0,
                              streamingFrom: 1 << 20)
        terminal.present(program)
        // The first frame is up; the rest of opening happens before any key is read. (No copy
        // of the state is kept across it: the records are changed in place.)
        program.finishOpening()
        terminal.present(program)
        // Signals (a resize, a request to quit) wake the wait too.
        TerminalSignals.wake(through: program.wake.writeDescriptor)
        defer { TerminalSignals.wake(through: -1) }
        while !program.isFinished && !terminal.terminationRequested {
            // Results of background work, each handed to `update` as an action.
            if program.collectBackgroundWork() { terminal.present(program) }
            // No timeout unless `Program` names a timer it needs: idle, the app sleeps until
            // a key, a signal or a result of background work.
            let timeout = program.pollTimeout.map { Int32(min(1e9, ($0 / .milliseconds(1)).rounded(.up))) } ?? -1
            let readiness = terminal.wait(wake: program.wake.descriptor, timeoutMilliseconds: timeout)
            switch readiness {
            case .woken:
                continue
            case .timedOut:
                // The open documents list catches up with changes made outside the app.
                program.send(.system(.refreshTick))
                terminal.present(program)
            case .input, .signal:
                // Everything already typed (a paste, key repeat) before drawing.
                let events = terminal.readWaitingEvents(afterInput: readiness == .input)
                for event in events where !program.isFinished { program.handle(event) }
                if !events.isEmpty && !program.isFinished { terminal.present(program) }
            }
        }
        // Terminal closed or killed: keep the field being typed when it is valid, and
        // write what exists only in memory to a recovery file.
        program.terminate()
        return 0
    }
}
