/// The survey schema in PostgreSQL, as numbered migrations. `survey db init` applies those a
/// database has not had yet, each in its own transaction, and records it in
/// `survey.schema_migrations`; running it again applies nothing. Each statement is written to
/// be re-runnable on its own too (`IF NOT EXISTS`, `CREATE OR REPLACE`, roles created only when
/// missing), so a database someone half set up by hand is finished rather than refused.
///
/// Never edit a migration that has shipped: add the next one.
struct Migration: Sendable {
    let version: Int
    let summary: String
    let statements: [String]
}

enum Schema {
    static let name = "survey"
    static let enumeratorRole = "survey_enumerator"
    static let supervisorRole = "survey_supervisor"
    /// `pg_advisory_xact_lock`'s key: one `db init` at a time. Migrations 1 and 2 also held it
    /// in every write of a change number, which let any role stall every push (issue 28);
    /// migration 3 took it out of the trigger. "survey" in ASCII.
    static let lockKey = "1937076853"

    static var latest: Int { migrations.last?.version ?? 0 }

    static let bookkeeping = [
        "CREATE SCHEMA IF NOT EXISTS survey",
        """
        CREATE TABLE IF NOT EXISTS survey.schema_migrations (
            version integer PRIMARY KEY,
            summary text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now(),
            applied_by name NOT NULL DEFAULT current_user)
        """,
    ]

    static let migrations: [Migration] = [
        Migration(version: 1, summary: "surveys, forms, the enumerator and supervisor roles", statements: roles + surveys + forms),
        Migration(version: 2, summary: "surveys a laptop can keep: instance ids and answers checked", statements: rowChecks),
        Migration(version: 3, summary: "change numbers without a lock: no session can stall another's push", statements: lockFreeChanges),
        Migration(version: 4, summary: "a fix after review keeps the supervisor's name and time on the review", statements: reviewStamps),
        Migration(version: 5, summary: "a login in both groups changes only its own surveys' answers", statements: ownAnswersOnly),
        Migration(version: 6, summary: "every version an edit replaces is kept: who made it, when, its answers", statements: keptVersions),
        Migration(version: 7, summary: "a supervisor's edits and retirements of entities, which every laptop takes", statements: entityEdits),
        Migration(version: 8, summary: "why each version was made travels with it", statements: changeReasons),
        Migration(version: 9, summary: "the audit log travels with the surveys", statements: auditEvents),
    ]

    /// Group roles, NOLOGIN: each team member logs in as a role of their own that is a member
    /// of one of them (docs/team.md, "A team on PostgreSQL").
    static let roles = [
        """
        DO $$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'survey_enumerator') THEN CREATE ROLE survey_enumerator NOLOGIN; END IF;
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'survey_supervisor') THEN CREATE ROLE survey_supervisor NOLOGIN; END IF;
        END $$
        """,
        "GRANT USAGE ON SCHEMA survey TO survey_enumerator, survey_supervisor",
        "GRANT SELECT ON survey.schema_migrations TO survey_enumerator, survey_supervisor",
        "CREATE SEQUENCE IF NOT EXISTS survey.change_seq",
        "GRANT USAGE ON SEQUENCE survey.change_seq TO survey_enumerator, survey_supervisor",
    ]

    /// One row per survey. `revision` is the server's (1 on insert, +1 on each change of the
    /// answers, the tombstone or the form); `base_revision` is the revision the pushed edit
    /// was made from; `change_seq` is bumped on every change, review included, so a pull asks
    /// for what changed after its cursor.
    static let surveys = [
        """
        CREATE TABLE IF NOT EXISTS survey.surveys (
            instance_id text PRIMARY KEY,
            dataset text NOT NULL,
            answers jsonb NOT NULL,
            form_id text,
            form_version text,
            device text,
            owner name NOT NULL DEFAULT current_user,
            revision bigint NOT NULL DEFAULT 1,
            base_revision bigint,
            deleted boolean NOT NULL DEFAULT false,
            review_state text CHECK (review_state IN ('approved', 'hasIssues', 'rejected', 'edited')),
            review_comment text,
            reviewed_by name,
            reviewed_at timestamptz,
            created_at timestamptz NOT NULL DEFAULT now(),
            updated_at timestamptz NOT NULL DEFAULT now(),
            change_seq bigint NOT NULL DEFAULT 0)
        """,
        "CREATE INDEX IF NOT EXISTS surveys_dataset_change ON survey.surveys (dataset, change_seq)",
        "CREATE INDEX IF NOT EXISTS surveys_change ON survey.surveys (change_seq)",
        // Server-side stamps no client can forge: revision, owner, times, change number. The
        // advisory lock is held to commit, so change numbers become visible in the order they
        // were given: a pull can never pass over a number a slower transaction commits later.
        """
        CREATE OR REPLACE FUNCTION survey.stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock(1937076853);
            NEW.change_seq := nextval('survey.change_seq');
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
            IF NEW.answers IS DISTINCT FROM OLD.answers OR NEW.deleted IS DISTINCT FROM OLD.deleted
               OR NEW.form_id IS DISTINCT FROM OLD.form_id OR NEW.form_version IS DISTINCT FROM OLD.form_version THEN
                NEW.revision := OLD.revision + 1;
                -- A survey fixed after review goes back as edited (ODK Central's review states).
                IF OLD.review_state IS NOT NULL AND NEW.review_state IS NOT DISTINCT FROM OLD.review_state THEN
                    NEW.review_state := 'edited';
                END IF;
            ELSE
                NEW.revision := OLD.revision;
            END IF;
            IF NEW.review_state IS DISTINCT FROM OLD.review_state OR NEW.review_comment IS DISTINCT FROM OLD.review_comment THEN
                NEW.reviewed_by := current_user;
                NEW.reviewed_at := now();
            END IF;
            RETURN NEW;
        END $$
        """,
        "DROP TRIGGER IF EXISTS surveys_stamp ON survey.surveys",
        "CREATE TRIGGER surveys_stamp BEFORE INSERT OR UPDATE ON survey.surveys FOR EACH ROW EXECUTE FUNCTION survey.stamp_change()",
        // Row-level security: an enumerator reads the team's surveys but inserts and changes
        // only its own (owner = the login role); a supervisor reads all and may update any row,
        // where its column privileges allow only the review columns.
        "ALTER TABLE survey.surveys ENABLE ROW LEVEL SECURITY",
        "DROP POLICY IF EXISTS team_reads ON survey.surveys",
        "CREATE POLICY team_reads ON survey.surveys FOR SELECT TO survey_enumerator, survey_supervisor USING (true)",
        "DROP POLICY IF EXISTS enumerator_inserts_own ON survey.surveys",
        "CREATE POLICY enumerator_inserts_own ON survey.surveys FOR INSERT TO survey_enumerator WITH CHECK (owner = current_user)",
        "DROP POLICY IF EXISTS enumerator_edits_own ON survey.surveys",
        """
        CREATE POLICY enumerator_edits_own ON survey.surveys FOR UPDATE TO survey_enumerator
            USING (owner = current_user) WITH CHECK (owner = current_user)
        """,
        "DROP POLICY IF EXISTS supervisor_reviews ON survey.surveys",
        "CREATE POLICY supervisor_reviews ON survey.surveys FOR UPDATE TO survey_supervisor USING (true) WITH CHECK (true)",
        "GRANT SELECT ON survey.surveys TO survey_enumerator, survey_supervisor",
        """
        GRANT INSERT (instance_id, dataset, answers, form_id, form_version, device, base_revision, deleted),
              UPDATE (dataset, answers, form_id, form_version, device, base_revision, deleted)
            ON survey.surveys TO survey_enumerator
        """,
        "GRANT UPDATE (review_state, review_comment) ON survey.surveys TO survey_supervisor",
    ]

    /// Published forms: the form file's bytes and its media (choice files, images), per
    /// version. A supervisor publishes; everyone pulls.
    static let forms = [
        """
        CREATE TABLE IF NOT EXISTS survey.forms (
            form_id text NOT NULL,
            version text NOT NULL,
            file_name text NOT NULL,
            file bytea NOT NULL,
            published_by name NOT NULL DEFAULT current_user,
            published_at timestamptz NOT NULL DEFAULT now(),
            change_seq bigint NOT NULL DEFAULT nextval('survey.change_seq'),
            PRIMARY KEY (form_id, version))
        """,
        """
        CREATE TABLE IF NOT EXISTS survey.form_media (
            form_id text NOT NULL,
            version text NOT NULL,
            name text NOT NULL,
            bytes bytea NOT NULL,
            PRIMARY KEY (form_id, version, name),
            FOREIGN KEY (form_id, version) REFERENCES survey.forms ON DELETE CASCADE)
        """,
        "GRANT SELECT ON survey.forms, survey.form_media TO survey_enumerator, survey_supervisor",
        "GRANT INSERT (form_id, version, file_name, file) ON survey.forms TO survey_supervisor",
        "GRANT INSERT ON survey.form_media TO survey_supervisor",
    ]

    /// A row a laptop cannot keep stopped every laptop's pull (issue 28), so the schema
    /// refuses one, as strictly as a laptop keeps (`SetAsideRow`): an instance id that is
    /// empty, holds a control character or is longer than 1,000 characters; answers that are
    /// not a JSON object, hold a `null` anywhere, a number a double cannot hold, or nest
    /// deeper than 50 levels (the answers object counted). `NOT VALID`: a database already
    /// holding such rows takes the checks without failing; they bind every insert and update
    /// from then on, and a laptop sets aside a row from before (DECISIONS.md).
    static let rowChecks = [
        "ALTER TABLE survey.surveys DROP CONSTRAINT IF EXISTS surveys_instance_id_keepable",
        """
        ALTER TABLE survey.surveys ADD CONSTRAINT surveys_instance_id_keepable CHECK (
            instance_id <> '' AND char_length(instance_id) <= 1000 AND instance_id !~ '[\\u0001-\\u001f\\u007f-\\u009f]') NOT VALID
        """,
        "ALTER TABLE survey.surveys DROP CONSTRAINT IF EXISTS surveys_answers_keepable",
        """
        ALTER TABLE survey.surveys ADD CONSTRAINT surveys_answers_keepable CHECK (
            jsonb_typeof(answers) = 'object'
            AND NOT answers @? 'strict $.** ? (@.type() == "null")'
            AND NOT answers @? 'strict $.** ? (@.type() == "number" && (@ >= 1.797693134862315807937289714053e308 || @ <= -1.797693134862315807937289714053e308))'
            AND NOT answers @? 'strict $.**{50 to last} ? (@.type() == "object" || @.type() == "array")') NOT VALID
        """,
    ]

    /// How long a transaction may sit idle before the server ends it (a laptop paused
    /// mid-push, a psql left open): the database's default for every session, survey's or not.
    static let idleInTransactionTimeout = "30s"

    /// Change numbers no session can stall (issue 28). Until now the trigger took a fixed
    /// advisory lock, held to commit, so numbers became visible in the order they were given;
    /// any role could take that key, and a laptop paused mid-push held it, freezing every push
    /// and review. Now a change number is `base + xid × 2²⁴ + (a sequence mod 2²⁴)`: ordered by
    /// the writing transaction's id (`pg_current_xact_id`), never waiting. A pull reads only
    /// numbers below `change_horizon()`, the oldest transaction id still running when its
    /// snapshot was taken (`pg_snapshot_xmin`): every transaction that could still commit a
    /// row has an id at or above it, so a cursor below it never passes over a row committed
    /// late (DECISIONS.md). `base` is the old sequence's last value, so every new number is
    /// above every number a laptop already holds as its cursor; nothing calls the old sequence
    /// after this, so running the statement again gives the same base.
    static let lockFreeChanges = [
        // Writers of the old numbers finish first; none starts until this commits.
        "LOCK TABLE survey.surveys, survey.forms IN EXCLUSIVE MODE",
        "CREATE SEQUENCE IF NOT EXISTS survey.change_low",
        "GRANT USAGE ON SEQUENCE survey.change_low TO survey_enumerator, survey_supervisor",
        """
        DO $$
        DECLARE base bigint := (SELECT last_value FROM survey.change_seq);
        BEGIN
            EXECUTE format($f$CREATE OR REPLACE FUNCTION survey.change_number() RETURNS bigint LANGUAGE sql VOLATILE
                AS 'SELECT %s + (pg_current_xact_id()::text::bigint << 24) + (nextval(''survey.change_low'') & 16777215)'$f$, base);
            EXECUTE format($f$CREATE OR REPLACE FUNCTION survey.change_horizon() RETURNS bigint LANGUAGE sql STABLE
                AS 'SELECT %s + (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 24)'$f$, base);
        END $$
        """,
        "GRANT EXECUTE ON FUNCTION survey.change_number(), survey.change_horizon() TO survey_enumerator, survey_supervisor",
        "ALTER TABLE survey.forms ALTER COLUMN change_seq SET DEFAULT survey.change_number()",
        """
        CREATE OR REPLACE FUNCTION survey.stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
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
            IF NEW.answers IS DISTINCT FROM OLD.answers OR NEW.deleted IS DISTINCT FROM OLD.deleted
               OR NEW.form_id IS DISTINCT FROM OLD.form_id OR NEW.form_version IS DISTINCT FROM OLD.form_version THEN
                NEW.revision := OLD.revision + 1;
                -- A survey fixed after review goes back as edited (ODK Central's review states).
                IF OLD.review_state IS NOT NULL AND NEW.review_state IS NOT DISTINCT FROM OLD.review_state THEN
                    NEW.review_state := 'edited';
                END IF;
            ELSE
                NEW.revision := OLD.revision;
            END IF;
            IF NEW.review_state IS DISTINCT FROM OLD.review_state OR NEW.review_comment IS DISTINCT FROM OLD.review_comment THEN
                NEW.reviewed_by := current_user;
                NEW.reviewed_at := now();
            END IF;
            RETURN NEW;
        END $$
        """,
        """
        DO $$ BEGIN
            EXECUTE format('ALTER DATABASE %I SET idle_in_transaction_session_timeout = %L', current_database(), '\(idleInTransactionTimeout)');
        END $$
        """,
    ]

    /// Who reviewed, and when, is the supervisor's (issue 28). Until now the trigger stamped
    /// `reviewed_by`/`reviewed_at` whenever the review's state changed, and its own automatic
    /// change to `edited` (an enumerator fixing a reviewed survey) counted: the enumerator's
    /// name and the fix's time replaced the supervisor's. Now only a statement that sets the
    /// review's columns itself stamps them; any other update keeps the stamp it had, so no
    /// client writes it either. When the fix came is `updated_at`, who made it the `owner`.
    static let reviewStamps = [
        """
        CREATE OR REPLACE FUNCTION survey.stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            reviewing boolean;
        BEGIN
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
                -- A survey fixed after review goes back as edited (ODK Central's review states).
                IF OLD.review_state IS NOT NULL AND NEW.review_state IS NOT DISTINCT FROM OLD.review_state THEN
                    NEW.review_state := 'edited';
                END IF;
            ELSE
                NEW.revision := OLD.revision;
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

    /// A login in both groups changes only its own surveys' answers (issue 28). The
    /// supervisor's rule lets a login update any row, for a review; the enumerator's grant
    /// lets it write the answers' columns; a login holding both reached a teammate's answers.
    /// The trigger now leaves such a row as it was, as row-level security leaves another's
    /// row to an enumerator: a push hears "it is Ana's survey", never an error that would stop
    /// the rest of its batch.
    static let ownAnswersOnly = [
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
                -- A survey fixed after review goes back as edited (ODK Central's review states).
                IF OLD.review_state IS NOT NULL AND NEW.review_state IS NOT DISTINCT FROM OLD.review_state THEN
                    NEW.review_state := 'edited';
                END IF;
            ELSE
                NEW.revision := OLD.revision;
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
