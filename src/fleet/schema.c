/* The migrations, oldest first, in the SQL that SQLite and PostgreSQL
 * both accept; @ID@ is the one dialect difference, the backend's
 * auto-numbered key.  A new version is a new entry at the end: an
 * entry once released is never edited, since databases already hold
 * it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fleet/schema.h"

static const char schema_version_sql[] =
    "CREATE TABLE IF NOT EXISTS schema_version (\n"
    "  version INTEGER PRIMARY KEY,\n"
    "  applied_at TEXT NOT NULL\n"
    ");\n";

static const char *const migrations[] = {
	/* 1: bundles, hosts, members, findings, ladder steps, facts */
	"CREATE TABLE bundles (\n"
	"  id @ID@,\n"
	"  sha256 TEXT UNIQUE,\n"
	"  path TEXT NOT NULL,\n"
	"  bytes BIGINT,\n"
	"  ingested_at TEXT NOT NULL,\n"
	"  pathdoctor_version TEXT,\n"
	"  exit_status INTEGER NOT NULL,\n"
	"  error TEXT,\n"
	"  nothing_read TEXT\n"
	");\n"
	"CREATE INDEX bundles_ingested_at ON bundles (ingested_at);\n"
	"CREATE INDEX bundles_path ON bundles (path);\n"
	/* a bundle that could not be read has no hash: its path is its key,
	 * so two writers storing it at once collide and one retries */
	"CREATE UNIQUE INDEX bundles_unread ON bundles (path) WHERE sha256 IS "
	"NULL;\n"
	"CREATE TABLE hosts (\n"
	"  bundle_id BIGINT NOT NULL REFERENCES bundles (id),\n"
	"  host_index INTEGER NOT NULL,\n"
	"  name TEXT NOT NULL,\n"
	"  path TEXT NOT NULL,\n"
	"  model TEXT,\n"
	"  arch TEXT,\n"
	"  kernel TEXT,\n"
	"  cpus INTEGER,\n"
	"  cpu TEXT,\n"
	"  iommu_mode TEXT,\n"
	"  PRIMARY KEY (bundle_id, host_index)\n"
	");\n"
	"CREATE INDEX hosts_name ON hosts (name);\n"
	"CREATE INDEX hosts_model ON hosts (model);\n"
	"CREATE TABLE members (\n"
	"  bundle_id BIGINT NOT NULL REFERENCES bundles (id),\n"
	"  member_index INTEGER NOT NULL,\n"
	"  host_index INTEGER,\n"
	"  path TEXT NOT NULL,\n"
	"  format TEXT,\n"
	"  status TEXT NOT NULL,\n"
	"  notes INTEGER NOT NULL,\n"
	"  PRIMARY KEY (bundle_id, member_index)\n"
	");\n"
	"CREATE TABLE findings (\n"
	"  bundle_id BIGINT NOT NULL REFERENCES bundles (id),\n"
	"  rank INTEGER NOT NULL,\n"
	"  host_index INTEGER,\n"
	"  rule TEXT NOT NULL,\n"
	"  level TEXT NOT NULL,\n"
	"  title TEXT NOT NULL,\n"
	"  subject TEXT,\n"
	"  gain_low_pct DOUBLE PRECISION,\n"
	"  gain_high_pct DOUBLE PRECISION,\n"
	"  gain_basis TEXT,\n"
	"  confidence INTEGER,\n"
	"  ladder_step INTEGER,\n"
	"  fix TEXT,\n"
	"  PRIMARY KEY (bundle_id, rank)\n"
	");\n"
	"CREATE INDEX findings_rule ON findings (rule);\n"
	"CREATE INDEX findings_host ON findings (bundle_id, host_index);\n"
	"CREATE TABLE ladder_steps (\n"
	"  bundle_id BIGINT NOT NULL REFERENCES bundles (id),\n"
	"  host_index INTEGER NOT NULL,\n"
	"  direction TEXT NOT NULL,\n"
	"  step INTEGER NOT NULL,\n"
	"  rule TEXT NOT NULL,\n"
	"  subject TEXT,\n"
	"  action TEXT,\n"
	"  gain_pct DOUBLE PRECISION,\n"
	"  low_bytes_per_s BIGINT,\n"
	"  expected_bytes_per_s BIGINT,\n"
	"  high_bytes_per_s BIGINT,\n"
	"  bottleneck_after TEXT,\n"
	"  PRIMARY KEY (bundle_id, host_index, direction, step)\n"
	");\n"
	"CREATE INDEX ladder_steps_rule ON ladder_steps (rule);\n"
	"CREATE TABLE facts (\n"
	"  bundle_id BIGINT NOT NULL REFERENCES bundles (id),\n"
	"  host_index INTEGER NOT NULL,\n"
	"  kind TEXT NOT NULL,\n"
	"  subject TEXT NOT NULL,\n"
	"  key TEXT NOT NULL,\n"
	"  value TEXT\n"
	");\n"
	"CREATE INDEX facts_kind_key ON facts (kind, key, value);\n"
	"CREATE INDEX facts_host ON facts (bundle_id, host_index);\n",
};

#define N_MIGRATIONS (sizeof(migrations) / sizeof(migrations[0]))

_Static_assert(N_MIGRATIONS == PD_FLEET_SCHEMA_VERSION,
    "one migration per schema version");

static int
max_version(void *ctx, int nc, const char *const *v)
{
	*(long *)ctx = nc > 0 && v[0] ? strtol(v[0], NULL, 10) : 0;
	return 0;
}

static int
apply(struct pd_db *db, long from)
{
	int rc = PD_DB_OK;

	for (size_t i = (size_t)from; rc == PD_DB_OK && i < N_MIGRATIONS;
	    i++) {
		char *sql = pd_db_dialect(db, migrations[i]), ver[24], at[32];
		const char *p[] = { ver, at };
		time_t now = time(NULL);

		if (!sql) {
			snprintf(db->err, sizeof(db->err), "out of memory");
			return PD_DB_ERR;
		}
		snprintf(ver, sizeof(ver), "%zu", i + 1);
		strftime(at, sizeof(at), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		rc = pd_db_exec(db, sql);
		free(sql);
		if (rc == PD_DB_OK)
			rc = pd_db_run(db, "INSERT INTO schema_version "
			    "(version, applied_at) VALUES ($1, $2)", 2, p,
			    NULL, NULL);
	}
	return rc;
}

static int
migrate_once(struct pd_db *db)
{
	long have = 0;
	int rc = pd_db_begin(db);

	if (rc == PD_DB_OK && db->be->migrate_lock)
		rc = pd_db_run(db, db->be->migrate_lock, 0, NULL, NULL, NULL);
	if (rc == PD_DB_OK)
		rc = pd_db_exec(db, schema_version_sql);
	if (rc == PD_DB_OK)
		rc = pd_db_run(db, "SELECT MAX(version) FROM schema_version",
		    0, NULL, max_version, &have);
	if (rc == PD_DB_OK && have > PD_FLEET_SCHEMA_VERSION) {
		snprintf(db->err, sizeof(db->err), "the database's schema "
		    "is version %ld, newer than this pathdoctor's %d", have,
		    PD_FLEET_SCHEMA_VERSION);
		rc = PD_DB_ERR;
	}
	if (rc == PD_DB_OK)
		rc = apply(db, have);
	if (rc == PD_DB_OK)
		rc = pd_db_commit(db);
	if (rc != PD_DB_OK)
		pd_db_rollback(db);
	return rc;
}

int
pd_fleet_migrate(struct pd_db *db)
{
	int rc = PD_DB_RETRY;

	for (unsigned t = 1; rc == PD_DB_RETRY && t <= 8; t++) {
		if (t > 1)
			pd_db_backoff(t);
		rc = migrate_once(db);
	}
	return rc;
}

void
pd_fleet_schema_print(FILE *out)
{
	struct pd_db sqlite = { .be = &pd_db_sqlite };

	fprintf(out, "-- pathdoctor findings database, schema version %d, as "
	    "SQLite runs it.\n-- PostgreSQL runs the same text with each id "
	    "column \"%s\".\n-- Generated by: pathdoctor query --schema\n\n%s",
	    PD_FLEET_SCHEMA_VERSION, pd_db_postgres.id_column,
	    schema_version_sql);
	for (size_t i = 0; i < N_MIGRATIONS; i++) {
		char *sql = pd_db_dialect(&sqlite, migrations[i]);

		fprintf(out, "\n-- version %zu\n%s", i + 1, sql ? sql : "");
		free(sql);
	}
}
