/* Shared by the fuzz harnesses: analyse a model and render every
 * format, so rules and renderers see what the readers produced. */
#ifndef PD_FUZZ_COMMON_H
#define PD_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bundle/bundle.h"
#include "finalize/finalize.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "report/dump.h"
#include "report/wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Small caps, so that one input cannot take a fuzzer's memory. */
static inline void
fuzz_limits(struct pd_limits *lim)
{
	pd_limits_default(lim);
	lim->max_members = 256;
	lim->max_total = 64u << 20;
	lim->max_spool = 16u << 20;
	lim->max_line = 64u << 10;
}

/* What every output promises whatever the bundle held (escape.h): no
 * control byte but newline and tab.  Aborts otherwise. */
static inline void
fuzz_check_text(char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
			fprintf(stderr, "raw control byte 0x%02x at %zu\n", c, i);
			abort();
		}
	}
	free(buf);
}

static inline void
fuzz_analyse_and_render(struct pd_model *m, struct pd_coverage *cov)
{
	struct pd_findings fs;
	struct pd_report r;
	char *buf;
	size_t n;
	FILE *out;

	pd_model_finalize(m);
	pd_findings_init(&fs, pd_model_arena(m));
	pd_report_build(&r, "fuzz", m, cov, &fs, NULL);
	for (const struct pd_renderer *const *ren = pd_renderers; *ren; ren++)
		if ((out = open_memstream(&buf, &n))) {
			(*ren)->render(&r, out);
			fclose(out);
			fuzz_check_text(buf, n);
		}
	/* the terminal view again at its narrowest, where it folds most */
	r.width = PD_WIDTH_MIN;
	if ((out = open_memstream(&buf, &n))) {
		pd_renderer_find("term")->render(&r, out);
		fclose(out);
		fuzz_check_text(buf, n);
	}
	if ((out = open_memstream(&buf, &n))) {
		pd_model_dump(m, out);
		fclose(out);
		fuzz_check_text(buf, n);
	}
	pd_findings_release(&fs);
}

/* One member (reader f, or identified when NULL) through parse, rules
 * and every renderer. */
static inline void
fuzz_one_member(const struct pd_format *f, const char *path,
    const uint8_t *data, size_t size)
{
	struct pd_model *m = pd_model_new();
	struct pd_coverage cov;

	memset(&cov, 0, sizeof(cov));
	pd_diag_init(&cov.bundle, pd_model_arena(m), "fuzz");
	struct pd_member_result *r = pd_arena_alloc(pd_model_arena(m),
	    sizeof(*r));

	r->path = path;
	pd_diag_init(&r->diag, pd_model_arena(m), path);
	r->format = pd_member_parse_as(m, f, path, data, size, &r->diag);
	pd_diag_finish(&r->diag);
	cov.members = r;
	cov.n_members = 1;
	fuzz_analyse_and_render(m, &cov);
	pd_model_free(m);
}

#endif
