/* The bundle walker: every member of an archive, a directory, a lone
 * file or stdin, identified by content and handed to its reader. */
#ifndef PD_BUNDLE_H
#define PD_BUNDLE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "pathdoctor/diag.h"

struct pd_model;
struct pd_arena;

struct pd_limits {
	uint64_t max_members;	/* members read, nested ones included */
	uint64_t max_total;	/* decompressed bytes over the whole bundle */
	uint64_t max_ratio;	/* decompressed / compressed bytes */
	uint64_t max_spool;	/* bytes held in memory for one member */
	uint64_t max_depth;	/* nested archives */
	uint64_t max_line;	/* bytes in one text line */
	bool one_thread;	/* no decompression thread (--one-thread) */
	/* escapes a member's name for the progress line shown while it is
	 * read, when stderr is a terminal (main: pd_term_text); NULL: no
	 * progress line */
	const char *(*term_text)(struct pd_arena *a, const char *s);
};

void pd_limits_default(struct pd_limits *l);

struct pd_member_result {
	struct pd_member_result *next;
	const char *path;
	const char *format;		/* format name, "unknown", "skipped" */
	const char *host_key;
	struct pd_diag diag;		/* notes and worst status */
};

/* Past this many listed members, the ones of no format pathdoctor reads
 * (or not followed) are counted, not listed, so that a bundle of a
 * million tiny files costs a count, not a million report rows. */
#define PD_MEMBERS_LISTED 2000

struct pd_coverage {
	struct pd_member_result *members;	/* sorted by path at the end */
	unsigned n_members;			/* every member, listed or not */
	unsigned n_listed;			/* in members */
	unsigned n_folded, n_folded_noted;	/* counted only */
	struct pd_diag bundle;			/* notes about the whole bundle */
};

/* Reads the bundle at path ("-" for stdin) into the model.  Returns 0
 * when anything could be read, -1 when the bundle is unreadable (err
 * says why). */
int pd_bundle_read(const char *path, const struct pd_limits *lim,
    struct pd_model *m, struct pd_coverage *cov, char *err, size_t errlen);

/* The same over a bundle held in memory (tests, fuzzers). */
int pd_bundle_read_memory(const void *data, size_t len, const char *name,
    const struct pd_limits *lim, struct pd_model *m,
    struct pd_coverage *cov, char *err, size_t errlen);

/* One member from memory through sniff and parse (fuzzers, tests). */
const char *pd_member_parse_buffer(struct pd_model *m, const char *path,
    const void *data, size_t len, struct pd_diag *diag);

/* The same with the reader forced (NULL: identify as usual), so a fuzzer
 * reaches every reader whatever the bytes look like. */
struct pd_format;
const char *pd_member_parse_as(struct pd_model *m,
    const struct pd_format *f, const char *path, const void *data,
    size_t len, struct pd_diag *diag);

/* sniff.c: identification by content. */
struct pd_member;
/* Picks the best bidder; returns it and stores its bid (and the
 * runner-up's) when the pointers are not NULL. */
const struct pd_format *pd_sniff(const struct pd_member *m, int *bid,
    int *runner_up);


/* hostpath.c: the host a member path belongs to (created on first use). */
struct pd_host *pd_model_host_for_path(struct pd_model *m, const char *path);
/* True when path is the output of a command a sosreport ran in another
 * network namespace (ip_netns_exec_NS_...); its name goes to ns. */
bool pd_path_netns(const char *path, char *ns, size_t cap);

#endif
