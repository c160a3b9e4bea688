/// The entity forms the tests of several targets key (issue 32), in pyxform's markdown
/// layout: one registration of households and its follow-up, written once.
public enum EntityForms {
    /// Registers a household in `households`: its head is its label, its phone a property.
    public static let registration = """
        | survey |
        | | type | name | label | save_to |
        | | text | head | Head of household | |
        | | text | phone | Phone | phone |
        | entities |
        | | list_name | label |
        | | households | ${head} |
        """

    /// Offers the households registered (`select_one_from_file households.csv`).
    public static let followUp = """
        | survey |
        | | type | name | label |
        | | select_one_from_file households.csv | hh | Household |
        """

    /// Visits a household of `households` (its id typed, as a `select_one_from_file` answer
    /// gives it) and updates its phone and village.
    public static let visit = """
        | survey |
        | | type | name | label | save_to |
        | | text | hh | Household | |
        | | text | phone | Phone | phone |
        | | text | village | Village | village |
        | entities |
        | | list_name | entity_id |
        | | households | ${hh} |
        """
}
