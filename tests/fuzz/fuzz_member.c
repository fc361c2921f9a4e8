/* libFuzzer target: one input is one member, identified and parsed by
 * whichever reader wins; the first byte picks a path hint. */
#include <string.h>
#include "fuzz_common.h"
#include "pathdoctor/arena.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "h/lspci-vv.txt",
		"h/lspci-tv.txt", "h/cmdline", "h/uname", "h/cpuinfo",
		"h/lscpu", "h/ethtool-S/eth0@1764000000.txt",
		"h/ethtool-i/eth0.txt", "h/ethtool-k/eth0", "h/ethtool-a/eth0",
		"h/ethtool/eth0", "h/ip-link.txt", "h/sysctl.txt",
		"h/member" };
	const size_t n = sizeof(names) / sizeof(names[0]);
	const char *name = names[size ? data[0] % n : n - 1];
	struct pd_model *m = pd_model_new();
	struct pd_coverage cov;

	memset(&cov, 0, sizeof(cov));
	pd_diag_init(&cov.bundle, pd_model_arena(m), "fuzz");
	struct pd_member_result *r = pd_arena_alloc(pd_model_arena(m),
	    sizeof(*r));

	r->path = name;
	pd_diag_init(&r->diag, pd_model_arena(m), name);
	r->format = pd_member_parse_buffer(m, name, data, size, &r->diag);
	pd_diag_finish(&r->diag);
	cov.members = r;
	cov.n_members = 1;
	fuzz_analyse_and_render(m, &cov);
	pd_model_free(m);
	return 0;
}
