/* The one status line pathdoctor keeps on stderr while it reads, only
 * when stderr is a terminal: a member's progress, or that stdin gives
 * nothing.  Rewritten in place with \r, cleared (\r, spaces, \r) before
 * anything else is written.  Safe from the decompression thread. */
#ifndef PD_PROGRESS_H
#define PD_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* True when stderr is a terminal: status lines are shown. */
bool pd_status_on(void);
/* No status line from now on, terminal or not: a process that shares
 * the terminal with others whose line it would overwrite (a worker of
 * -f jsonl). */
void pd_status_disable(void);
/* Shows line (terminal text, no newline) in place of the last one. */
void pd_status_show(const char *line);
/* Takes the status line off, if one is shown. */
void pd_status_clear(void);

/* A member's progress: "reading NAME: 120 MB of 300 MB, 85 MB/s", once
 * it has taken more than half a second, at most four times a second. */
struct pd_progress {
	const char *name;		/* escaped for the terminal */
	uint64_t total;			/* bytes, 0: unknown */
	uint64_t base;			/* done at the start (bundle bytes) */
	struct timespec start, last;
	bool shown;
};

void pd_progress_start(struct pd_progress *p, const char *name,
    uint64_t total, uint64_t base);
void pd_progress_tick(struct pd_progress *p, uint64_t done);
void pd_progress_end(struct pd_progress *p);

#endif
