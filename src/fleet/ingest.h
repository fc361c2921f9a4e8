/* A JSON line (the JSON line contract, pathdoctor_jsonl 1) into the
 * findings database's rows. */
#ifndef PD_FLEET_INGEST_H
#define PD_FLEET_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include "fleet/db.h"

/* Stores one line's bundle in one transaction, replacing the rows of
 * the bundle with the same sha256 (a bundle without one: the same path
 * and no sha256), retried a bounded number of times when writers
 * collide.  PD_DB_OK, or an error with the reason in err. */
int pd_fleet_ingest_line(struct pd_db *db, const char *line, size_t len,
    char *err, size_t n);
/* Whether a bundle of this hash is stored (--skip-existing). */
bool pd_fleet_have(struct pd_db *db, const char *sha256);

#endif
