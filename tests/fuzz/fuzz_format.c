/* libFuzzer target: the first byte picks a reader, which parses the rest
 * whatever its bid, so every reader sees every kind of damage. */
#include <string.h>
#include "fuzz_common.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/format.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = 0;

	for (const struct pd_format *const *f = pd_formats; *f; f++)
		n++;
	if (size == 0 || n == 0)
		return 0;
	const struct pd_format *f = pd_formats[data[0] % n];
	struct pd_model *m = pd_model_new();
	struct pd_coverage cov;
	const char *path = "h/ethtool-S/eth0@1764000000.txt";

	memset(&cov, 0, sizeof(cov));
	pd_diag_init(&cov.bundle, pd_model_arena(m), "fuzz");
	struct pd_member_result *r = pd_arena_alloc(pd_model_arena(m),
	    sizeof(*r));

	r->path = path;
	pd_diag_init(&r->diag, pd_model_arena(m), path);
	r->format = pd_member_parse_as(m, f, path, data + 1, size - 1,
	    &r->diag);
	pd_diag_finish(&r->diag);
	cov.members = r;
	cov.n_members = 1;
	fuzz_analyse_and_render(m, &cov);
	pd_model_free(m);
	return 0;
}
