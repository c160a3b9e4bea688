/// The survey `${last-saved#name}` reads. ODK Collect means the most recent saved instance of
/// the form on the device; a document keeps no time of saving per survey, and Add appends, so
/// the last survey of the document is the one saved last (an edit to an older survey does not
/// make it the last saved, as it would in Collect). A new, empty document has none, and the
/// reference is empty, as in Collect before the first save.
extension SurveyDocument {
    public var lastSaved: Record? { records.last }
}
