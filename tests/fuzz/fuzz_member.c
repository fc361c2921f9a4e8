/* libFuzzer target: one input is one member, identified and parsed by
 * whichever reader wins; the first byte picks a path hint. */
#include "fuzz_common.h"

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

	fuzz_one_member(NULL, name, data, size);
	return 0;
}
