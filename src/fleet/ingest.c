/* A JSON line into rows: the bundle, its hosts, members, findings,
 * ladder steps and the facts the rules read.  Each bundle is one
 * transaction, so a worker stopped at any point leaves every bundle
 * either wholly stored or absent. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fleet/ingest.h"

#define TRIES 8		/* a bundle's transaction run at most this often */
#define MAX_PARAMS 16

/* A statement's text parameters, numbers printed into their own
 * buffers. */
struct params {
	const char *v[MAX_PARAMS];
	char buf[MAX_PARAMS][32];
	int n;
};

static void
p_str(struct params *p, const char *s)
{
	if (p->n < MAX_PARAMS)
		p->v[p->n++] = s;
}

static void
p_int(struct params *p, long long x)
{
	if (p->n < MAX_PARAMS) {
		snprintf(p->buf[p->n], sizeof(p->buf[0]), "%lld", x);
		p->v[p->n] = p->buf[p->n];
		p->n++;
	}
}

/* A JSON value as a column: strings as they are, integers and reals
 * printed, null and anything else NULL. */
static void
p_json(struct params *p, const json_t *j)
{
	if (p->n >= MAX_PARAMS)
		return;
	if (json_is_string(j))
		p->v[p->n] = json_string_value(j);
	else if (json_is_integer(j)) {
		snprintf(p->buf[p->n], sizeof(p->buf[0]), "%lld",
		    (long long)json_integer_value(j));
		p->v[p->n] = p->buf[p->n];
	} else if (json_is_real(j)) {
		snprintf(p->buf[p->n], sizeof(p->buf[0]), "%.17g",
		    json_real_value(j));
		p->v[p->n] = p->buf[p->n];
	} else
		p->v[p->n] = NULL;
	p->n++;
}

static void
p_real(struct params *p, double x)
{
	json_t *j = isfinite(x) ? json_real(x) : json_null();

	p_json(p, j);
	json_decref(j);
}

struct ing {
	struct pd_db *db;
	json_t *line, *report;
	char id[32];		/* the bundle row's id */
};

static int
put(struct ing *g, const char *sql, struct params *p)
{
	return pd_db_run(g->db, sql, p->n, p->v, NULL, NULL);
}

static const char *
str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The index in the report's hosts of the host named name. */
static long long
host_index(const struct ing *g, const char *name)
{
	json_t *hosts = json_object_get(g->report, "hosts"), *h;
	size_t i;

	json_array_foreach(hosts, i, h)
		if (name && str(h, "name") && strcmp(str(h, "name"), name) == 0)
			return (long long)i;
	return -1;
}

/* A member belongs to the host whose path is the longest prefix of its
 * own ("" at the top of a one-host bundle). */
static long long
member_host(const struct ing *g, const char *path)
{
	json_t *hosts = json_object_get(g->report, "hosts"), *h;
	long long best = -1;
	size_t i, best_len = 0;

	json_array_foreach(hosts, i, h) {
		const char *hp = str(h, "path");
		size_t k = hp ? strlen(hp) : 0;

		if (hp && strncmp(path, hp, k) == 0 && (k == 0 ||
		    path[k] == '/' || path[k] == '\0') &&
		    (best < 0 || k > best_len)) {
			best = (long long)i;
			best_len = k;
		}
	}
	return best;
}

static int
fact(struct ing *g, long long host, const char *kind, const char *subject,
    const char *key, const json_t *value)
{
	struct params p = { 0 };

	if (!key || json_is_null(value) || !value)
		return PD_DB_OK;
	p_str(&p, g->id);
	p_int(&p, host);
	p_str(&p, kind);
	p_str(&p, subject);
	p_str(&p, key);
	p_json(&p, value);
	return put(g, "INSERT INTO facts (bundle_id, host_index, kind, "
	    "subject, key, value) VALUES ($1, $2, $3, $4, $5, $6)", &p);
}

/* Each kernel parameter, key=value or a bare flag (value ""); double
 * quotes keep spaces inside a value, as the kernel reads them. */
static int
cmdline_facts(struct ing *g, long long host, const char *cmdline)
{
	int rc = PD_DB_OK;

	for (const char *p = cmdline; p && *p && rc == PD_DB_OK;) {
		size_t k = 0, eq = 0;
		bool q = false;

		p += strspn(p, " \t\n");
		for (; p[k] && (q || !strchr(" \t\n", p[k])); k++) {
			if (p[k] == '"')
				q = !q;
			if (p[k] == '=' && !eq)
				eq = k;
		}
		if (!k)
			break;
		char *key = strndup(p, eq ? eq : k);
		json_t *v = eq ? json_stringn(p + eq + 1, k - eq - 1) :
		    json_string("");

		rc = key ? fact(g, host, "cmdline", "", key, v) : PD_DB_ERR;
		free(key);
		json_decref(v);
		p += k;
	}
	return rc;
}

static int
device_facts(struct ing *g, long long host, const json_t *h)
{
	static const char *const pcie_keys[] = {
		"max_payload", "max_payload_cap", "max_read_request",
	};
	static const char *const drv_keys[] = {
		"driver", "version", "firmware", "bus_info",
	};
	json_t *d;
	size_t i;
	int rc = PD_DB_OK;

	json_array_foreach(json_object_get(h, "pcie"), i, d)
		for (size_t k = 0; k < 3 && rc == PD_DB_OK; k++)
			rc = fact(g, host, "pcie", str(d, "bdf"), pcie_keys[k],
			    json_object_get(d, pcie_keys[k]));
	json_array_foreach(json_object_get(h, "drivers"), i, d)
		for (size_t k = 0; k < 4 && rc == PD_DB_OK; k++)
			rc = fact(g, host, "driver", str(d, "netdev"),
			    drv_keys[k], json_object_get(d, drv_keys[k]));
	return rc;
}

/* model: the CPU types ("Cortex-A725+Cortex-X925"), what names the
 * machine in today's bundles; cpu: their counts. */
static void
cpu_text(const json_t *h, char *model, char *cpu, size_t n)
{
	json_t *t;
	size_t i, mo = 0, co = 0;

	*model = *cpu = '\0';
	json_array_foreach(json_object_get(h, "cpu_types"), i, t) {
		const char *nm = str(t, "name") ? str(t, "name") : "?";
		long long c = json_integer_value(json_object_get(t, "count"));

		if (mo < n)
			mo += (size_t)snprintf(model + mo, n - mo, "%s%s",
			    i ? "+" : "", nm);
		if (co < n)
			co += (size_t)snprintf(cpu + co, n - co, "%s%lld %s",
			    i ? ", " : "", c, nm);
	}
}

static int
host_row(struct ing *g, long long i, const json_t *h)
{
	struct params p = { 0 };
	char model[256], cpu[256];
	json_t *iommu = json_object_get(json_object_get(h, "iommu"), "mode");
	int rc;

	cpu_text(h, model, cpu, sizeof(model));
	p_str(&p, g->id);
	p_int(&p, i);
	p_str(&p, str(h, "name") ? str(h, "name") : "");
	p_str(&p, str(h, "path") ? str(h, "path") : "");
	p_str(&p, *model ? model : NULL);
	p_json(&p, json_object_get(h, "arch"));
	p_json(&p, json_object_get(h, "kernel"));
	p_json(&p, json_object_get(h, "cpus"));
	p_str(&p, *cpu ? cpu : NULL);
	p_json(&p, iommu);
	rc = put(g, "INSERT INTO hosts (bundle_id, host_index, name, path, "
	    "model, arch, kernel, cpus, cpu, iommu_mode) VALUES ($1, $2, $3, "
	    "$4, $5, $6, $7, $8, $9, $10)", &p);
	if (rc == PD_DB_OK)
		rc = fact(g, i, "iommu", "", "mode", iommu);
	if (rc == PD_DB_OK)
		rc = cmdline_facts(g, i, str(h, "cmdline"));
	return rc == PD_DB_OK ? device_facts(g, i, h) : rc;
}

static int
member_row(struct ing *g, long long i, const json_t *m)
{
	struct params p = { 0 };
	const char *path = str(m, "path") ? str(m, "path") : "";
	long long h = member_host(g, path);

	p_str(&p, g->id);
	p_int(&p, i);
	if (h >= 0)
		p_int(&p, h);
	else
		p_str(&p, NULL);
	p_str(&p, path);
	p_json(&p, json_object_get(m, "format"));
	p_str(&p, str(m, "status") ? str(m, "status") : "ok");
	p_int(&p, (long long)json_array_size(json_object_get(m, "notes")));
	return put(g, "INSERT INTO members (bundle_id, member_index, "
	    "host_index, path, format, status, notes) VALUES ($1, $2, $3, $4, "
	    "$5, $6, $7)", &p);
}

/* The fix's lines as one text, one command a line. */
static char *
fix_text(const json_t *fix)
{
	size_t n = 1, i;
	json_t *l;

	json_array_foreach(fix, i, l)
		n += strlen(json_string_value(l) ? json_string_value(l) : "") +
		    1;
	char *s = malloc(n);

	if (!s)
		return NULL;
	*s = '\0';
	json_array_foreach(fix, i, l) {
		if (i)
			strcat(s, "\n");
		strcat(s, json_string_value(l) ? json_string_value(l) : "");
	}
	return s;
}

static int
finding_row(struct ing *g, long long i, const json_t *f)
{
	struct params p = { 0 };
	const json_t *gain = json_object_get(f, "gain");
	long long h = host_index(g, str(f, "host"));
	char *fix = fix_text(json_object_get(f, "fix"));
	int rc;

	p_str(&p, g->id);
	p_int(&p, i + 1);
	if (h >= 0)
		p_int(&p, h);
	else
		p_str(&p, NULL);
	p_str(&p, str(f, "rule") ? str(f, "rule") : "");
	p_str(&p, str(f, "level") ? str(f, "level") : "");
	p_str(&p, str(f, "title") ? str(f, "title") : "");
	p_json(&p, json_object_get(f, "subject"));
	p_json(&p, json_object_get(gain, "low_pct"));
	p_json(&p, json_object_get(gain, "high_pct"));
	p_json(&p, json_object_get(gain, "basis"));
	p_json(&p, json_object_get(f, "confidence"));
	p_json(&p, json_object_get(f, "ladder_step"));
	p_str(&p, fix);
	rc = put(g, "INSERT INTO findings (bundle_id, rank, host_index, rule, "
	    "level, title, subject, gain_low_pct, gain_high_pct, gain_basis, "
	    "confidence, ladder_step, fix) VALUES ($1, $2, $3, $4, $5, $6, $7, "
	    "$8, $9, $10, $11, $12, $13)", &p);
	free(fix);
	return rc;
}

static double
num(const json_t *o, const char *key)
{
	const json_t *j = json_object_get(o, key);

	return json_is_number(j) ? json_number_value(j) : NAN;
}

/* Each step's gain is against the throughput before it: the observed
 * one for step 1, the step before's expected one after. */
static int
ladder_rows(struct ing *g, const json_t *l)
{
	long long h = host_index(g, str(l, "host"));
	double before = num(json_object_get(l, "observed"), "bytes_per_s");
	json_t *s;
	size_t k;
	int rc = PD_DB_OK;

	json_array_foreach(json_object_get(l, "steps"), k, s) {
		struct params p = { 0 };
		double after = num(s, "expected_bytes_per_s");

		if (rc != PD_DB_OK || h < 0)
			break;
		p_str(&p, g->id);
		p_int(&p, h);
		p_str(&p, str(l, "direction") ? str(l, "direction") : "");
		p_int(&p, (long long)k + 1);
		p_str(&p, str(s, "rule") ? str(s, "rule") : "");
		p_json(&p, json_object_get(s, "subject"));
		p_json(&p, json_object_get(s, "fix"));
		p_real(&p, before > 0 ? round((after / before - 1) * 1000) /
		    10 : NAN);
		p_json(&p, json_object_get(s, "low_bytes_per_s"));
		p_json(&p, json_object_get(s, "expected_bytes_per_s"));
		p_json(&p, json_object_get(s, "high_bytes_per_s"));
		p_json(&p, json_object_get(s, "bottleneck_after"));
		rc = put(g, "INSERT INTO ladder_steps (bundle_id, host_index, "
		    "direction, step, rule, subject, action, gain_pct, "
		    "low_bytes_per_s, expected_bytes_per_s, high_bytes_per_s, "
		    "bottleneck_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, "
		    "$9, $10, $11, $12)", &p);
		before = after;
	}
	return rc;
}

static int
insert_rows(struct ing *g)
{
	json_t *o;
	size_t i;
	int rc = PD_DB_OK;

	json_array_foreach(json_object_get(g->report, "hosts"), i, o)
		if (rc == PD_DB_OK)
			rc = host_row(g, (long long)i, o);
	json_array_foreach(json_object_get(g->report, "members"), i, o)
		if (rc == PD_DB_OK)
			rc = member_row(g, (long long)i, o);
	json_array_foreach(json_object_get(g->report, "findings"), i, o)
		if (rc == PD_DB_OK)
			rc = finding_row(g, (long long)i, o);
	json_array_foreach(json_object_get(g->report, "ladders"), i, o)
		if (rc == PD_DB_OK)
			rc = ladder_rows(g, o);
	return rc;
}

static int
got_id(void *ctx, int nc, const char *const *v)
{
	char *out = ctx;

	if (nc > 0 && v[0])
		snprintf(out, 32, "%s", v[0]);
	return 0;
}

struct old {
	char id[32], at[32];
};

static int
got_old(void *ctx, int nc, const char *const *v)
{
	struct old *o = ctx;

	if (nc >= 2 && v[0] && v[1]) {
		snprintf(o->id, sizeof(o->id), "%s", v[0]);
		snprintf(o->at, sizeof(o->at), "%s", v[1]);
	}
	return 0;
}

static const char *const child_tables[] = {
	"facts", "ladder_steps", "findings", "members", "hosts",
};

/* The rows of the bundle stored before under the same key go; its
 * first ingest time is kept, so a rerun changes nothing. */
static int
remove_old(struct ing *g, struct old *o)
{
	const char *sha = str(g->line, "sha256"), *path = str(g->line, "bundle");
	const char *p[] = { sha ? sha : path };
	char sql[128];
	int rc = pd_db_run(g->db, sha ?
	    "SELECT id, ingested_at FROM bundles WHERE sha256 = $1" :
	    "SELECT id, ingested_at FROM bundles WHERE sha256 IS NULL AND "
	    "path = $1", 1, p, got_old, o);

	for (size_t i = 0; rc == PD_DB_OK && *o->id &&
	    i < sizeof(child_tables) / sizeof(*child_tables); i++) {
		const char *id[] = { o->id };

		snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE bundle_id = "
		    "$1", child_tables[i]);
		rc = pd_db_run(g->db, sql, 1, id, NULL, NULL);
	}
	if (rc == PD_DB_OK && *o->id) {
		const char *id[] = { o->id };

		rc = pd_db_run(g->db, "DELETE FROM bundles WHERE id = $1", 1,
		    id, NULL, NULL);
	}
	return rc;
}

static int
insert_bundle(struct ing *g, const char *at)
{
	struct params p = { 0 };

	p_json(&p, json_object_get(g->line, "sha256"));
	p_str(&p, str(g->line, "bundle"));
	p_json(&p, json_object_get(g->line, "bytes"));
	p_str(&p, at);
	p_json(&p, json_object_get(g->report, "generator"));
	p_json(&p, json_object_get(g->line, "exit"));
	p_json(&p, json_object_get(g->line, "error"));
	p_json(&p, json_object_get(g->report, "nothing_read"));
	*g->id = '\0';
	int rc = pd_db_run(g->db, "INSERT INTO bundles (sha256, path, bytes, "
	    "ingested_at, pathdoctor_version, exit_status, error, "
	    "nothing_read) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
	    "RETURNING id", p.n, p.v, got_id, g->id);

	if (rc == PD_DB_OK && !*g->id) {
		snprintf(g->db->err, sizeof(g->db->err), "no id returned");
		rc = PD_DB_ERR;
	}
	return rc;
}

static int
store_once(struct ing *g)
{
	struct old o = { "", "" };
	char now[32];
	time_t t = time(NULL);
	int rc = pd_db_begin(g->db);

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if (rc == PD_DB_OK)
		rc = remove_old(g, &o);
	if (rc == PD_DB_OK)
		rc = insert_bundle(g, *o.at ? o.at : now);
	if (rc == PD_DB_OK && g->report)
		rc = insert_rows(g);
	if (rc == PD_DB_OK)
		rc = pd_db_commit(g->db);
	if (rc != PD_DB_OK)
		pd_db_rollback(g->db);
	return rc;
}

/* What a line must hold before anything is written. */
static const char *
check_line(const json_t *j)
{
	const json_t *rep = json_object_get(j, "report");

	if (!json_is_object(j))
		return "not a JSON object";
	if (json_integer_value(json_object_get(j, "pathdoctor_jsonl")) != 1)
		return "no \"pathdoctor_jsonl\": 1";
	if (!str(j, "bundle"))
		return "no \"bundle\"";
	if (!json_is_integer(json_object_get(j, "exit")))
		return "no \"exit\"";
	if (rep && !json_is_object(rep))
		return "\"report\" is not an object";
	if (!rep && !str(j, "error"))
		return "neither \"report\" nor \"error\"";
	if (str(j, "sha256") && strlen(str(j, "sha256")) != 64)
		return "\"sha256\" is not 64 hex digits";
	return NULL;
}

int
pd_fleet_ingest_line(struct pd_db *db, const char *line, size_t len,
    char *err, size_t n)
{
	json_error_t je;
	struct ing g = { .db = db };
	const char *why;
	int rc = PD_DB_RETRY;

	if (!(g.line = json_loadb(line, len, 0, &je))) {
		snprintf(err, n, "not JSON: %s (column %d)", je.text, je.column);
		return PD_DB_ERR;
	}
	if ((why = check_line(g.line))) {
		snprintf(err, n, "%s", why);
		json_decref(g.line);
		return PD_DB_ERR;
	}
	g.report = json_object_get(g.line, "report");
	for (unsigned t = 1; rc == PD_DB_RETRY && t <= TRIES; t++) {
		if (t > 1)
			pd_db_backoff(t);
		rc = store_once(&g);
	}
	if (rc != PD_DB_OK)
		snprintf(err, n, "%s: %s", str(g.line, "bundle"), db->err);
	json_decref(g.line);
	return rc;
}

static int
found(void *ctx, int nc, const char *const *v)
{
	(void)nc;
	(void)v;
	*(bool *)ctx = true;
	return 1;
}

bool
pd_fleet_have(struct pd_db *db, const char *sha256)
{
	const char *p[] = { sha256 };
	bool have = false;

	return pd_db_run(db, "SELECT 1 FROM bundles WHERE sha256 = $1", 1, p,
	    found, &have) == PD_DB_OK && have;
}
