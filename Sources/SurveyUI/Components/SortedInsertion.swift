extension Array {
    /// The first place whose element is not `before` the value looked for, in an array
    /// ordered so that every element `before` it comes first (a lower bound, by binary
    /// search). One definition for the list's three ordered lookups: where a survey goes
    /// back into the sorted order, where a changed survey goes into the list shown, and
    /// where a survey is in a list in entry order.
    func insertionIndex(where before: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let mid = (low + high) / 2
            if before(self[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
