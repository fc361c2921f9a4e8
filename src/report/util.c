/* Text shared by the renderers: numbers, names, a capture's counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/model.h"
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

const char *
pd_base_name(struct pd_arena *a, const char *path)
{
	size_t n = strlen(path);

	if (strcmp(path, "-") == 0)
		return "stdin";
	while (n > 1 && path[n - 1] == '/')
		n--;
	size_t b = n;

	while (b > 0 && path[b - 1] != '/')
		b--;
	return pd_arena_strndup(a, path + b, n - b);
}

const char *
pd_capture_filter_counts(struct pd_arena *a, const struct pd_capture *c)
{
	if (!c->filter)
		return NULL;
	return pd_arena_printf(a, "%llu of %llu packets matched",
	    (unsigned long long)c->packets,
	    (unsigned long long)c->packets_read);
}

const char *
pd_capture_line(struct pd_arena *a, const struct pd_capture *c)
{
	return pd_arena_printf(a, "%llu packets, %llu TCP segments, %llu "
	    "payload bytes in %.3f s; %llu retransmitted, %llu lost before the "
	    "capture point (IP ID gaps), %llu stall%s over 200 ms (%.3f s in "
	    "all), %llu super-packets", (unsigned long long)c->packets,
	    (unsigned long long)c->tcp_segments,
	    (unsigned long long)c->tcp_payload_bytes, c->duration,
	    (unsigned long long)c->retrans_segs,
	    (unsigned long long)c->unseen_segs,
	    (unsigned long long)c->n_stall_events,
	    c->n_stall_events == 1 ? "" : "s", c->stall_time,
	    (unsigned long long)c->super_segs);
}
