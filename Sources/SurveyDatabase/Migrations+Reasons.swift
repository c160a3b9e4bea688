extension Schema {
    /// Why each version was made travels with it (issue 31, "Edit history": who, when, from
    /// what to what, and why). A laptop's push sends, with an edit, the reasons its keyer gave
    /// since the last sync (`track-changes-reasons`, a version brought back, an approved
    /// survey changed: `.NAME.history.jsonl`), and the server keeps them on that revision.
    ///
    /// - `change_reason` on the survey's row and on each kept version; `change_reason_revision`
    ///   says which revision the reason was sent for. `survey.stamp_reason()`, a `BEFORE`
    ///   trigger that runs after `stamp_change` (triggers fire by name), keeps a reason only on
    ///   the revision it was sent for (on updates only: an insert sends no reason, and a first
    ///   push of 100,000 surveys pays for no second trigger): an edit from a client that sends none (psql, an older
    ///   laptop) never inherits the reason of the revision before; an update that makes no new
    ///   revision (a review, a push that changed nothing) keeps the reason as it was, so nobody,
    ///   owner or supervisor, rewrites why a revision was made.
    /// - A reason is text a laptop checked, checked again here like any value from the network:
    ///   at most 1,000 characters, no control characters but tab and line breaks.
    /// - `survey.survey_history` is left as migration 6 made it (a later migration's view with
    ///   one more column would stop migration 6 from running again over it, as `db init`
    ///   does on a half-built schema): `survey history` reads the reasons beside it.
    /// - Enumerators may write the two columns, which take effect only with a new revision of
    ///   their own survey (`stamp_change` and row-level security hold those to the owner);
    ///   nobody may write a kept version's.
    static let changeReasons = [
        "ALTER TABLE survey.surveys ADD COLUMN IF NOT EXISTS change_reason text, ADD COLUMN IF NOT EXISTS change_reason_revision bigint",
        "ALTER TABLE survey.survey_versions ADD COLUMN IF NOT EXISTS change_reason text",
        "ALTER TABLE survey.surveys DROP CONSTRAINT IF EXISTS surveys_change_reason_text",
        """
        ALTER TABLE survey.surveys ADD CONSTRAINT surveys_change_reason_text
            CHECK (change_reason IS NULL OR (char_length(change_reason) <= 1000 AND change_reason !~ '[\\x01-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F]'))
            NOT VALID
        """,
        """
        CREATE OR REPLACE FUNCTION survey.stamp_reason() RETURNS trigger LANGUAGE plpgsql
            SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            -- No new revision (a review, a push that changed nothing): the reason stays as it
            -- was; nobody rewrites why a revision was made.
            IF TG_OP = 'UPDATE' AND NEW.revision = OLD.revision THEN
                NEW.change_reason := OLD.change_reason;
                NEW.change_reason_revision := OLD.change_reason_revision;
            ELSIF NEW.change_reason_revision IS DISTINCT FROM NEW.revision THEN
                NEW.change_reason := NULL;
                NEW.change_reason_revision := NULL;
            END IF;
            RETURN NEW;
        END $$
        """,
        "DROP TRIGGER IF EXISTS surveys_stamp_reason ON survey.surveys",
        "CREATE TRIGGER surveys_stamp_reason BEFORE UPDATE ON survey.surveys FOR EACH ROW EXECUTE FUNCTION survey.stamp_reason()",
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
    ]
}
