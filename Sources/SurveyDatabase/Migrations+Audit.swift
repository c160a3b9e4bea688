extension Schema {
    /// The audit log travels with the surveys (issue 31: "It travels with the survey ...
    /// sync"): each line of a laptop's `.NAME.audit.csv` (ODK Collect's events, the survey's
    /// instanceID first) goes to the team's store after the survey it is of, and every other
    /// laptop of the dataset takes it into its own log, so `export --format odk-xml` on any of
    /// them writes each survey's whole `audit.csv`.
    ///
    /// - `survey.audit_events`: one row per line, never changed afterwards, keyed by the
    ///   survey and the line's SHA-256 (computed by the server's trigger): a line sent twice (a push cut off before its laptop
    ///   noted it, or a line taken from a teammate and sent back) is kept once. Its order is the
    ///   surveys' change numbers, read below `change_horizon()` as the entity edits are.
    /// - A line is checked as the server checks any value from the network: at most 64 KB,
    ///   no NUL (PostgreSQL's text cannot hold one anyway), its survey's id as the table's.
    /// - Row-level security and column grants: the team reads every line; an enumerator adds
    ///   lines only to a survey it owns on the server, of that survey's dataset (its laptop
    ///   keyed it); who sent it, when and its number are the server's. Nobody updates or
    ///   deletes a line.
    static let auditEvents = [
        """
        CREATE TABLE IF NOT EXISTS survey.audit_events (
            instance_id text NOT NULL CHECK (length(instance_id) BETWEEN 1 AND 1000),
            dataset text NOT NULL,
            line text NOT NULL CHECK (octet_length(line) <= 65536),
            line_hash bytea NOT NULL,
            device text,
            change_seq bigint NOT NULL DEFAULT survey.change_number(),
            sent_by name NOT NULL DEFAULT session_user,
            sent_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (instance_id, line_hash))
        """,
        "CREATE INDEX IF NOT EXISTS audit_events_dataset ON survey.audit_events (dataset, change_seq)",
        // The line's hash is the server's (a generated column cannot use `convert_to`, which is
        // not immutable): whatever a client sends in its place is replaced.
        """
        CREATE OR REPLACE FUNCTION survey.hash_audit_line() RETURNS trigger LANGUAGE plpgsql
            SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            NEW.line_hash := sha256(convert_to(NEW.line, 'UTF8'));
            RETURN NEW;
        END $$
        """,
        "DROP TRIGGER IF EXISTS audit_events_hash ON survey.audit_events",
        "CREATE TRIGGER audit_events_hash BEFORE INSERT ON survey.audit_events FOR EACH ROW EXECUTE FUNCTION survey.hash_audit_line()",
        "ALTER TABLE survey.audit_events ENABLE ROW LEVEL SECURITY",
        "DROP POLICY IF EXISTS team_reads_audit ON survey.audit_events",
        "CREATE POLICY team_reads_audit ON survey.audit_events FOR SELECT TO survey_enumerator, survey_supervisor USING (true)",
        "DROP POLICY IF EXISTS owner_adds_audit ON survey.audit_events",
        """
        CREATE POLICY owner_adds_audit ON survey.audit_events FOR INSERT TO survey_enumerator
            WITH CHECK (sent_by = session_user AND EXISTS (
                SELECT FROM survey.surveys s WHERE s.instance_id = audit_events.instance_id AND s.owner = current_user
                AND s.dataset = audit_events.dataset))
        """,
        "REVOKE ALL ON survey.audit_events FROM PUBLIC",
        "GRANT SELECT ON survey.audit_events TO survey_enumerator, survey_supervisor",
        "GRANT INSERT (instance_id, dataset, line, device) ON survey.audit_events TO survey_enumerator",
    ]
}
