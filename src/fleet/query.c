/* The named reports: each a SELECT over the schema, its filters bound
 * as parameters, its rows printed as md, json or term. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fleet/query.h"
#include "pathdoctor/arena.h"
#include "report/escape.h"

#define MAX_COLS 8

struct report {
	const char *name, *help;
	const char *cols[MAX_COLS];
	const char *types;		/* per column: s text, i integer,
					 * r real (one decimal) */
	/* the rows: findings f (bundles b, hosts h) or hosts h */
	const char *select, *from, *group, *order;
	bool on_findings, needs_rule;
};

static const char findings_from[] =
    " FROM findings f JOIN bundles b ON b.id = f.bundle_id"
    " LEFT JOIN hosts h ON h.bundle_id = f.bundle_id"
    " AND h.host_index = f.host_index";
static const char hosts_from[] =
    " FROM hosts h JOIN bundles b ON b.id = h.bundle_id";
#define GAIN_MID "(COALESCE(f.gain_low_pct, 0) + " \
    "COALESCE(f.gain_high_pct, 0)) / 2"
#define HOST_KEY "CAST(f.bundle_id AS TEXT) || '/' || " \
    "CAST(f.host_index AS TEXT)"

static const struct report reports[] = {
	{ "top-rules", "rules by how many findings they gave",
	    { "rule", "findings", "hosts", "total_gain_pct" }, "siir",
	    "f.rule, COUNT(*), COUNT(DISTINCT " HOST_KEY "), SUM(" GAIN_MID
	    ")", findings_from, " GROUP BY f.rule", " ORDER BY 2 DESC, 1",
	    true, false },
	{ "top-gain", "rules by the total expected gain waiting (the sum of "
	    "each finding's gain midpoint, in %)",
	    { "rule", "findings", "hosts", "total_gain_pct" }, "siir",
	    "f.rule, COUNT(*), COUNT(DISTINCT " HOST_KEY "), SUM(" GAIN_MID
	    ")", findings_from, " GROUP BY f.rule", " ORDER BY 4 DESC, 1",
	    true, false },
	{ "hosts-by-rule", "the hosts a rule (--rule) fired on, with the "
	    "finding",
	    { "bundle", "host", "model", "subject", "level", "gain_pct",
	    "ingested_at" }, "sssssrs",
	    "b.path, h.name, h.model, f.subject, f.level, " GAIN_MID
	    ", b.ingested_at", findings_from, "",
	    " ORDER BY 1, 2, f.rank", true, true },
	{ "hosts", "hosts, filtered by --model, --driver, --firmware and "
	    "--rule (a finding of that rule)",
	    { "bundle", "host", "model", "kernel", "iommu_mode", "findings" },
	    "sssssi",
	    "b.path, h.name, h.model, h.kernel, h.iommu_mode, (SELECT "
	    "COUNT(*) FROM findings x WHERE x.bundle_id = h.bundle_id AND "
	    "x.host_index = h.host_index)", hosts_from, "",
	    " ORDER BY 1, h.host_index", false, false },
	{ "trend", "findings per ingest day and rule",
	    { "day", "rule", "findings", "hosts" }, "ssii",
	    "SUBSTR(b.ingested_at, 1, 10), f.rule, COUNT(*), COUNT(DISTINCT "
	    HOST_KEY ")", findings_from,
	    " GROUP BY SUBSTR(b.ingested_at, 1, 10), f.rule",
	    " ORDER BY 1, 3 DESC, 2", true, false },
};

void
pd_fleet_query_list(FILE *out)
{
	for (size_t i = 0; i < sizeof(reports) / sizeof(*reports); i++)
		fprintf(out, "%-14s %s\n", reports[i].name, reports[i].help);
}

struct sql {
	char text[4096];
	const char *p[8];
	int n;
};

static void
cat(struct sql *q, const char *s)
{
	size_t k = strlen(q->text);

	snprintf(q->text + k, sizeof(q->text) - k, "%s", s);
}

/* " AND " followed by fmt, whose %d is the next parameter's number */
static void
filter(struct sql *q, const char *fmt, const char *value)
{
	char buf[512];

	if (!value || q->n >= 8)
		return;
	q->p[q->n++] = value;
	snprintf(buf, sizeof(buf), fmt, q->n, q->n);
	cat(q, " AND ");
	cat(q, buf);
}

/* The host of the row: f's on a findings report, h's otherwise. */
static void
filters(struct sql *q, const struct report *r, const struct pd_fleet_filter *f)
{
	const char *host = r->on_findings ? "f" : "h";
	char buf[512];

	cat(q, " WHERE 1 = 1");
	filter(q, "b.ingested_at >= $%d", f->since);
	if (r->on_findings)
		filter(q, "f.rule = $%d", f->rule);
	else
		filter(q, "EXISTS (SELECT 1 FROM findings x WHERE x.bundle_id "
		    "= h.bundle_id AND x.host_index = h.host_index AND x.rule "
		    "= $%d)", f->rule);
	filter(q, "LOWER(h.model) LIKE '%%' || LOWER(CAST($%d AS TEXT)) || "
	    "'%%'", f->model);
	snprintf(buf, sizeof(buf), "EXISTS (SELECT 1 FROM facts d WHERE "
	    "d.bundle_id = %s.bundle_id AND d.host_index = %s.host_index AND "
	    "d.kind = 'driver' AND d.key = '%%s' AND d.value = $%%%%d)", host,
	    host);
	char drv[600], fw[600];

	snprintf(drv, sizeof(drv), buf, "driver");
	snprintf(fw, sizeof(fw), buf, "firmware");
	filter(q, drv, f->driver);
	filter(q, fw, f->firmware);
}

struct table {
	const struct report *r;
	int ncols;
	char **cells;			/* nrows x ncols, NULL for NULL */
	size_t nrows, cap;
};

static int
collect(void *ctx, int nc, const char *const *v)
{
	struct table *t = ctx;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char **c = realloc(t->cells, cap * (size_t)t->ncols *
		    sizeof(*c));

		if (!c)
			return 1;
		t->cells = c;
		t->cap = cap;
	}
	for (int i = 0; i < t->ncols; i++) {
		const char *s = i < nc ? v[i] : NULL;

		t->cells[t->nrows * (size_t)t->ncols + (size_t)i] = s ?
		    strdup(s) : NULL;
	}
	t->nrows++;
	return 0;
}

/* A cell as printed: reals with one decimal, NULL as "". */
static const char *
cell(const struct table *t, size_t row, int col, char *buf, size_t n)
{
	const char *s = t->cells[row * (size_t)t->ncols + (size_t)col];

	if (!s)
		return "";
	if (t->r->types[col] == 'r') {
		snprintf(buf, n, "%.1f", strtod(s, NULL));
		return buf;
	}
	return s;
}

/* The text cells escaped for md or term (src/report/escape.h): host
 * names, paths and titles come from the bundles.  0, or -1 out of
 * memory. */
static int
escape_cells(struct table *t, const char *(*esc)(struct pd_arena *,
    const char *))
{
	struct pd_arena *a = pd_arena_new();
	int rc = 0;

	for (size_t i = 0; i < t->nrows && rc == 0; i++)
		for (int c = 0; c < t->ncols && rc == 0; c++) {
			char **s = &t->cells[i * (size_t)t->ncols + (size_t)c];

			if (!*s || strchr("ir", t->r->types[c]))
				continue;
			char *e = strdup(esc(a, *s));

			if (!e)
				rc = -1;
			else {
				free(*s);
				*s = e;
			}
		}
	pd_arena_free(a);
	return rc;
}

static void
render_md(const struct table *t, FILE *out)
{
	char buf[64];

	for (int c = 0; c < t->ncols; c++)
		fprintf(out, "| %s ", t->r->cols[c]);
	fprintf(out, "|\n");
	for (int c = 0; c < t->ncols; c++)
		fprintf(out, "|%s", strchr("ir", t->r->types[c]) ? "---:" :
		    "---");
	fprintf(out, "|\n");
	for (size_t i = 0; i < t->nrows; i++) {
		for (int c = 0; c < t->ncols; c++) {
			fprintf(out, "| %s ", cell(t, i, c, buf, sizeof(buf)));
		}
		fprintf(out, "|\n");
	}
}

static void
render_term(const struct table *t, FILE *out)
{
	int w[MAX_COLS];
	char buf[64];

	for (int c = 0; c < t->ncols; c++) {
		w[c] = (int)strlen(t->r->cols[c]);
		for (size_t i = 0; i < t->nrows; i++) {
			int k = (int)strlen(cell(t, i, c, buf, sizeof(buf)));

			w[c] = k > w[c] ? k : w[c];
		}
	}
	for (int c = 0; c < t->ncols; c++)
		fprintf(out, "%s%-*s", c ? "  " : "", w[c], t->r->cols[c]);
	fprintf(out, "\n");
	for (size_t i = 0; i < t->nrows; i++) {
		for (int c = 0; c < t->ncols; c++)
			fprintf(out, strchr("ir", t->r->types[c]) ? "%s%*s" :
			    "%s%-*s", c ? "  " : "", w[c],
			    cell(t, i, c, buf, sizeof(buf)));
		fprintf(out, "\n");
	}
}

static int
render_json(const struct table *t, FILE *out)
{
	json_t *a = json_array();

	for (size_t i = 0; i < t->nrows; i++) {
		json_t *o = json_object();

		for (int c = 0; c < t->ncols; c++) {
			const char *s = t->cells[i * (size_t)t->ncols +
			    (size_t)c];
			char ty = t->r->types[c];

			json_object_set_new(o, t->r->cols[c], !s ? json_null() :
			    ty == 'i' ? json_integer(strtoll(s, NULL, 10)) :
			    ty == 'r' ? json_real(
			    (double)llround(strtod(s, NULL) * 10) / 10) :
			    json_string(s));
		}
		json_array_append_new(a, o);
	}
	int rc = json_dumpf(a, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12));

	fprintf(out, "\n");
	json_decref(a);
	return rc;
}

static const struct report *
find(const char *name)
{
	for (size_t i = 0; i < sizeof(reports) / sizeof(*reports); i++)
		if (strcmp(reports[i].name, name) == 0)
			return &reports[i];
	return NULL;
}

int
pd_fleet_query(struct pd_db *db, const char *name,
    const struct pd_fleet_filter *f, const char *format, FILE *out)
{
	const struct report *r = find(name);
	struct sql q = { "SELECT ", { 0 }, 0 };
	struct table t = { .r = r };
	char lim[32];

	if (!r) {
		fprintf(stderr, "pathdoctor: query: no report '%s' (see query "
		    "--list)\n", name);
		return PD_FLEET_USAGE;
	}
	if (r->needs_rule && !f->rule) {
		fprintf(stderr, "pathdoctor: query %s: --rule ID needed\n", name);
		return PD_FLEET_USAGE;
	}
	while (t.ncols < MAX_COLS && r->cols[t.ncols])
		t.ncols++;
	cat(&q, r->select);
	cat(&q, r->from);
	filters(&q, r, f);
	cat(&q, r->group);
	cat(&q, r->order);
	snprintf(lim, sizeof(lim), " LIMIT %ld", f->limit);
	cat(&q, lim);
	int rc = pd_db_run(db, q.text, q.n, q.p, collect, &t);

	if (rc == PD_DB_OK) {
		if (strcmp(format, "json") == 0)
			rc = render_json(&t, out) == 0 ? PD_DB_OK : PD_DB_ERR;
		else if (escape_cells(&t, strcmp(format, "term") == 0 ?
		    pd_term_text : pd_md_text) != 0)
			rc = PD_DB_ERR;
		else if (strcmp(format, "term") == 0)
			render_term(&t, out);
		else
			render_md(&t, out);
	}
	for (size_t i = 0; i < t.nrows * (size_t)t.ncols; i++)
		free(t.cells[i]);
	free(t.cells);
	return rc;
}

/* The dump's tables: their columns after the bundle key. */
static const char *const dump_sql[] = {
	"SELECT 'bundles', " "BKEY" ", b.path, b.bytes, b.pathdoctor_version, "
	"b.exit_status, b.error, b.nothing_read FROM bundles b",
	"SELECT 'hosts', " "BKEY" ", t.host_index, t.name, t.path, t.model, "
	"t.arch, t.kernel, t.cpus, t.cpu, t.iommu_mode FROM hosts t",
	"SELECT 'members', " "BKEY" ", t.member_index, t.host_index, t.path, "
	"t.format, t.status, t.notes FROM members t",
	"SELECT 'findings', " "BKEY" ", t.rank, t.host_index, t.rule, "
	"t.level, t.title, t.subject, t.gain_low_pct, t.gain_high_pct, "
	"t.gain_basis, t.confidence, t.ladder_step, t.fix FROM findings t",
	"SELECT 'ladder_steps', " "BKEY" ", t.host_index, t.direction, "
	"t.step, t.rule, t.subject, t.action, t.gain_pct, t.low_bytes_per_s, "
	"t.expected_bytes_per_s, t.high_bytes_per_s, t.bottleneck_after "
	"FROM ladder_steps t",
	"SELECT 'facts', " "BKEY" ", t.host_index, t.kind, t.subject, t.key, "
	"t.value FROM facts t",
};

/* A value the two databases print alike: reals through one format,
 * tabs and newlines escaped so that a row stays one line. */
static void
dump_value(FILE *out, const char *s)
{
	char *end;
	double d;

	if (!s) {
		fputs("\\N", out);
		return;
	}
	d = strtod(s, &end);
	if (*s && !*end && strpbrk(s, ".eE") && isfinite(d)) {
		fprintf(out, "%.12g", d);
		return;
	}
	for (; *s; s++)
		fputs(*s == '\t' ? "\\t" : *s == '\n' ? "\\n" :
		    *s == '\\' ? "\\\\" : (char[]){ *s, 0 }, out);
}

static int
dump_row(void *ctx, int nc, const char *const *v)
{
	FILE *out = ctx;

	for (int i = 0; i < nc; i++) {
		if (i)
			fputc('\t', out);
		dump_value(out, v[i]);
	}
	fputc('\n', out);
	return 0;
}

int
pd_fleet_dump(struct pd_db *db, FILE *out)
{
	int rc = PD_DB_OK;

	for (size_t i = 0; rc == PD_DB_OK &&
	    i < sizeof(dump_sql) / sizeof(*dump_sql); i++) {
		char sql[1024];
		const char *s = dump_sql[i], *k = strstr(s, "BKEY");

		/* the children's bundle key through a join on their id */
		snprintf(sql, sizeof(sql), "%.*sCOALESCE(b.sha256, 'path:' || "
		    "b.path)%s%s", (int)(k - s), s, k + 4, i ? " JOIN bundles "
		    "b ON b.id = t.bundle_id" : "");
		rc = pd_db_run(db, sql, 0, NULL, dump_row, out);
	}
	return rc;
}
