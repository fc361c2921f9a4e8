/* The embedded backend: one SQLite file, writers queued by its lock
 * (BEGIN IMMEDIATE takes it at once, so two writers never both hold a
 * read lock and deadlock on the upgrade). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "base/dynlib.h"
#include "fleet/db.h"

#ifndef PD_SONAME_SQLITE
#define PD_SONAME_SQLITE "libsqlite3.so.0"
#endif

#define BUSY_MS 60000	/* a writer waits this long for another's commit */
#define WAL_TRIES 16	/* about 10 s of pd_db_backoff's pauses */

/* SQLite's functions, resolved when the first database opens */
static struct {
	int (*sqlite3_open_v2)(const char *, sqlite3 **, int, const char *);
	int (*sqlite3_close)(sqlite3 *);
	int (*sqlite3_busy_timeout)(sqlite3 *, int);
	int (*sqlite3_exec)(sqlite3 *, const char *,
	    int (*)(void *, int, char **, char **), void *, char **);
	void (*sqlite3_free)(void *);
	const char *(*sqlite3_errmsg)(sqlite3 *);
	const char *(*sqlite3_errstr)(int);
	int (*sqlite3_extended_errcode)(sqlite3 *);
	int (*sqlite3_prepare_v2)(sqlite3 *, const char *, int,
	    sqlite3_stmt **, const char **);
	int (*sqlite3_bind_parameter_index)(sqlite3_stmt *, const char *);
	int (*sqlite3_bind_text)(sqlite3_stmt *, int, const char *, int,
	    void (*)(void *));
	int (*sqlite3_bind_null)(sqlite3_stmt *, int);
	int (*sqlite3_step)(sqlite3_stmt *);
	int (*sqlite3_column_count)(sqlite3_stmt *);
	const unsigned char *(*sqlite3_column_text)(sqlite3_stmt *, int);
	int (*sqlite3_finalize)(sqlite3_stmt *);
} sq;

static const struct pd_dynsym sq_syms[] = {
	PD_DYNSYM(sq, sqlite3_open_v2), PD_DYNSYM(sq, sqlite3_close),
	PD_DYNSYM(sq, sqlite3_busy_timeout), PD_DYNSYM(sq, sqlite3_exec),
	PD_DYNSYM(sq, sqlite3_free), PD_DYNSYM(sq, sqlite3_errmsg),
	PD_DYNSYM(sq, sqlite3_errstr), PD_DYNSYM(sq, sqlite3_extended_errcode),
	PD_DYNSYM(sq, sqlite3_prepare_v2),
	PD_DYNSYM(sq, sqlite3_bind_parameter_index),
	PD_DYNSYM(sq, sqlite3_bind_text), PD_DYNSYM(sq, sqlite3_bind_null),
	PD_DYNSYM(sq, sqlite3_step), PD_DYNSYM(sq, sqlite3_column_count),
	PD_DYNSYM(sq, sqlite3_column_text), PD_DYNSYM(sq, sqlite3_finalize),
	{ NULL, NULL, 0 }
};

static struct pd_dynlib libsqlite = {
	.what = "SQLite support",
	.sonames = (const char *const[]){ PD_SONAME_SQLITE, "libsqlite3.so",
	    NULL },
	.syms = sq_syms,
};

static bool
accepts(const char *url)
{
	(void)url;
	return true;
}

/* Another connection holds the lock: trying again may succeed. */
static bool
busy(int rc)
{
	return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
}

static int
fail(sqlite3 *h, int rc, char *err, size_t n)
{
	int x = h ? sq.sqlite3_extended_errcode(h) : rc;

	snprintf(err, n, "%s", h ? sq.sqlite3_errmsg(h) : sq.sqlite3_errstr(rc));
	if (busy(rc) || x == SQLITE_CONSTRAINT_UNIQUE ||
	    x == SQLITE_CONSTRAINT_PRIMARYKEY)
		return PD_DB_RETRY;
	return PD_DB_ERR;
}

/* WAL: readers (queries) do not block the writer; NORMAL syncs at
 * checkpoints, not at each bundle's commit: a killed worker still loses
 * no committed bundle, only a power cut may lose the last.  Turning a
 * new file to WAL wants its lock at once, past the busy handler, so
 * two writers opening a new database together get "database is locked"
 * from it: the loser waits and tries again. */
static int
wal(sqlite3 *h)
{
	int rc;

	for (unsigned n = 1;; n++) {
		rc = sq.sqlite3_exec(h, "PRAGMA journal_mode=WAL; PRAGMA "
		    "synchronous=NORMAL", NULL, NULL, NULL);
		if (!busy(rc) || n == WAL_TRIES)
			return rc;
		pd_db_backoff(n);
	}
}

static int
open_db(const char *url, void **out, char *err, size_t n)
{
	const char *path = strncmp(url, "sqlite:", 7) == 0 ? url + 7 : url;
	sqlite3 *h = NULL;
	int rc;

	if (!pd_dynlib_load(&libsqlite)) {
		snprintf(err, n, "%s", libsqlite.err);
		return PD_DB_ERR;
	}
	rc = sq.sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, n, "%s: %s", path, h ? sq.sqlite3_errmsg(h) :
		    sq.sqlite3_errstr(rc));
		sq.sqlite3_close(h);
		return PD_DB_ERR;
	}
	sq.sqlite3_busy_timeout(h, BUSY_MS);
	if (wal(h) != SQLITE_OK) {
		snprintf(err, n, "%s: %s", path, sq.sqlite3_errmsg(h));
		sq.sqlite3_close(h);
		return PD_DB_ERR;
	}
	*out = h;
	return PD_DB_OK;
}

static void
close_db(void *h)
{
	sq.sqlite3_close(h);
}

static int
exec_db(void *h, const char *sql, char *err, size_t n)
{
	char *msg = NULL;
	int rc = sq.sqlite3_exec(h, sql, NULL, NULL, &msg);

	sq.sqlite3_free(msg);
	return rc == SQLITE_OK ? PD_DB_OK : fail(h, rc, err, n);
}

/* $1..$n are named parameters to SQLite: bound by name, so a statement
 * may use them in any order, or one twice. */
static int
bind(sqlite3_stmt *st, int nparams, const char *const *params)
{
	for (int i = 0; i < nparams; i++) {
		char name[16];
		int k, rc;

		snprintf(name, sizeof(name), "$%d", i + 1);
		if ((k = sq.sqlite3_bind_parameter_index(st, name)) == 0)
			continue;
		rc = params[i] ? sq.sqlite3_bind_text(st, k, params[i], -1,
		    SQLITE_TRANSIENT) : sq.sqlite3_bind_null(st, k);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

static int
run_db(void *h, const char *sql, int nparams, const char *const *params,
    pd_db_row_fn row, void *ctx, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	int rc = sq.sqlite3_prepare_v2(h, sql, -1, &st, NULL), out = PD_DB_OK;

	if (rc == SQLITE_OK)
		rc = bind(st, nparams, params);
	while (rc == SQLITE_OK && (rc = sq.sqlite3_step(st)) == SQLITE_ROW) {
		int nc = sq.sqlite3_column_count(st);
		const char *vals[64];

		if (nc > 64)
			nc = 64;
		for (int i = 0; i < nc; i++)
			vals[i] = (const char *)sq.sqlite3_column_text(st, i);
		rc = row && row(ctx, nc, vals) != 0 ? SQLITE_DONE : SQLITE_OK;
	}
	if (rc != SQLITE_DONE)
		out = fail(h, rc, err, n);
	sq.sqlite3_finalize(st);
	return out;
}

const struct pd_db_backend pd_db_sqlite = {
	.name = "sqlite",
	.id_column = "INTEGER PRIMARY KEY",
	.begin = "BEGIN IMMEDIATE",
	.migrate_lock = NULL,
	.accepts = accepts,
	.open = open_db,
	.close = close_db,
	.exec = exec_db,
	.run = run_db,
};
