/*
 * libpq (PostgreSQL's client library), loaded with dlopen at first use rather than linked,
 * so the survey binary starts and keys surveys on a field laptop without libpq5 installed;
 * only syncing needs it (DECISIONS.md, "libpq is loaded, not linked").
 *
 * The header is Debian's libpq-dev (<postgresql/libpq-fe.h>: Debian keeps it out of the
 * default include path, and its own includes are quoted, so they resolve beside it). Each
 * function survey calls is looked up once into a table whose entry types are taken from the
 * header with __typeof__, so a signature written wrong here fails to compile rather than
 * crash. Swift calls the spq_* wrappers, never the PQ* declarations, so the binary has no
 * reference to libpq for the linker to resolve. Add a function to the X-list below when Swift
 * needs one; put no logic here beyond loading.
 *
 * The table is Swift's (one, allocated by SurveyDatabase's LibPQ and filled once under its
 * lock), passed to every wrapper: a static here would not do, since a static inline function
 * is emitted into each object file that calls it, each with its own static.
 */
#ifndef SURVEY_CPOSTGRES_SHIM_H
#define SURVEY_CPOSTGRES_SHIM_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <postgresql/libpq-fe.h>

#define SPQ_FUNCTIONS(X) \
    X(PQconnectdb) X(PQstatus) X(PQerrorMessage) X(PQfinish) X(PQexecParams) \
    X(PQresultStatus) X(PQresultErrorMessage) X(PQresultErrorField) X(PQntuples) \
    X(PQnfields) X(PQgetvalue) X(PQgetisnull) X(PQgetlength) X(PQclear) X(PQcmdTuples) \
    X(PQlibVersion) X(PQserverVersion) X(PQsetNoticeProcessor) X(PQtransactionStatus) \
    X(PQbackendPID) \
    X(PQhost) X(PQhostaddr) X(PQsslInUse) X(PQgssEncInUse) \
    X(PQsendQueryParams) X(PQgetResult) X(PQconsumeInput) X(PQisBusy) X(PQsocket) X(PQconnectdbParams)

typedef struct {
#define SPQ_FIELD(name) __typeof__(name) *name;
    SPQ_FUNCTIONS(SPQ_FIELD)
#undef SPQ_FIELD
} spq_table;

/* Opens `path` (e.g. "libpq.so.5") and looks up every function. Returns 1 when all were
 * found; else 0 with dlerror()'s words (or the missing function's name) in `error`. */
static inline int spq_load(spq_table *table, const char *path, char *error, size_t size) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(error, size, "%s", why ? why : "cannot be opened");
        return 0;
    }
#define SPQ_LOOKUP(name) \
    table->name = (__typeof__(name) *)dlsym(library, #name); \
    if (table->name == NULL) { snprintf(error, size, "%s has no %s", path, #name); dlclose(library); return 0; }
    SPQ_FUNCTIONS(SPQ_LOOKUP)
#undef SPQ_LOOKUP
    return 1;
}

static inline PGconn *spq_connectdb(const spq_table *t, const char *conninfo) { return t->PQconnectdb(conninfo); }
/* `keywords`/`values` end with NULL; with `expand_dbname` a first "dbname" holding a whole
 * connection string is read as one, and the keywords after it override what it says. */
static inline PGconn *spq_connectdb_params(const spq_table *t, const char *const *keywords, const char *const *values, int expand_dbname) {
    return t->PQconnectdbParams(keywords, values, expand_dbname);
}
static inline ConnStatusType spq_status(const spq_table *t, const PGconn *conn) { return t->PQstatus(conn); }
static inline char *spq_error_message(const spq_table *t, const PGconn *conn) { return t->PQerrorMessage(conn); }
static inline void spq_finish(const spq_table *t, PGconn *conn) { t->PQfinish(conn); }
static inline PGresult *spq_exec_params(const spq_table *t, PGconn *conn, const char *command, int count, const Oid *types,
                                        const char *const *values, const int *lengths, const int *formats,
                                        int resultFormat) {
    return t->PQexecParams(conn, command, count, types, values, lengths, formats, resultFormat);
}
/* A statement sent without waiting for its answer, so the caller can watch the wait (a lock
 * another session holds): PQsendQueryParams, then poll PQsocket, PQconsumeInput until
 * PQisBusy says the answer is in, and PQgetResult until it returns NULL. */
static inline int spq_send_query_params(const spq_table *t, PGconn *conn, const char *command, int count, const Oid *types,
                                        const char *const *values, const int *lengths, const int *formats,
                                        int resultFormat) {
    return t->PQsendQueryParams(conn, command, count, types, values, lengths, formats, resultFormat);
}
static inline PGresult *spq_get_result(const spq_table *t, PGconn *conn) { return t->PQgetResult(conn); }
static inline int spq_consume_input(const spq_table *t, PGconn *conn) { return t->PQconsumeInput(conn); }
static inline int spq_is_busy(const spq_table *t, PGconn *conn) { return t->PQisBusy(conn); }
static inline int spq_socket(const spq_table *t, const PGconn *conn) { return t->PQsocket(conn); }
static inline ExecStatusType spq_result_status(const spq_table *t, const PGresult *res) { return t->PQresultStatus(res); }
static inline char *spq_result_error_message(const spq_table *t, const PGresult *res) { return t->PQresultErrorMessage(res); }
static inline char *spq_result_error_field(const spq_table *t, const PGresult *res, int code) { return t->PQresultErrorField(res, code); }
static inline int spq_ntuples(const spq_table *t, const PGresult *res) { return t->PQntuples(res); }
static inline int spq_nfields(const spq_table *t, const PGresult *res) { return t->PQnfields(res); }
static inline char *spq_getvalue(const spq_table *t, const PGresult *res, int row, int column) { return t->PQgetvalue(res, row, column); }
static inline int spq_getisnull(const spq_table *t, const PGresult *res, int row, int column) { return t->PQgetisnull(res, row, column); }
static inline int spq_getlength(const spq_table *t, const PGresult *res, int row, int column) { return t->PQgetlength(res, row, column); }
static inline void spq_clear(const spq_table *t, PGresult *res) { t->PQclear(res); }
static inline char *spq_cmd_tuples(const spq_table *t, PGresult *res) { return t->PQcmdTuples(res); }
static inline int spq_lib_version(const spq_table *t) { return t->PQlibVersion(); }
static inline int spq_server_version(const spq_table *t, const PGconn *conn) { return t->PQserverVersion(conn); }
static inline PGTransactionStatusType spq_transaction_status(const spq_table *t, const PGconn *conn) { return t->PQtransactionStatus(conn); }
static inline int spq_backend_pid(const spq_table *t, const PGconn *conn) { return t->PQbackendPID(conn); }
/* Where the connection went and whether it is encrypted (TLS, or GSSAPI's own encryption). */
static inline char *spq_host(const spq_table *t, const PGconn *conn) { return t->PQhost(conn); }
static inline char *spq_hostaddr(const spq_table *t, const PGconn *conn) { return t->PQhostaddr(conn); }
static inline int spq_ssl_in_use(const spq_table *t, PGconn *conn) { return t->PQsslInUse(conn); }
static inline int spq_gss_enc_in_use(const spq_table *t, PGconn *conn) { return t->PQgssEncInUse(conn); }

/* libpq prints NOTICEs ("relation already exists, skipping") on stderr by default; survey's
 * output is its own, so they are dropped. */
static inline void spq_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }
static inline void spq_silence_notices(const spq_table *t, PGconn *conn) { t->PQsetNoticeProcessor(conn, spq_ignore_notice, NULL); }

/* The diagnostic fields Swift reads (PG_DIAG_* are macros of character constants). */
static inline int spq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }

#endif
