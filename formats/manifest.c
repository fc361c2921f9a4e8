/* "manifest": pathdoctor-collect's record of what it ran and what it
 * could not gather.  After the "# pathdoctor-collect manifest 1" line,
 * tab-separated records:
 *   collector NAME VERSION | host H | root yes|no | started/finished T
 *   run  EXIT SECONDS FORMAT PATH COMMAND   (EXIT "-" for background)
 *   skip FORMAT PATH REASON
 *   tool NAME VERSION
 *   workload EXIT SECONDS STDOUT STDERR COMMAND   (--during; EXIT a
 *            number or "stopped"; COMMAND with \\, \t, \n, \r escaped)
 * Skips, and runs that failed, become the host's gaps, which reports show
 * beside the rules they kept from being evaluated. */
#include <stdbool.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define MAGIC "# pathdoctor-collect manifest 1"
#define FIELDS 6

static int
bid_manifest(const struct pd_member *m)
{
	size_t n = strlen(MAGIC);

	if (m->head_len >= n && memcmp(m->head, MAGIC, n) == 0)
		return 8 * (int)n > 128 ? 128 : 8 * (int)n;
	return 0;
}

/* Splits line at tabs into at most FIELDS parts (the last keeps the
 * rest); returns how many. */
static unsigned
split_tabs(struct pd_arena *a, const char *line, const char *f[FIELDS])
{
	unsigned n = 0;

	while (n < FIELDS - 1) {
		const char *t = strchr(line, '\t');

		if (!t)
			break;
		f[n++] = pd_arena_strndup(a, line, (size_t)(t - line));
		line = t + 1;
	}
	f[n++] = pd_arena_strdup(a, line);
	return n;
}

static void
gap(struct pd_host *h, struct pd_arena *a, const char *format,
    const char *path, const char *reason)
{
	struct pd_collect_gap **pp = &h->gaps, *g;

	while (*pp)
		pp = &(*pp)->next;
	g = pd_arena_alloc(a, sizeof(*g));
	g->format = format;
	g->path = path;
	g->reason = reason;
	*pp = g;
}

/* COMMAND with the collector's escapes undone: \\ \t \n \r; any
 * other backslash stays as it is. */
static const char *
unescape(struct pd_arena *a, const char *s)
{
	size_t n = strlen(s), k = 0;
	char *o = pd_arena_alloc(a, n + 1);

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\\' && i + 1 < n) {
			const char *from = "\\tnr", *to = "\\\t\n\r";
			const char *e = strchr(from, s[i + 1]);

			if (e) {
				c = to[e - from];
				i++;
			}
		}
		o[k++] = c;
	}
	o[k] = '\0';
	return o;
}

/* A number of at most 9 digits, or -1. */
static long
small_number(const char *s)
{
	long v = 0;
	size_t n = strlen(s);

	if (n == 0 || n > 9 || strspn(s, "0123456789") != n)
		return -1;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* "workload EXIT SECONDS STDOUT STDERR COMMAND"; false when malformed. */
static bool
workload(struct pd_host *h, struct pd_diag *d, const char *f[FIELDS])
{
	struct pd_arena *a = d->arena;
	struct pd_workload_run *w;
	bool stopped = strcmp(f[1], "stopped") == 0;
	long rc = stopped ? -1 : small_number(f[1]);
	long secs = small_number(f[2]);

	if ((!stopped && (rc < 0 || rc > 255)) || secs < 0 || !f[3][0] ||
	    !f[4][0] || !f[5][0])
		return false;
	w = pd_arena_alloc(a, sizeof(*w));
	w->exit = (int)rc;
	w->stopped = stopped;
	w->seconds = (unsigned)secs;
	w->stdout_path = f[3];
	w->stderr_path = f[4];
	w->command = unescape(a, f[5]);
	if (h->workload_run)
		pd_diag_note(d, PD_WARN, "manifest.workload-repeated", 0,
		    "more than one workload line; the last is used");
	h->workload_run = w;
	if (stopped)
		pd_diag_note(d, PD_WARN, "manifest.workload-stopped", 0,
		    "the workload '%s' was stopped after %ld s (--timeout): "
		    "its output and the snapshots cover only that part",
		    f[5], secs);
	else if (rc != 0)
		pd_diag_note(d, PD_WARN, "manifest.workload-failed", 0,
		    "the workload '%s' exited with %ld", f[5], rc);
	return true;
}

static enum pd_status
parse_manifest(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	const char *line, *f[FIELDS];
	size_t len;
	unsigned bad = 0;

	(void)m;
	while (pd_input_getline(in, &line, &len)) {
		if (line[0] == '#' || !line[0])
			continue;
		unsigned n = split_tabs(a, line, f);

		if (strcmp(f[0], "collector") == 0 && n == 2) {
			h->collector = f[1];
		} else if (strcmp(f[0], "skip") == 0 && n == 4) {
			gap(h, a, f[1], f[2], f[3]);
		} else if (strcmp(f[0], "run") == 0 && n == 6) {
			if (strcmp(f[1], "0") != 0 && strcmp(f[1], "-") != 0)
				gap(h, a, f[3], f[4], pd_arena_printf(a,
				    "'%s' exited with %s%s", f[5], f[1],
				    strcmp(f[1], "124") == 0 ?
				    " (timed out)" : ""));
		} else if (strcmp(f[0], "workload") == 0) {
			if (n != 6 || !workload(h, d, f))
				bad++;
		} else if (n < 2) {
			bad++;
		}
	}
	if (bad)
		pd_diag_note(d, PD_WARN, "manifest.bad-line", 0, "%u lines "
		    "were not manifest records", bad);
	return d->worst;
}

static const char *const hints[] = { "manifest", NULL };

const struct pd_format pd_format_manifest = {
	.name = "manifest",
	.summary = "pathdoctor-collect's manifest: what it ran, what failed, "
	    "what it could not gather and why",
	.command = "pathdoctor-collect",
	.hints = hints,
	.bid = bid_manifest,
	.parse = parse_manifest,
};
