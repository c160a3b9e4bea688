extension Schema {
    /// A supervisor's edits and retirements of entities (issue 32, "Team"): the entity lists
    /// are derived on each laptop from the surveys that register and visit, so a change made
    /// by no survey (a phone corrected at the office, a household that moved away) needs a
    /// row of its own, which every laptop's sync takes after the surveys.
    ///
    /// - `survey.entity_edits`: one row per edit, never changed afterwards: the list, the
    ///   entity, the label and properties it sets (a JSON object of strings), whether it
    ///   retires the entity, who made it (`session_user`, the login, not a `SET ROLE`) and when.
    ///   Its order is the surveys' change numbers (`change_number()`), read below
    ///   `change_horizon()`, so a laptop's cursor never passes an edit committed late.
    /// - Row-level security, and column grants: every team role reads the edits; only
    ///   `survey_supervisor` inserts, and only the list, entity, label, properties and retired
    ///   columns (the change number, who and when are the server's); nobody updates or deletes.
    static let entityEdits = [
        """
        CREATE TABLE IF NOT EXISTS survey.entity_edits (
            change_seq bigint PRIMARY KEY DEFAULT survey.change_number(),
            list text NOT NULL CHECK (length(list) BETWEEN 1 AND 255 AND list !~ '[/[:cntrl:]]' AND left(list, 1) <> '.'),
            entity_id text NOT NULL CHECK (length(entity_id) BETWEEN 1 AND 1000 AND entity_id !~ '[[:cntrl:]]'),
            label text CHECK (label IS NULL OR length(label) <= 10000),
            properties jsonb NOT NULL DEFAULT '{}'::jsonb
                CHECK (jsonb_typeof(properties) = 'object' AND NOT jsonb_path_exists(properties, '$.* ? (@.type() != "string")')),
            retired boolean NOT NULL DEFAULT false,
            edited_by name NOT NULL DEFAULT session_user,
            edited_at timestamptz NOT NULL DEFAULT now())
        """,
        // The properties are columns of every laptop's LIST.csv: names pyxform accepts as a
        // save_to (an XML name, not name or label in any case, not __…), 500 at most, 100 kB
        // at most, whatever program inserts (psql too). A function, as CHECK takes no subquery.
        #"""
        CREATE OR REPLACE FUNCTION survey.entity_properties_fit(p jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
            SELECT jsonb_typeof(p) = 'object' AND octet_length(p::text) <= 100000
                AND (SELECT count(*) FROM jsonb_object_keys(p)) <= 500
                AND NOT EXISTS (SELECT 1 FROM jsonb_object_keys(p) k
                    WHERE length(k) > 255 OR lower(k) IN ('name', 'label') OR left(k, 2) = '__'
                       OR k !~ '^[A-Za-z_\u00C0-\uFFFF][-A-Za-z0-9_.\u00B7\u00C0-\uFFFF]*(:[A-Za-z_\u00C0-\uFFFF][-A-Za-z0-9_.\u00B7\u00C0-\uFFFF]*)?$')
        $$
        """#,
        "ALTER TABLE survey.entity_edits DROP CONSTRAINT IF EXISTS entity_edits_properties_fit",
        "ALTER TABLE survey.entity_edits ADD CONSTRAINT entity_edits_properties_fit CHECK (survey.entity_properties_fit(properties))",
        "CREATE INDEX IF NOT EXISTS entity_edits_list ON survey.entity_edits (list, change_seq)",
        "ALTER TABLE survey.entity_edits ENABLE ROW LEVEL SECURITY",
        "DROP POLICY IF EXISTS team_reads_edits ON survey.entity_edits",
        "CREATE POLICY team_reads_edits ON survey.entity_edits FOR SELECT TO survey_enumerator, survey_supervisor USING (true)",
        "DROP POLICY IF EXISTS supervisor_edits_entities ON survey.entity_edits",
        """
        CREATE POLICY supervisor_edits_entities ON survey.entity_edits FOR INSERT TO survey_supervisor
            WITH CHECK (edited_by = session_user)
        """,
        "REVOKE ALL ON survey.entity_edits FROM PUBLIC",
        "GRANT SELECT ON survey.entity_edits TO survey_enumerator, survey_supervisor",
        "GRANT INSERT (list, entity_id, label, properties, retired) ON survey.entity_edits TO survey_supervisor",
    ]
}
