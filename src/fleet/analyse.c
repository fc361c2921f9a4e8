/* The in-process producer of JSON lines, built on the same load,
 * report and JSON renderer as `pathdoctor -f json BUNDLE`, so that a
 * line made here and one from -f jsonl hold the same report. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bundle/bundle.h"
#include "finalize/finalize.h"
#include "fleet/analyse.h"
#include "fleet/hash.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "report/escape.h"

enum { EXIT_CLEAN = 0, EXIT_BUNDLE = 3, EXIT_NOTHING = 4 };

/* The report as -f json writes it, parsed back: the line embeds it
 * compact.  NULL with err set when it could not be made. */
static json_t *
report_json(const char *bundle, const struct pd_limits *lim, int *exit_rc,
    char *err, size_t n)
{
	struct pd_model *m = pd_model_new();
	struct pd_findings fs;
	struct pd_coverage cov;
	struct pd_report r;
	json_t *j = NULL;
	char *buf = NULL, e[512];
	size_t len = 0;
	FILE *mem;

	pd_findings_init(&fs, pd_model_arena(m));
	*exit_rc = EXIT_BUNDLE;
	if (pd_bundle_read(bundle, lim, m, &cov, e, sizeof(e)) != 0) {
		snprintf(err, n, "%s", pd_term_text(pd_model_arena(m), e));
		goto out;
	}
	pd_model_finalize(m);
	pd_report_build_min(&r, bundle, m, &cov, &fs, NULL, -1);
	if (!(mem = open_memstream(&buf, &len))) {
		snprintf(err, n, "out of memory");
		goto out;
	}
	int wrc = pd_renderer_find("json")->render(&r, mem);

	if ((fclose(mem) | wrc) != 0 || !(j = json_loadb(buf, len, 0, NULL)))
		snprintf(err, n, "writing the report failed");
	else
		*exit_rc = r.nothing_read ? EXIT_NOTHING : EXIT_CLEAN;
out:
	free(buf);
	pd_findings_release(&fs);
	pd_model_free(m);
	return j;
}

int
pd_fleet_analyse(const char *bundle, const struct pd_limits *lim,
    pd_fleet_skip_fn skip, pd_fleet_line_fn line, void *ctx)
{
	char hex[PD_SHA256_HEX], err[1024] = "";
	uint64_t bytes = 0;
	int exit_rc = EXIT_BUNDLE, rc;
	bool hashed = pd_fleet_hash(bundle, hex, &bytes, err, sizeof(err)) == 0;

	if (hashed && skip && skip(ctx, hex))
		return 0;
	json_t *o = json_object(), *rep = hashed ?
	    report_json(bundle, lim, &exit_rc, err, sizeof(err)) : NULL;

	json_object_set_new(o, "pathdoctor_jsonl", json_integer(1));
	json_object_set_new(o, "bundle", json_string(bundle));
	if (hashed) {
		json_object_set_new(o, "sha256", json_string(hex));
		json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
	}
	json_object_set_new(o, "exit", json_integer(exit_rc));
	if (rep)
		json_object_set_new(o, "report", rep);
	else
		json_object_set_new(o, "error", json_string(err));
	char *s = json_dumps(o, JSON_COMPACT);

	json_decref(o);
	if (!s)
		return -1;
	rc = line(ctx, s, strlen(s));
	free(s);
	return rc;
}
