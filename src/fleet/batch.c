/* Many bundles, one line each (batch.h).
 *
 * Why worker processes and not threads: the analysis keeps state per
 * process (the --redact map, the compiled --filter, the one status
 * line, the decompression thread's stdin), which threads would share
 * across bundles and would need a lock or a context threaded through
 * every reader to keep apart; a process gets its own for free, and a
 * bundle that crashes a reader or trips a sanitizer ends its worker
 * only ("analysis ended by signal N"), not the run.  A worker's memory
 * goes back to the system when it exits, so each bundle is bounded as a
 * lone run is, whatever came before.  The cost, a fork and a pipe per
 * bundle, is well under a millisecond against an analysis of tens
 * (tests/bench-fleet.sh).  The parent only forks, reads pipes and writes
 * lines: it stays single-threaded, so forking it is safe. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bundle/bundle.h"
#include "bundle/progress.h"
#include "fleet/batch.h"
#include "fleet/hash.h"
#include "pathdoctor/arena.h"
#include "report/escape.h"
#include "report/json_parts.h"

#define WINDOW_PER_JOB 4	/* bundles started, not yet handed over */
#define LINE_MAX_BYTES (1u << 30)	/* a report larger is cut off */
#define READ_CHUNK 65536

struct result {
	char *line;
	size_t len;
	int exit;
	bool done;
};

struct worker {
	pid_t pid;
	int fd;			/* the pipe's read end */
	size_t idx;		/* the bundle's */
	char *buf;
	size_t len, cap;
	bool too_long;		/* killed for a line past LINE_MAX_BYTES */
	bool hashed;		/* its hash line came: the digest below */
	struct pd_digest d;
};

struct run {
	const struct pd_batch_opts *o;
	char *const *bundles;
	size_t n, window, next_start, next_emit;
	unsigned jobs, running;
	struct worker *w;	/* [jobs], the first running in use */
	struct result *ring;	/* [window], by bundle index mod window */
	bool stdin_taken;
	int worst;
};

int
pd_batch_worse(int a, int b)
{
	static const int rank[5] = { 0, 1, 3, 3, 2 };
	int ra = a >= 0 && a <= 4 ? rank[a] : 3;
	int rb = b >= 0 && b <= 4 ? rank[b] : 3;

	return ra >= rb ? a : b;
}

/* The bundle's name in a line the parent writes.  Under --redact the
 * mask of a host name in the path was the worker's, learnt from the
 * bundle, and died with it: the parent cannot tell which part of the
 * path to hide, so it hides all of it, "{bundle-K}" for the K-th bundle
 * given (the lines keep that order; stdin's "-" names nothing). */
static json_t *
bundle_name(const struct run *r, size_t idx)
{
	char token[32];

	if (!r->o->redact || strcmp(r->bundles[idx], "-") == 0)
		return pd_json_str(r->bundles[idx]);
	snprintf(token, sizeof(token), "{bundle-%zu}", idx + 1);
	return json_string(token);
}

/* A line the parent writes itself: the bundle not analysed; its hash
 * when its worker sent it (d; NULL: none). */
static void
error_line(struct run *r, size_t idx, const char *why,
    const struct pd_digest *d)
{
	struct result *res = &r->ring[idx % r->window];
	json_t *l = json_object();
	FILE *f = open_memstream(&res->line, &res->len);

	json_object_set_new(l, "pathdoctor_jsonl",
	    json_integer(PD_JSONL_VERSION));
	json_object_set_new(l, "bundle", bundle_name(r, idx));
	if (d) {
		json_object_set_new(l, "sha256", json_string(d->hex));
		json_object_set_new(l, "bytes", json_integer(
		    (json_int_t)d->bytes));
	}
	json_object_set_new(l, "exit", json_integer(3));
	json_object_set_new(l, "error", pd_json_str(why));
	if (!f) {
		json_decref(l);
		res->line = NULL;
		res->len = 0;
	} else if (pd_json_write_line(l, f) | fclose(f)) {
		res->len = 0;
	}
	res->exit = 3;
	res->done = true;
}

/* The child's side: one bundle, its line into fd, its exit the line's. */
static void
worker_main(const struct run *r, const char *bundle, int fd)
{
	struct pd_limits lim = *r->o->lim;
	struct pd_batch_opts o = *r->o;
	FILE *out;
	int rc;

	for (unsigned k = 0; k < r->running; k++)
		close(r->w[k].fd);
	if (strcmp(bundle, "-") != 0) {
		int nul = open("/dev/null", O_RDONLY);

		if (nul >= 0 && nul != STDIN_FILENO) {
			dup2(nul, STDIN_FILENO);
			close(nul);
		}
	}
	signal(SIGPIPE, SIG_IGN);	/* the stdin tee's pipe: EPIPE */
	pd_status_disable();
	lim.term_text = NULL;
	o.lim = &lim;
	if (!(out = fdopen(fd, "w")))
		_exit(125);
	rc = pd_batch_line(&o, bundle, out);
	if (fclose(out) != 0)
		rc = 125;
	exit(rc);
}

static void
start(struct run *r, size_t idx)
{
	const char *bundle = r->bundles[idx];
	bool is_stdin = strcmp(bundle, "-") == 0;
	int p[2];
	char why[160];

	if (is_stdin && r->stdin_taken) {
		error_line(r, idx, "-: stdin is one bundle, given once", NULL);
		return;
	}
	if (pipe(p) != 0) {
		snprintf(why, sizeof(why), "no pipe for a worker: %s",
		    strerror(errno));
		error_line(r, idx, why, NULL);
		return;
	}
	fflush(NULL);	/* nothing buffered is written twice */
	pid_t pid = fork();

	if (pid == 0) {
		close(p[0]);
		worker_main(r, bundle, p[1]);
	}
	close(p[1]);
	if (pid < 0) {
		snprintf(why, sizeof(why), "no worker: %s", strerror(errno));
		close(p[0]);
		error_line(r, idx, why, NULL);
		return;
	}
	r->stdin_taken |= is_stdin;
	r->w[r->running++] = (struct worker){ .pid = pid, .fd = p[0],
		.idx = idx };
}

/* The worker's "sha256 HEX BYTES" line, when it sent one, taken off
 * the front of what it wrote. */
static void
take_hash(struct worker *w)
{
	char head[128], hex[65];
	size_t n = w->len < sizeof(head) - 1 ? w->len : sizeof(head) - 1;
	char *nl;
	uint64_t bytes;

	memcpy(head, w->buf ? w->buf : "", w->buf ? n : 0);
	head[w->buf ? n : 0] = '\0';
	if (!(nl = strchr(head, '\n')) || sscanf(head, PD_BATCH_HASH_HEAD
	    " %64[0-9a-f] %" SCNu64, hex, &bytes) != 2 || strlen(hex) != 64)
		return;
	w->hashed = true;
	memcpy(w->d.hex, hex, sizeof(hex));
	w->d.bytes = bytes;
	n = (size_t)(nl - head) + 1;
	memmove(w->buf, w->buf + n, w->len - n);
	w->len -= n;
}

/* The worker's pipe has ended: its line, or why there is none. */
static void
finish(struct run *r, unsigned k)
{
	struct worker *w = &r->w[k];
	struct result *res = &r->ring[w->idx % r->window];
	int st = 0, code;
	char why[160];

	close(w->fd);
	while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
		;
	code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	take_hash(w);
	if (w->too_long) {
		snprintf(why, sizeof(why), "the line is longer than %u bytes",
		    LINE_MAX_BYTES);
		error_line(r, w->idx, why, w->hashed ? &w->d : NULL);
	} else if (WIFSIGNALED(st)) {
		snprintf(why, sizeof(why), "analysis ended by signal %d",
		    WTERMSIG(st));
		error_line(r, w->idx, why, w->hashed ? &w->d : NULL);
	} else if ((code == 0 || code == 1 || code == 3 || code == 4) &&
	    w->len && w->buf[w->len - 1] == '\n') {
		*res = (struct result){ .line = w->buf, .len = w->len,
			.exit = code, .done = true };
		w->buf = NULL;
	} else {
		snprintf(why, sizeof(why), "analysis ended without its line "
		    "(worker exit status %d)", code);
		error_line(r, w->idx, why, w->hashed ? &w->d : NULL);
	}
	free(w->buf);
	r->w[k] = r->w[--r->running];
}

/* Reads what one worker wrote; true when its pipe has ended. */
static bool
drain(struct worker *w)
{
	if (w->cap - w->len < READ_CHUNK) {
		if (w->cap >= LINE_MAX_BYTES) {
			w->too_long = true;
			kill(w->pid, SIGKILL);
			return true;
		}
		w->cap = w->cap ? 2 * w->cap : 2 * READ_CHUNK;
		w->buf = pd_xrealloc(w->buf, w->cap);
	}
	ssize_t got = read(w->fd, w->buf + w->len, READ_CHUNK);

	if (got < 0 && errno == EINTR)
		return false;
	if (got <= 0)
		return true;
	w->len += (size_t)got;
	return false;
}

/* Waits until some worker wrote or ended; handles every ready pipe. */
static void
collect(struct run *r)
{
	struct pollfd p[PD_BATCH_JOBS_MAX];

	for (unsigned k = 0; k < r->running; k++)
		p[k] = (struct pollfd){ .fd = r->w[k].fd, .events = POLLIN };
	if (poll(p, r->running, -1) <= 0)
		return;		/* EINTR: the caller comes back */
	for (unsigned k = r->running; k-- > 0;)
		if (p[k].revents && drain(&r->w[k]))
			finish(r, k);
}

static void
status(const struct run *r)
{
	char line[96];

	if (!r->o->status || !pd_status_on())
		return;
	snprintf(line, sizeof(line), "pathdoctor: %zu of %zu bundles",
	    r->next_emit, r->n);
	pd_status_show(line);
}

/* Hands over the lines done in order; -1 when line_cb fails. */
static int
emit(struct run *r, int (*line_cb)(const char *, size_t, void *),
    void *ctx)
{
	int rc = 0;

	while (rc == 0 && r->next_emit < r->next_start &&
	    r->ring[r->next_emit % r->window].done) {
		struct result *res = &r->ring[r->next_emit % r->window];

		pd_status_clear();
		if (!res->line || !res->len || line_cb(res->line, res->len,
		    ctx) != 0)
			rc = -1;
		r->worst = pd_batch_worse(r->worst, res->exit);
		free(res->line);
		*res = (struct result){ 0 };
		r->next_emit++;
		status(r);
	}
	return rc;
}

static unsigned
jobs_of(const struct pd_batch_opts *o, size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t j = o->jobs ? o->jobs : cpus > 0 ? (size_t)cpus : 1;

	if (j > PD_BATCH_JOBS_MAX)
		j = PD_BATCH_JOBS_MAX;
	return (unsigned)(j < n ? j : n ? n : 1);
}

/* A failed write: the workers still running are stopped. */
static void
stop_all(struct run *r)
{
	while (r->running) {
		kill(r->w[r->running - 1].pid, SIGKILL);
		r->w[r->running - 1].too_long = false;
		finish(r, r->running - 1);
	}
	for (size_t i = 0; i < r->window; i++)
		free(r->ring[i].line);
}

int
pd_batch_run(const struct pd_batch_opts *o, char *const *bundles, size_t n,
    int (*line_cb)(const char *line, size_t len, void *ctx), void *ctx)
{
	struct run r = { .o = o, .bundles = bundles, .n = n };

	r.jobs = jobs_of(o, n);
	r.window = (size_t)r.jobs * WINDOW_PER_JOB;
	r.w = pd_xmalloc(r.jobs * sizeof(*r.w));
	r.ring = calloc(r.window, sizeof(*r.ring));
	if (!r.ring)
		abort();
	status(&r);
	while (r.next_emit < n) {
		while (r.running < r.jobs && r.next_start < n &&
		    r.next_start < r.next_emit + r.window)
			start(&r, r.next_start++);
		if (emit(&r, line_cb, ctx) != 0) {
			stop_all(&r);
			r.worst = 3;
			break;
		}
		if (r.running)
			collect(&r);
	}
	pd_status_clear();
	free(r.w);
	free(r.ring);
	return r.worst;
}
