/* The status line on a terminal's stderr (progress.h).  One line for the
 * whole process, so its state is here, behind a mutex: the walker shows
 * progress, the decompression thread that stdin waits. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "bundle/progress.h"

#define SHOW_AFTER_MS 500	/* a member this slow gets a progress line */
#define EVERY_MS 250		/* rewritten at most this often */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned shown;		/* columns of the line on screen; 0: none */
static bool disabled;		/* pd_status_disable() */

bool
pd_status_on(void)
{
	return !disabled && isatty(STDERR_FILENO);
}

void
pd_status_disable(void)
{
	disabled = true;
}

/* Columns to stay within, so that the line never wraps (\r then goes
 * back to its start). */
static unsigned
room(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col - 1u;
	return 79;
}

void
pd_status_show(const char *line)
{
	unsigned max = room(), cols = 0;
	size_t n = 0;

	/* whole UTF-8 sequences, up to max columns */
	for (; line[n]; n++)
		if (((unsigned char)line[n] & 0xc0) != 0x80 && cols++ == max)
			break;
	if (cols > max)
		cols = max;
	pthread_mutex_lock(&mu);
	fprintf(stderr, "\r%.*s%*s", (int)n, line,
	    (int)(shown > cols ? shown - cols : 0), "");
	if (shown > cols)
		fprintf(stderr, "\r%.*s", (int)n, line);
	shown = cols;
	fflush(stderr);
	pthread_mutex_unlock(&mu);
}

void
pd_status_clear(void)
{
	pthread_mutex_lock(&mu);
	if (shown) {
		fprintf(stderr, "\r%*s\r", (int)shown, "");
		fflush(stderr);
		shown = 0;
	}
	pthread_mutex_unlock(&mu);
}

static long
ms_between(const struct timespec *a, const struct timespec *b)
{
	return (long)(b->tv_sec - a->tv_sec) * 1000 +
	    (b->tv_nsec - a->tv_nsec) / 1000000;
}

/* "120 MB", "3.4 GB" */
static void
size_text(char *buf, size_t n, double v, const char *unit)
{
	if (v < 1e3)
		snprintf(buf, n, "%.0f B%s", v, unit);
	else if (v < 1e6)
		snprintf(buf, n, "%.0f kB%s", v / 1e3, unit);
	else if (v < 1e9)
		snprintf(buf, n, "%.0f MB%s", v / 1e6, unit);
	else
		snprintf(buf, n, "%.1f GB%s", v / 1e9, unit);
}

void
pd_progress_start(struct pd_progress *p, const char *name, uint64_t total,
    uint64_t base)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->total = total;
	p->base = base;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->last = p->start;
}

void
pd_progress_tick(struct pd_progress *p, uint64_t done)
{
	struct timespec now;
	char line[512], d[32], t[32], r[32];

	clock_gettime(CLOCK_MONOTONIC, &now);
	long ms = ms_between(&p->start, &now);

	if (ms < SHOW_AFTER_MS || (p->shown && ms_between(&p->last, &now) <
	    EVERY_MS))
		return;
	p->last = now;
	p->shown = true;
	size_text(d, sizeof(d), (double)done, "");
	size_text(t, sizeof(t), (double)p->total, "");
	size_text(r, sizeof(r), (double)(done > p->base ? done - p->base : 0) *
	    1000.0 / (double)ms, "/s");
	snprintf(line, sizeof(line), "reading %s: %s%s%s, %s", p->name, d,
	    p->total ? " of " : "", p->total ? t : "", r);
	pd_status_show(line);
}

void
pd_progress_end(struct pd_progress *p)
{
	if (p->shown)
		pd_status_clear();
	p->shown = false;
}
