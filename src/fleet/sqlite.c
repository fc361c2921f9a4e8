/* The embedded backend: one SQLite file, writers queued by its lock
 * (BEGIN IMMEDIATE takes it at once, so two writers never both hold a
 * read lock and deadlock on the upgrade). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "fleet/db.h"

#define BUSY_MS 60000	/* a writer waits this long for another's commit */

static bool
accepts(const char *url)
{
	(void)url;
	return true;
}

static int
fail(sqlite3 *h, int rc, char *err, size_t n)
{
	int x = h ? sqlite3_extended_errcode(h) : rc;

	snprintf(err, n, "%s", h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED ||
	    x == SQLITE_CONSTRAINT_UNIQUE || x == SQLITE_CONSTRAINT_PRIMARYKEY)
		return PD_DB_RETRY;
	return PD_DB_ERR;
}

static int
open_db(const char *url, void **out, char *err, size_t n)
{
	const char *path = strncmp(url, "sqlite:", 7) == 0 ? url + 7 : url;
	sqlite3 *h = NULL;
	int rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL);

	if (rc != SQLITE_OK) {
		snprintf(err, n, "%s: %s", path, h ? sqlite3_errmsg(h) :
		    sqlite3_errstr(rc));
		sqlite3_close(h);
		return PD_DB_ERR;
	}
	sqlite3_busy_timeout(h, BUSY_MS);
	/* WAL: readers (queries) do not block the writer; NORMAL syncs at
	 * checkpoints, not at each bundle's commit: a killed worker still
	 * loses no committed bundle, only a power cut may lose the last */
	if (sqlite3_exec(h, "PRAGMA journal_mode=WAL; PRAGMA synchronous="
	    "NORMAL", NULL, NULL, NULL) !=
	    SQLITE_OK) {
		snprintf(err, n, "%s: %s", path, sqlite3_errmsg(h));
		sqlite3_close(h);
		return PD_DB_ERR;
	}
	*out = h;
	return PD_DB_OK;
}

static void
close_db(void *h)
{
	sqlite3_close(h);
}

static int
exec_db(void *h, const char *sql, char *err, size_t n)
{
	char *msg = NULL;
	int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);

	sqlite3_free(msg);
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
		if ((k = sqlite3_bind_parameter_index(st, name)) == 0)
			continue;
		rc = params[i] ? sqlite3_bind_text(st, k, params[i], -1,
		    SQLITE_TRANSIENT) : sqlite3_bind_null(st, k);
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
	int rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL), out = PD_DB_OK;

	if (rc == SQLITE_OK)
		rc = bind(st, nparams, params);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int nc = sqlite3_column_count(st);
		const char *vals[64];

		if (nc > 64)
			nc = 64;
		for (int i = 0; i < nc; i++)
			vals[i] = (const char *)sqlite3_column_text(st, i);
		rc = row && row(ctx, nc, vals) != 0 ? SQLITE_DONE : SQLITE_OK;
	}
	if (rc != SQLITE_DONE)
		out = fail(h, rc, err, n);
	sqlite3_finalize(st);
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
