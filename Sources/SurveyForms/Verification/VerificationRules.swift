import FoundationEssentials
import SurveyValues

/// CSPro's rules for keying a question a second time (double entry), as pure functions. The
/// verifier keys the question from paper with the field blank:
/// - the stored value: verified;
/// - another value: it is asked again (`reKey`), the first try kept;
/// - then the same new value again: the keyer was wrong, and that value replaces the stored
///   one (`keyerError`);
/// - then the stored value after all: the verifier slipped (`verifierError`), nothing changes;
/// - then a third value: asked again, this one now the first try.
public enum VerificationRules {
    public enum Verdict: Equatable, Sendable {
        case same
        case reKey(first: PropertyValue?)
        case keyerError(replacement: PropertyValue?)
        case verifierError
    }

    /// What keying `keyed` means for a question whose stored answer is `stored`, after an
    /// earlier differing try `earlier` (nil: this is the first try). `isChoice` compares
    /// several choices as a set (`b a` is `a b`).
    public static func judge(stored: PropertyValue?, keyed: PropertyValue?, earlier: PropertyValue??,
                             isChoice: Bool = false) -> Verdict {
        let matchesStored = same(keyed, stored, isChoice: isChoice)
        guard case .some(let first) = earlier else {
            return matchesStored ? .same : .reKey(first: keyed)
        }
        if matchesStored { return .verifierError }
        if same(keyed, first, isChoice: isChoice) { return .keyerError(replacement: keyed) }
        return .reKey(first: keyed)
    }

    /// Two answers alike: equal values, an empty text as no answer, a number keyed `8` as the
    /// stored `8.0`, and choices as a set.
    public static func same(_ a: PropertyValue?, _ b: PropertyValue?, isChoice: Bool = false) -> Bool {
        let a = normalized(a), b = normalized(b)
        if a == b { return true }
        switch (a, b) {
        case (.integer(let x)?, .real(let y)?), (.real(let y)?, .integer(let x)?): return Double(x) == y
        case (.string(let x)?, .string(let y)?) where isChoice:
            return Set(x.split(separator: " ")) == Set(y.split(separator: " "))
        default: return false
        }
    }

    private static func normalized(_ value: PropertyValue?) -> PropertyValue? {
        if case .string(let s)? = value, s.trimmingWhitespaceAndNewlines().isEmpty { return nil }
        return value
    }
}
