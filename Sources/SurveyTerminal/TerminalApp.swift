import CNcurses
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyModel
import SurveyRuntime
import SurveyUI

/// The interactive loop: terminal events in, frames out. All decisions are in `Program`
/// (UI core); this only moves bytes between it and curses.
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
        // came in 17 ms instead of 41).
        var program = Program(store: store, documentName: documentName, size: terminal.size,
                              splitWidth: splitWidth, memory: memory, identifyLater: true, streamingFrom: 1 << 20)
        terminal.present(program)
        // The first frame is up; the rest of opening happens before any key is read. (No copy
        // of the state is kept across it: the records are changed in place.)
        program.finishOpening()
        terminal.present(program)
        while !program.isFinished && !terminal.terminationRequested {
            // While a document loads, or big ones are counted, in the background, look in often.
            // A document loading shows each part soon after it is read.
            let timeout: Int32 = program.isAwaitedSoon ? 15 : program.hasBackgroundWork ? 50 : 1000
            if program.collectBackgroundWork() { terminal.present(program) }
            guard let event = terminal.readEvent(timeoutMilliseconds: timeout) else {
                // Idle: let the documents list catch up with changes made outside the app.
                let before = program.state
                program.send(.refreshTick)
                if program.state != before { terminal.present(program) }
                continue
            }
            program.handle(event)
            // Drain whatever else is already waiting (a paste, key repeat) before drawing.
            while !program.isFinished, let more = terminal.readEvent(timeoutMilliseconds: 0) {
                program.handle(more)
            }
            if !program.isFinished { terminal.present(program) }
        }
        // Terminal closed or killed: keep the field being typed when it is valid, and
        // write what exists only in memory to a recovery file.
        program.terminate()
        return 0
    }
}
