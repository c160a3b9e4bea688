extension Schema {
    /// Why each version was made travels with it (issue 31, "Edit history": who, when, from
    /// what to what, and why). A laptop's push sends, with an edit, the reasons its keyer gave
    /// since the last sync (`track-changes-reasons`, a version brought back, an approved
    /// survey changed: `.NAME.history.jsonl`), and the server keeps them on that revision.
    ///
    /// - `change_reason` on the survey's row and on each kept version; `change_reason_revision`
    ///   says which revision the reason was sent for. `survey.stamp_reason()`, a `BEFORE`
    ///   trigger that runs after `stamp_change` (triggers fire by name), keeps a reason only on
    ///   the revision it was sent for: an edit from a client that sends none (psql, an older
    ///   laptop) never inherits the reason of the revision before, and a review keeps it.
    /// - A reason is text a laptop checked, checked again here like any value from the network:
    ///   at most 1,000 characters, no control characters but tab and line breaks.
    /// - Enumerators may write the two columns (their own surveys only, as the answers:
    ///   row-level security and `stamp_change` already hold them to that); nobody may write a
    ///   kept version's.
    static let changeReasons = [
        "ALTER TABLE survey.surveys ADD COLUMN IF NOT EXISTS change_reason text, ADD COLUMN IF NOT EXISTS change_reason_revision bigint",
        "ALTER TABLE survey.survey_versions ADD COLUMN IF NOT EXISTS change_reason text",
        "ALTER TABLE survey.surveys DROP CONSTRAINT IF EXISTS surveys_change_reason_text",
        """
        ALTER TABLE survey.surveys ADD CONSTRAINT surveys_change_reason_text
            CHECK (change_reason IS NULL OR (char_length(change_reason) <= 1000 AND change_reason !~ '[\\x01-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F]'))
        """,
        """
        CREATE OR REPLACE FUNCTION survey.stamp_reason() RETURNS trigger LANGUAGE plpgsql
            SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            IF NEW.change_reason_revision IS DISTINCT FROM NEW.revision THEN
                NEW.change_reason := NULL;
                NEW.change_reason_revision := NULL;
            END IF;
            RETURN NEW;
        END $$
        """,
        "DROP TRIGGER IF EXISTS surveys_stamp_reason ON survey.surveys",
        "CREATE TRIGGER surveys_stamp_reason BEFORE INSERT OR UPDATE ON survey.surveys FOR EACH ROW EXECUTE FUNCTION survey.stamp_reason()",
        """
        GRANT UPDATE (change_reason, change_reason_revision) ON survey.surveys TO survey_enumerator
        """,
        // Migration 6's function, which now keeps the reason with the version.
        """
        CREATE OR REPLACE FUNCTION survey.keep_version() RETURNS trigger LANGUAGE plpgsql
            SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            IF TG_RELID <> 'survey.surveys'::regclass OR TG_OP <> 'UPDATE' OR TG_WHEN <> 'AFTER' OR TG_LEVEL <> 'ROW' THEN
                RAISE EXCEPTION 'survey.keep_version keeps the versions of survey.surveys only';
            END IF;
            INSERT INTO survey.survey_versions (instance_id, revision, answers, deleted, form_id, form_version, device, made_by, made_at,
                                                change_reason)
            VALUES (OLD.instance_id, OLD.revision, OLD.answers, OLD.deleted, OLD.form_id, OLD.form_version, OLD.device,
                    CASE WHEN OLD.revision = 1 THEN OLD.owner ELSE coalesce(OLD.changed_by, OLD.owner) END,
                    CASE WHEN OLD.revision = 1 THEN OLD.created_at ELSE coalesce(OLD.changed_at, OLD.updated_at) END,
                    OLD.change_reason)
            ON CONFLICT (instance_id, revision) DO NOTHING;
            RETURN NULL;
        END $$
        """,
        // The view gains the reason as its last column (a view's columns can only be added at its end).
        """
        CREATE OR REPLACE VIEW survey.survey_history WITH (security_invoker = true) AS
            SELECT instance_id, revision, answers, deleted, form_id, form_version, device, made_by, made_at, false AS current,
                   change_reason
            FROM survey.survey_versions
            UNION ALL
            SELECT instance_id, revision, answers, deleted, form_id, form_version, device,
                   CASE WHEN revision = 1 THEN owner ELSE coalesce(changed_by, owner) END,
                   CASE WHEN revision = 1 THEN created_at ELSE coalesce(changed_at, updated_at) END, true,
                   change_reason
            FROM survey.surveys
        """,
    ]
}
