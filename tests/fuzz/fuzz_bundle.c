/* libFuzzer target: one input is a whole bundle (tar, zip, compressed,
 * nested, or a lone file) through the walker, with small caps. */
#include "fuzz_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_model *m = pd_model_new();
	struct pd_coverage cov;
	struct pd_limits lim;
	char err[256];

	fuzz_limits(&lim);
	if (pd_bundle_read_memory(data, size, "fuzz.tgz", &lim, m, &cov, err,
	    sizeof(err)) == 0)
		fuzz_analyse_and_render(m, &cov);
	pd_model_free(m);
	return 0;
}
