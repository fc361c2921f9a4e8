/* The findings database's schema: versioned migrations. */
#ifndef PD_FLEET_SCHEMA_H
#define PD_FLEET_SCHEMA_H

#include <stdio.h>
#include "fleet/db.h"

#define PD_FLEET_SCHEMA_VERSION 1

/* Brings the database to PD_FLEET_SCHEMA_VERSION, each missing version
 * applied in one transaction with its schema_version row; refuses a
 * database newer than this program. */
int pd_fleet_migrate(struct pd_db *db);
/* Every migration as SQLite runs it (formats/fleet-schema.sql). */
void pd_fleet_schema_print(FILE *out);

#endif
