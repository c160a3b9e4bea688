extension Schema {
    /// Every version an edit replaces is kept (issue 31, "Edit history"): nothing on the team's
    /// store is overwritten. Until now an edit overwrote the row, and nobody could say who
    /// changed what, from what.
    ///
    /// - `survey.survey_versions` holds each replaced version, keyed by the survey's id and
    ///   its revision: the answers, the tombstone, the form and version, the device, who made
    ///   that version and when. Enumerators and supervisors may only read it; no grant lets
    ///   anyone but its owner write, change or delete a row of it.
    /// - `survey.keep_version()`, an `AFTER UPDATE` trigger that fires only when the revision
    ///   changed (an edit of the answers, the tombstone or the form; a review does not), copies
    ///   the row as it was into it. It is `SECURITY DEFINER`, owned by the schema's owner, with
    ///   a fixed `search_path` (so no object a client creates is found in its place), and
    ///   nobody else may run it (`EXECUTE` revoked from `PUBLIC`: a client cannot hang it on a
    ///   table of its own to write versions of its choosing); it checks it is fired by
    ///   `survey.surveys` all the same. Only the table's owner may disable or drop the trigger,
    ///   and only a superuser may set `session_replication_role`, which would skip it.
    /// - Who made a version: `changed_by`/`changed_at` on the survey's row, stamped by the
    ///   server's `stamp_change` when the revision changes: `session_user`, the login that
    ///   pushed it, not `current_user`, which a `SET ROLE` changes (a data manager acting as an
    ///   enumerator is named as themselves). Inside `keep_version` `current_user` is the
    ///   schema's owner, so the name is read off the row, never there. Revision 1 is the
    ///   `owner`'s (who first pushed it), at `created_at`; a revision made before this
    ///   migration, with no stamp, is the owner's (the only login that may change its answers)
    ///   at `updated_at` (a review after it moved that too: the best the row still says).
    /// - `survey.survey_history`, a view (the invoker's rights): the kept versions and the
    ///   current row, one row per revision, for `survey history` and for a data manager's psql.
    ///
    /// Inserts do no more work than before: the new trigger is on `UPDATE` only, and
    /// `stamp_change`'s insert branch is as migration 5 left it (a first push of 100,000
    /// surveys is measured against `psql \copy`).
    static let keptVersions = [
        // No default: adding the columns rewrites nothing, and an insert computes nothing.
        "ALTER TABLE survey.surveys ADD COLUMN IF NOT EXISTS changed_by name, ADD COLUMN IF NOT EXISTS changed_at timestamptz",
        """
        CREATE TABLE IF NOT EXISTS survey.survey_versions (
            instance_id text NOT NULL,
            revision bigint NOT NULL,
            answers jsonb NOT NULL,
            deleted boolean NOT NULL,
            form_id text,
            form_version text,
            device text,
            made_by name NOT NULL,
            made_at timestamptz NOT NULL,
            PRIMARY KEY (instance_id, revision))
        """,
        """
        CREATE OR REPLACE FUNCTION survey.keep_version() RETURNS trigger LANGUAGE plpgsql
            SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            IF TG_RELID <> 'survey.surveys'::regclass OR TG_OP <> 'UPDATE' OR TG_WHEN <> 'AFTER' OR TG_LEVEL <> 'ROW' THEN
                RAISE EXCEPTION 'survey.keep_version keeps the versions of survey.surveys only';
            END IF;
            -- The same who and when as survey.survey_history's current row.
            INSERT INTO survey.survey_versions (instance_id, revision, answers, deleted, form_id, form_version, device, made_by, made_at)
            VALUES (OLD.instance_id, OLD.revision, OLD.answers, OLD.deleted, OLD.form_id, OLD.form_version, OLD.device,
                    CASE WHEN OLD.revision = 1 THEN OLD.owner ELSE coalesce(OLD.changed_by, OLD.owner) END,
                    CASE WHEN OLD.revision = 1 THEN OLD.created_at ELSE coalesce(OLD.changed_at, OLD.updated_at) END)
            -- A revision kept already (a row the owner deleted and a laptop sent again) keeps
            -- the version first kept: nothing is overwritten, and the edit is not refused.
            ON CONFLICT (instance_id, revision) DO NOTHING;
            RETURN NULL;
        END $$
        """,
        // The schema's owner keeps the versions and runs the trigger, whoever runs db init (a
        // superuser's function would run every edit with a superuser's rights).
        """
        DO $$
        DECLARE keeper name := (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'survey');
        BEGIN
            EXECUTE format('ALTER TABLE survey.survey_versions OWNER TO %I', keeper);
            EXECUTE format('ALTER FUNCTION survey.keep_version() OWNER TO %I', keeper);
        END $$
        """,
        "REVOKE ALL ON FUNCTION survey.keep_version() FROM PUBLIC",
        "REVOKE ALL ON survey.survey_versions FROM PUBLIC",
        "GRANT SELECT ON survey.survey_versions TO survey_enumerator, survey_supervisor",
        "DROP TRIGGER IF EXISTS surveys_keep_version ON survey.surveys",
        """
        CREATE TRIGGER surveys_keep_version AFTER UPDATE ON survey.surveys FOR EACH ROW
            WHEN (OLD.revision IS DISTINCT FROM NEW.revision) EXECUTE FUNCTION survey.keep_version()
        """,
        """
        CREATE OR REPLACE VIEW survey.survey_history WITH (security_invoker = true) AS
            SELECT instance_id, revision, answers, deleted, form_id, form_version, device, made_by, made_at, false AS current
            FROM survey.survey_versions
            UNION ALL
            SELECT instance_id, revision, answers, deleted, form_id, form_version, device,
                   CASE WHEN revision = 1 THEN owner ELSE coalesce(changed_by, owner) END,
                   CASE WHEN revision = 1 THEN created_at ELSE coalesce(changed_at, updated_at) END, true
            FROM survey.surveys
        """,
        "GRANT SELECT ON survey.survey_history TO survey_enumerator, survey_supervisor",
        // Migration 5's trigger, which now also stamps who made a new revision and when.
        """
        CREATE OR REPLACE FUNCTION survey.stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            reviewing boolean;
        BEGIN
            -- A team login changes only its own surveys' answers. A supervisor's rule lets it
            -- update any row for a review; a login in both groups also holds the enumerator's
            -- columns, and would reach a teammate's answers: such a row is left as it was
            -- (a push hears whose survey it is). The database's owner and superusers are not
            -- held to it: a data manager's fix stays possible.
            -- Nested, so the role is looked up only for a change of another's row: a
            -- condition with a query in it is no simple expression, and cost every insert.
            IF TG_OP = 'UPDATE' THEN
                IF OLD.owner <> current_user
                   AND (NEW.answers IS DISTINCT FROM OLD.answers OR NEW.deleted IS DISTINCT FROM OLD.deleted
                        OR NEW.form_id IS DISTINCT FROM OLD.form_id OR NEW.form_version IS DISTINCT FROM OLD.form_version
                        OR NEW.dataset IS DISTINCT FROM OLD.dataset OR NEW.device IS DISTINCT FROM OLD.device
                        OR NEW.base_revision IS DISTINCT FROM OLD.base_revision) THEN
                    IF pg_has_role(current_user, 'survey_enumerator', 'MEMBER')
                       AND NOT EXISTS (SELECT FROM pg_roles WHERE rolname = current_user AND (rolsuper OR rolbypassrls))
                       AND NOT pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = 'survey.surveys'::regclass),
                                           'MEMBER') THEN
                        RETURN NULL;
                    END IF;
                END IF;
            END IF;
            NEW.change_seq := survey.change_number();
            NEW.updated_at := now();
            IF TG_OP = 'INSERT' THEN
                NEW.revision := 1;
                NEW.created_at := now();
                NEW.review_state := NULL;
                NEW.review_comment := NULL;
                NEW.reviewed_by := NULL;
                NEW.reviewed_at := NULL;
                RETURN NEW;
            END IF;
            NEW.instance_id := OLD.instance_id;
            NEW.owner := OLD.owner;
            NEW.created_at := OLD.created_at;
            -- A review is what the statement itself set, before the server's 'edited' below.
            reviewing := NEW.review_state IS DISTINCT FROM OLD.review_state OR NEW.review_comment IS DISTINCT FROM OLD.review_comment;
            IF NEW.answers IS DISTINCT FROM OLD.answers OR NEW.deleted IS DISTINCT FROM OLD.deleted
               OR NEW.form_id IS DISTINCT FROM OLD.form_id OR NEW.form_version IS DISTINCT FROM OLD.form_version THEN
                NEW.revision := OLD.revision + 1;
                -- Who made this revision: the login that sent it, even under SET ROLE.
                NEW.changed_by := session_user;
                NEW.changed_at := now();
                -- A survey fixed after review goes back as edited (ODK Central's review states).
                IF OLD.review_state IS NOT NULL AND NEW.review_state IS NOT DISTINCT FROM OLD.review_state THEN
                    NEW.review_state := 'edited';
                END IF;
            ELSE
                NEW.revision := OLD.revision;
                NEW.changed_by := OLD.changed_by;
                NEW.changed_at := OLD.changed_at;
            END IF;
            IF reviewing THEN
                NEW.reviewed_by := current_user;
                NEW.reviewed_at := now();
            ELSE
                NEW.reviewed_by := OLD.reviewed_by;
                NEW.reviewed_at := OLD.reviewed_at;
            END IF;
            RETURN NEW;
        END $$
        """,
    ]
}
