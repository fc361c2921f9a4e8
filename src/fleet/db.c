/* The backend table and what every caller shares. */
#define _DEFAULT_SOURCE		/* usleep, random */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fleet/db.h"

static const struct pd_db_backend *const backends[] = {
	&pd_db_postgres, &pd_db_sqlite,	/* SQLite takes the rest */
};

int
pd_db_open(struct pd_db *db, const char *url)
{
	memset(db, 0, sizeof(*db));
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (backends[i]->accepts(url)) {
			db->be = backends[i];
			return db->be->open(url, &db->h, db->err,
			    sizeof(db->err));
		}
	snprintf(db->err, sizeof(db->err), "no database kind for '%s'", url);
	return PD_DB_ERR;
}

void
pd_db_close(struct pd_db *db)
{
	if (db->be && db->h)
		db->be->close(db->h);
	db->h = NULL;
}

int
pd_db_exec(struct pd_db *db, const char *sql)
{
	return db->be->exec(db->h, sql, db->err, sizeof(db->err));
}

int
pd_db_run(struct pd_db *db, const char *sql, int nparams,
    const char *const *params, pd_db_row_fn row, void *ctx)
{
	return db->be->run(db->h, sql, nparams, params, row, ctx, db->err,
	    sizeof(db->err));
}

int
pd_db_begin(struct pd_db *db)
{
	return pd_db_exec(db, db->be->begin);
}

int
pd_db_commit(struct pd_db *db)
{
	return pd_db_exec(db, "COMMIT");
}

/* The error that made us roll back is the one to report: this one's
 * own message is dropped. */
void
pd_db_rollback(struct pd_db *db)
{
	char keep[sizeof(db->err)];

	memcpy(keep, db->err, sizeof(keep));
	(void)pd_db_exec(db, "ROLLBACK");
	memcpy(db->err, keep, sizeof(keep));
}

char *
pd_db_dialect(const struct pd_db *db, const char *sql)
{
	static const char tok[] = "@ID@";
	size_t n = 0, idn = strlen(db->be->id_column);
	const char *p;

	for (p = sql; (p = strstr(p, tok)); p += sizeof(tok) - 1)
		n++;
	char *out = malloc(strlen(sql) + n * idn + 1), *o = out;

	if (!out)
		return NULL;
	for (p = sql; *p;) {
		const char *q = strstr(p, tok);
		size_t k = q ? (size_t)(q - p) : strlen(p);

		memcpy(o, p, k);
		o += k;
		p += k;
		if (q) {
			memcpy(o, db->be->id_column, idn);
			o += idn;
			p += sizeof(tok) - 1;
		}
	}
	*o = '\0';
	return out;
}

void
pd_db_backoff(unsigned n)
{
	unsigned ms = 10u << (n < 6 ? n : 6);

	usleep((useconds_t)(ms + (unsigned)random() % ms) * 1000);
}
