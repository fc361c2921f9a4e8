/* One bundle's JSON line (batch.h): hashed, read, reported as -f json
 * reports it, in the worker process that owns it. */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include "bundle/bundle.h"
#include "finalize/finalize.h"
#include "fleet/batch.h"
#include "fleet/hash.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "report/escape.h"
#include "report/json_parts.h"
#include "report/redact.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_BUNDLE = 3, EXIT_NOTHING = 4 };

/* The hash, as the bundle is or was read: stdin through the tee, which
 * must be set up before the analysis reads fd 0. */
struct hashing {
	bool is_stdin, tee_on, ok;
	struct pd_stdin_tee tee;
	struct pd_digest d;
	char err[256];
};

static void
hash_begin(struct hashing *h, const char *bundle, const struct pd_limits *lim)
{
	h->is_stdin = strcmp(bundle, "-") == 0;
	if (h->is_stdin)
		h->tee_on = pd_stdin_tee_start(&h->tee, h->err,
		    sizeof(h->err)) == 0;
	else
		h->ok = pd_hash_path(bundle, lim->max_members, &h->d, h->err,
		    sizeof(h->err)) == 0;
}

static void
hash_end(struct hashing *h)
{
	if (h->tee_on)
		h->ok = pd_stdin_tee_end(&h->tee, &h->d, h->err,
		    sizeof(h->err)) == 0;
}

static int
fail_on(const struct pd_batch_opts *o, const struct pd_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		if (o->fail_on != PD_LEVEL_OFF &&
		    pd_finding_level(fs->v[i]) >= o->fail_on)
			return EXIT_FINDINGS;
	return EXIT_CLEAN;
}

/* The line's head, in the contract's key order; report or error after. */
static json_t *
line_head(const char *bundle, const struct hashing *h, int exit)
{
	json_t *l = json_object();

	json_object_set_new(l, "pathdoctor_jsonl",
	    json_integer(PD_JSONL_VERSION));
	json_object_set_new(l, "bundle", pd_json_str(bundle));
	if (h->ok) {
		json_object_set_new(l, "sha256", json_string(h->d.hex));
		json_object_set_new(l, "bytes", json_integer(
		    (json_int_t)h->d.bytes));
	} else if (h->err[0]) {
		json_object_set_new(l, "hash_error", pd_json_str(h->err));
	}
	json_object_set_new(l, "exit", json_integer(exit));
	return l;
}

/* --redact-map FILE (one bundle): written once the line is. */
static int
redact_finish(const struct pd_batch_opts *o, const char *bundle, int rc)
{
	FILE *f;

	if (o->redact && pd_redact_overflow())
		fprintf(stderr, "pathdoctor: %s: --redact: the map is full (%d "
		    "values): %lu more occurrences masked as {redacted}\n",
		    bundle, PD_REDACT_MAX, pd_redact_overflow());
	if (!o->redact_map)
		return rc;
	if (!(f = fopen(o->redact_map, "w")) ||
	    (pd_redact_write_map(f) | fclose(f)) != 0) {
		perror(o->redact_map);
		return EXIT_BUNDLE;
	}
	return rc;
}

int
pd_batch_line(const struct pd_batch_opts *o, const char *bundle, FILE *out)
{
	struct pd_model *m = pd_model_new();
	struct pd_findings fs;
	struct pd_coverage cov;
	struct pd_report r;
	struct hashing h = { 0 };
	char err[512];
	json_t *line;
	int rc = EXIT_CLEAN;

	pd_findings_init(&fs, pd_model_arena(m));
	if (o->redact)
		pd_redact_enable();
	hash_begin(&h, bundle, o->lim);
	/* known before the analysis: the parent keeps it for the line it
	 * writes should this worker crash */
	if (h.ok) {
		fprintf(out, "%s %s %" PRIu64 "\n", PD_BATCH_HASH_HEAD,
		    h.d.hex, h.d.bytes);
		fflush(out);	/* a failure shows when the line is written */
	}
	int got = pd_bundle_read(bundle, o->lim, m, &cov, err, sizeof(err));

	hash_end(&h);
	if (got != 0) {
		line = line_head(bundle, &h, EXIT_BUNDLE);
		json_object_set_new(line, "error", pd_json_str(err));
		rc = EXIT_BUNDLE;
		goto write;
	}
	pd_model_finalize(m);
	if (o->redact)
		pd_redact_model(m);
	pd_report_build_min(&r, bundle, m, &cov, &fs, o->rules, o->min_level);
	rc = r.nothing_read ? EXIT_NOTHING : fail_on(o, &fs);
	line = line_head(bundle, &h, rc);
	json_object_set_new(line, "report", pd_json_report(&r));
write:
	if (pd_json_write_line(line, out) != 0)
		rc = EXIT_BUNDLE;
	rc = redact_finish(o, bundle, rc);
	pd_findings_release(&fs);
	pd_model_free(m);
	return rc;
}
