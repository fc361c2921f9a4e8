/* The findings database behind one small interface: a backend per kind
 * of database (SQLite embedded, PostgreSQL for a team), each running
 * SQL with text parameters $1..$n and handing back rows as text, so
 * the schema, the ingest and the queries are written once. */
#ifndef PD_FLEET_DB_H
#define PD_FLEET_DB_H

#include <stdbool.h>
#include <stddef.h>

enum {
	PD_DB_OK = 0,
	PD_DB_ERR = -1,
	/* busy, serialization failure, deadlock or unique violation: the
	 * transaction rolled back may succeed when run again */
	PD_DB_RETRY = -2,
};

/* One result row: vals[i] is NULL for SQL NULL.  Non-zero stops. */
typedef int (*pd_db_row_fn)(void *ctx, int ncols, const char *const *vals);

struct pd_db_backend {
	const char *name;		/* "sqlite", "postgresql" */
	/* the dialect's differences, spliced into the common SQL */
	const char *id_column;		/* an auto-numbered primary key */
	const char *begin;		/* opens a writing transaction */
	const char *migrate_lock;	/* serialises migrations; NULL */
	bool (*accepts)(const char *url);
	int (*open)(const char *url, void **h, char *err, size_t n);
	void (*close)(void *h);
	/* Several statements, no parameters, no rows. */
	int (*exec)(void *h, const char *sql, char *err, size_t n);
	/* One statement with text parameters (NULL: SQL NULL). */
	int (*run)(void *h, const char *sql, int nparams,
	    const char *const *params, pd_db_row_fn row, void *ctx,
	    char *err, size_t n);
};

extern const struct pd_db_backend pd_db_sqlite, pd_db_postgres;

struct pd_db {
	const struct pd_db_backend *be;
	void *h;
	char err[1024];			/* the last error */
};

/* "postgresql://..." or "postgres://..." is PostgreSQL; "sqlite:PATH"
 * or any other text a SQLite file. */
int pd_db_open(struct pd_db *db, const char *url);
void pd_db_close(struct pd_db *db);
int pd_db_exec(struct pd_db *db, const char *sql);
int pd_db_run(struct pd_db *db, const char *sql, int nparams,
    const char *const *params, pd_db_row_fn row, void *ctx);
int pd_db_begin(struct pd_db *db);
int pd_db_commit(struct pd_db *db);
void pd_db_rollback(struct pd_db *db);
/* sql with each @ID@ replaced by the backend's id column; malloc'd. */
char *pd_db_dialect(const struct pd_db *db, const char *sql);
/* Waits before try number n (1 ...) of a transaction that must run
 * again: a growing, jittered pause so that racing writers part. */
void pd_db_backoff(unsigned n);

#endif
