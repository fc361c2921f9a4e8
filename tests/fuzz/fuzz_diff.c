/* libFuzzer target: pathdoctor diff.  An input holding the marker
 * "\n--pathdoctor-diff-after--\n" is two bundles, BEFORE and AFTER,
 * diffed both ways; any input is also diffed with itself, which must
 * give no change and no resolved or new finding (reading is
 * deterministic).  Every diff output is checked for raw control bytes. */
#include "fuzz_common.h"
#include "pathdoctor/diff.h"

#define MARKER "\n--pathdoctor-diff-after--\n"

struct side {
	struct pd_model *m;
	struct pd_coverage cov;
	struct pd_findings fs;
	struct pd_report r;
	bool ok;
};

static void
side_read(struct side *s, const uint8_t *data, size_t size)
{
	struct pd_limits lim;
	char err[256];

	fuzz_limits(&lim);
	s->m = pd_model_new();
	pd_findings_init(&s->fs, pd_model_arena(s->m));
	s->ok = pd_bundle_read_memory(data, size, "fuzz.tgz", &lim, s->m,
	    &s->cov, err, sizeof(err)) == 0;
	if (!s->ok)
		return;
	pd_model_finalize(s->m);
	pd_report_build(&s->r, "fuzz", s->m, &s->cov, &s->fs, NULL);
}

static void
side_free(struct side *s)
{
	pd_findings_release(&s->fs);
	pd_model_free(s->m);
}

static void
diff_render(const struct side *b, const struct side *a, bool self)
{
	struct pd_diff d;
	char *buf;
	size_t n;
	FILE *out;

	pd_diff_build(&d, &b->r, &a->r, pd_model_arena(a->m));
	for (const struct pd_diff_host *dh = d.hosts; self && dh; dh = dh->next)
		if (dh->n_changes || dh->n_resolved || dh->n_new ||
		    dh->matched_by == PD_MATCH_ONLY_BEFORE ||
		    dh->matched_by == PD_MATCH_ONLY_AFTER) {
			fprintf(stderr, "a bundle diffed with itself: %u changes, "
			    "%u resolved, %u new, matched by %s\n", dh->n_changes,
			    dh->n_resolved, dh->n_new,
			    pd_diff_match_name(dh->matched_by));
			abort();
		}
	for (const struct pd_diff_renderer *const *r = pd_diff_renderers; *r;
	    r++)
		if ((out = open_memstream(&buf, &n))) {
			(*r)->render(&d, out);
			fclose(out);
			fuzz_check_text(buf, n);
		}
}

static void
pair(const uint8_t *x, size_t nx, const uint8_t *y, size_t ny, bool self)
{
	struct side b, a;

	side_read(&b, x, nx);
	side_read(&a, y, ny);
	if (b.ok && a.ok) {
		diff_render(&b, &a, self);
		if (!self)
			diff_render(&a, &b, false);
	}
	side_free(&b);
	side_free(&a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t ml = sizeof(MARKER) - 1;

	for (size_t i = 0; i + ml <= size; i++)
		if (memcmp(data + i, MARKER, ml) == 0) {
			pair(data, i, data + i + ml, size - i - ml, false);
			return 0;
		}
	pair(data, size, data, size, true);
	return 0;
}
