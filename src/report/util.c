/* Number formatting shared by the renderers. */
#include <stdio.h>
#include <stdlib.h>
#include "pathdoctor/report.h"

void
pd_fmt_tenths(char *buf, size_t n, int tenths)
{
	snprintf(buf, n, "%s%d.%d", tenths < 0 ? "-" : "", abs(tenths) / 10,
	    abs(tenths) % 10);
}

void
pd_fmt_gain(char *buf, size_t n, int lo, int hi)
{
	char a[32], b[32];

	pd_fmt_tenths(a, sizeof(a), lo);
	pd_fmt_tenths(b, sizeof(b), hi);
	if (lo == hi)
		snprintf(buf, n, "%s%s %%", lo >= 0 ? "+" : "", a);
	else
		snprintf(buf, n, "%s%s to %s%s %%", lo >= 0 ? "+" : "", a,
		    hi >= 0 ? "+" : "", b);
}

bool
pd_same_needs(const struct pd_not_evaluated *a,
    const struct pd_not_evaluated *b)
{
	return b && a->host == b->host && a->missing == b->missing &&
	    a->n_gaps == b->n_gaps;
}
