/* Shared by the fuzz harnesses: analyse a model and render every
 * format, so rules and renderers see what the readers produced. */
#ifndef PD_FUZZ_COMMON_H
#define PD_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include "pathdoctor/bundle.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void
fuzz_analyse_and_render(struct pd_model *m, struct pd_coverage *cov)
{
	static const struct pd_renderer *const rs[] = { &pd_render_md,
		&pd_render_json, &pd_render_term };
	struct pd_findings fs;
	FILE *null = fopen("/dev/null", "w");

	pd_model_finalize(m);
	pd_findings_init(&fs, pd_model_arena(m));
	struct pd_report r = { .bundle = "fuzz", .model = m, .findings = &fs,
		.coverage = cov, .not_evaluated = pd_engine_run(m, &fs, NULL) };

	if (null) {
		for (size_t i = 0; i < 3; i++)
			rs[i]->render(&r, null);
		pd_model_dump(m, null);
		fclose(null);
	}
	pd_findings_release(&fs);
}

#endif
