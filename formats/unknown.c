/* "unknown": the fallback for members no reader recognises. */
#include <stddef.h>
#include "pathdoctor/format.h"

static int
bid_unknown(const struct pd_member *m)
{
	(void)m;
	return 1;
}

const struct pd_format pd_format_unknown = {
	.name = "unknown",
	.summary = "anything no reader recognises (listed, not analysed)",
	.command = "-",
	.bid = bid_unknown,
};
