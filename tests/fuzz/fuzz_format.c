/* libFuzzer target: the first byte picks a reader, which parses the rest
 * whatever its bid, so every reader sees every kind of damage. */
#include "fuzz_common.h"
#include "pathdoctor/format.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = 0;

	for (const struct pd_format *const *f = pd_formats; *f; f++)
		n++;
	if (size == 0 || n == 0)
		return 0;
	fuzz_one_member(pd_formats[data[0] % n],
	    "h/ethtool-S/eth0@1764000000.txt", data + 1, size - 1);
	return 0;
}
