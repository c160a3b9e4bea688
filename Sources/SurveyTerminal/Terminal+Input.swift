#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CNcurses
import SurveyUI

extension Terminal {
    /// What ended a `wait`.
    public enum Readiness: Equatable {
        /// The terminal has input (or reports a hang-up): read it with `readWaitingEvents`.
        case input
        /// A signal came (a resize, a request to quit), or the size changed: read without
        /// expecting input, which gives curses' `KEY_RESIZE`.
        case signal
        /// The wake-up descriptor is readable: background work has a result.
        case woken
        case timedOut
    }

    /// Blocks until the terminal has input, `wake` is readable, a signal comes, or
    /// `timeoutMilliseconds` pass (negative: no timeout). `poll(2)` on both descriptors, so
    /// an idle app with nothing running in the background sleeps until something happens.
    /// Call it only after `readWaitingEvents` found nothing more: curses may hold input it
    /// read ahead, which `poll` cannot see.
    public func wait(wake: Int32, timeoutMilliseconds: Int32) -> Readiness {
        guard activeWindow != nil, !hangup.isHungUp else { return .input }
        // A resize curses has not reported yet (its signal came before this wait).
        if let now = device.windowSize(), now != deliveredWindowSize { return .signal }
        var descriptors = [pollfd(fd: device.input, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        let count = poll(&descriptors, wake >= 0 ? 2 : 1, timeoutMilliseconds)
        if count < 0 { return .signal }   // EINTR: SIGWINCH, or a request to quit
        if count == 0 { return .timedOut }
        if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            hangup.noteFailure(errno: 0, inputHungUp: true, elapsed: .zero, timeout: nil)
            return .input
        }
        if descriptors[0].revents & Int16(POLLIN) != 0 { return .input }
        return .woken
    }

    /// Every event already waiting, read without blocking, in order: after `wait` said
    /// `.input` (then `poll` saw input, and a read that finds none counts towards a hang-up:
    /// end-of-file reads as nothing, and the loop would spin) or `.signal`. Ends with a
    /// resize curses has not reported, if the size changed.
    public func readWaitingEvents(afterInput: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var expectingInput = afterInput
        while true {
            switch read(timeoutMilliseconds: 0, expectingInput: expectingInput) {
            case .event(let event): events.append(event)
            case .ignored: break
            case .nothing:
                if let resize = resizeNotReported() { events.append(resize) }
                return events
            }
            expectingInput = false
        }
    }

    /// What one read gave.
    enum Read {
        case event(InputEvent)
        /// Input the app does not use.
        case ignored
        /// No input (or a failure).
        case nothing
    }

    /// Waits up to `timeoutMilliseconds` for input (a negative timeout waits forever, 0 only
    /// polls). Returns nil on timeout, on a signal, and for input the app does not use
    /// (other mouse buttons, unknown key codes, stray control characters).
    ///
    /// - `KEY_RESIZE` becomes `.resize` with the new size; curses has already resized
    ///   `stdscr`, so the next `present` can draw at the new size.
    /// - A resize always comes before the keys typed after it. ncurses turns SIGWINCH into
    ///   `KEY_RESIZE` only when a read finds no input, so keys typed in the same instant as a
    ///   shrink would reach the app while it still believes the old size, and the "too small:
    ///   keys ignored" rule would miss them. So after every read the kernel's window size is
    ///   compared with the last one delivered; if it changed, the input is pushed back,
    ///   curses is resized, and the resize is returned first.
    /// - A left press or click becomes `.click` at its cell.
    /// - A bracketed paste becomes one `.paste` with its text (see `BracketedPaste`).
    /// - Everything else goes through `KeyDecoder`. A character is completed with the
    ///   scalars already waiting that belong to the same grapheme (see `completeGrapheme`).
    public func readEvent(timeoutMilliseconds: Int32) -> InputEvent? {
        if case .event(let event) = read(timeoutMilliseconds: timeoutMilliseconds, expectingInput: false) { return event }
        return nil
    }

    /// `readEvent`, telling input the app does not use from none. With `expectingInput`
    /// (`poll` said there is some), a read that finds none counts towards a hang-up.
    func read(timeoutMilliseconds: Int32, expectingInput: Bool) -> Read {
        guard let window = activeWindow, !hangup.isHungUp else { return .nothing }
        if currentTimeout != timeoutMilliseconds {
            wtimeout(window, timeoutMilliseconds)
            currentTimeout = timeoutMilliseconds
        }
        var code: wint_t = 0
        let clock = ContinuousClock()
        let started = clock.now
        errno = 0
        let status = wget_wch(window, &code)
        guard status != ERR else {
            let error = errno
            // A poll that found nothing is the common case (the loop drains input after
            // every key): it cannot be a hang-up, which the next waiting read will see.
            if timeoutMilliseconds == 0 && error == 0 && !expectingInput { return .nothing }
            // Input `poll` reported that reads as nothing is end-of-file: premature, as a
            // wait with no timeout that returns is.
            hangup.noteFailure(errno: error, inputHungUp: inputHungUp(),
                               elapsed: clock.now - started,
                               timeout: timeoutMilliseconds < 0 || expectingInput ? nil : .milliseconds(Int(timeoutMilliseconds)))
            return .nothing
        }
        hangup.noteSuccess()
        if status == KEY_CODE_YES && Int32(truncatingIfNeeded: code) == KEY_RESIZE {
            deliveredWindowSize = device.windowSize()
            presented = nil
            return .event(.resize(size))
        }
        if let resize = resizeAhead(of: status, code: code) { return .event(resize) }
        if status == KEY_CODE_YES {
            switch Int32(truncatingIfNeeded: code) {
            case KEY_MOUSE: return Self.mouseEvent().map { .event($0) } ?? .ignored
            case BracketedPaste.startCode: return .event(readPaste(window: window))
            case BracketedPaste.endCode: return .ignored
            default: break
            }
        }
        switch KeyDecoder.decode(code: UInt32(code), isFunctionKey: status == KEY_CODE_YES) {
        case .escape?:
            return .event(.key(metaChord(window: window) ?? .escape))
        case .character(let character)?:
            return .event(.key(.character(completeGrapheme(character, window: window))))
        case let key?:
            return .event(.key(key))
        case nil:
            return .ignored
        }
    }

    /// The resize the kernel reports and curses has not (its SIGWINCH is still on the way,
    /// or none reached it): curses is resized, as `resizeAhead` does; nil when the size is
    /// unchanged. Curses' own `KEY_RESIZE` may follow with the same size.
    private func resizeNotReported() -> InputEvent? {
        guard activeWindow != nil, let now = device.windowSize(), now != deliveredWindowSize else { return nil }
        deliveredWindowSize = now
        resizeterm(Int32(now.height), Int32(now.width))
        presented = nil
        return .resize(size)
    }

    /// The resize that happened before `code` was read but that curses has not reported yet,
    /// with `code` pushed back to be read after it; nil when the size is unchanged.
    private func resizeAhead(of status: Int32, code: wint_t) -> InputEvent? {
        guard let now = device.windowSize(), now != deliveredWindowSize else { return nil }
        deliveredWindowSize = now
        if status == KEY_CODE_YES {
            ungetch(Int32(truncatingIfNeeded: code))
        } else {
            unget_wch(wchar_t(bitPattern: UInt32(code)))
        }
        // What ncurses' own SIGWINCH handling does; its later KEY_RESIZE repeats the size.
        resizeterm(Int32(now.height), Int32(now.width))
        presented = nil
        return .resize(size)
    }

    /// Reads the rest of a paste whose start marker was just read, as one event. A resize in
    /// the middle of it is pushed back, to be read right after.
    private func readPaste(window: UnsafeMutablePointer<WINDOW>) -> InputEvent {
        wtimeout(window, BracketedPaste.silenceMilliseconds)
        currentTimeout = BracketedPaste.silenceMilliseconds
        let pasted = BracketedPaste.collect {
            var code: wint_t = 0
            let status = wget_wch(window, &code)
            return status == ERR ? nil : (status, UInt32(code))
        }
        if pasted.resized { ungetch(KEY_RESIZE) }
        return .paste(pasted.text)
    }

    /// `get_wch` returns one scalar at a time, but a pasted "é" (e + U+0301), "🏙️" (with
    /// VS16) or a flag is several. Handing them over one by one would give the UI a lone
    /// combining mark as a `Character`, which merges into the previous one when appended
    /// and throws off any cursor counted in characters. So the scalars already waiting
    /// (timeout 0) are appended while the text stays one grapheme; the first that does not
    /// fit is pushed back for the next read.
    private func completeGrapheme(_ first: Character, window: UnsafeMutablePointer<WINDOW>) -> Character {
        var text = String(first)
        wtimeout(window, 0)
        currentTimeout = 0
        for _ in 0..<Self.maximumGraphemeScalars {
            var code: wint_t = 0
            let status = wget_wch(window, &code)
            if status == ERR { break }
            if status == KEY_CODE_YES {
                ungetch(Int32(truncatingIfNeeded: code))
                break
            }
            var candidate = text
            if let scalar = Unicode.Scalar(UInt32(code)) { candidate.unicodeScalars.append(scalar) }
            guard candidate.count == 1 else {
                unget_wch(wchar_t(bitPattern: UInt32(code)))
                break
            }
            text = candidate
        }
        return Character(text)
    }

    /// An Esc followed at once (already waiting) by a key the terminal sends for Alt with it;
    /// anything else is pushed back to be read as itself.
    private func metaChord(window: UnsafeMutablePointer<WINDOW>) -> Key? {
        wtimeout(window, 0)
        currentTimeout = 0
        var code: wint_t = 0
        let status = wget_wch(window, &code)
        if status == ERR { return nil }
        if status == KEY_CODE_YES {
            // With keypad on, the DEL of Esc DEL arrives already decoded as Backspace.
            if Int32(truncatingIfNeeded: code) == KEY_BACKSPACE { return .altBackspace }
            ungetch(Int32(truncatingIfNeeded: code))
            return nil
        }
        if let chord = KeyDecoder.meta(following: UInt32(code)) { return chord }
        unget_wch(wchar_t(bitPattern: UInt32(code)))
        return nil
    }

    /// Long enough for family emoji (7 scalars) and stacked accents; a stream of
    /// combining marks longer than this is split rather than read forever.
    private static let maximumGraphemeScalars = 16

    /// The pending mouse event: a left-button press or click, or a turn of the wheel.
    private static func mouseEvent() -> InputEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let point = Point(x: Int(event.x), y: Int(event.y))
        if event.bstate & shim_button4_pressed() != 0 { return .wheel(-1, at: point) }
        if event.bstate & shim_button5_pressed() != 0 { return .wheel(1, at: point) }
        guard event.bstate & (shim_button1_pressed() | shim_button1_clicked()) != 0 else { return nil }
        return .click(point)
    }

    /// Whether the terminal's input (stdin or /dev/tty) reports a hang-up or error.
    private func inputHungUp() -> Bool {
        var descriptor = pollfd(fd: device.input, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }
}
