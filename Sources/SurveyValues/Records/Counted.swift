/// "1 record", "3 records": the one way every message (app, command line, model errors)
/// says how many of something there are.
public func counted(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
