/// One answer changed differently on both sides since the version they last agreed on: the
/// three values are kept (nil: absent on that side, or for the whole survey, deleted there)
/// until someone chooses, so neither side's work is lost to whichever wrote last.
public struct FieldConflict: Equatable, Sendable {
    public var path: SyncFieldPath
    /// nil when there was no common version, or the answer was absent from it.
    public var base: PropertyValue?
    public var mine: PropertyValue?
    public var theirs: PropertyValue?

    public init(path: SyncFieldPath, base: PropertyValue?, mine: PropertyValue?, theirs: PropertyValue?) {
        self.path = path
        self.base = base
        self.mine = mine
        self.theirs = theirs
    }
}
