/* The named reports over the findings database. */
#ifndef PD_FLEET_QUERY_H
#define PD_FLEET_QUERY_H

#include <stdio.h>
#include "fleet/db.h"

struct pd_fleet_filter {
	const char *since;		/* ingested on or after (YYYY-MM-DD) */
	const char *rule, *model, *driver, *firmware;
	long limit;			/* rows at most */
};

void pd_fleet_query_list(FILE *out);
#define PD_FLEET_USAGE (-3)

/* PD_FLEET_USAGE: no such report, or a filter it needs is missing (said on
 * stderr); PD_DB_ERR with db->err. */
int pd_fleet_query(struct pd_db *db, const char *name,
    const struct pd_fleet_filter *f, const char *format, FILE *out);
/* Every row, one a line, ids replaced by natural keys (the bundle's
 * sha256, else its path), ingest times left out: two databases holding
 * the same bundles print the same lines, in some order. */
int pd_fleet_dump(struct pd_db *db, FILE *out);

#endif
