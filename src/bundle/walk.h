/* The walk's state, shared by the walk (bundle.c) and the caps that
 * every byte it reads goes through (caps.c). */
#ifndef PD_WALK_H
#define PD_WALK_H

#include <stdbool.h>
#include <stdint.h>
#include "bundle/bundle.h"
#include "bundle/progress.h"
#include "pathdoctor/input.h"

/* One decompression layer: the bundle's own stream (its gzip, xz, ...
 * filter), a nested archive, or a gzip'd member.  Each has its own
 * ratio, compressed bytes in against bytes out, so that a bomb is seen
 * at the layer that inflates it, whatever wraps it. */
struct layer {
	struct layer *up;		/* the layer this one's input comes from */
	const char *kind;		/* "gzip'd member", "nested archive" */
	const char *name;		/* the member it unpacks; NULL: the bundle */
	struct pd_diag *owner;		/* where its cap note goes */
	uint64_t (*in_of)(const void *ctx);	/* compressed bytes so far */
	const void *in_ctx;
	uint64_t in;			/* when in_of is NULL (a directory) */
	uint64_t out;			/* bytes it yielded */
	bool ended;			/* a cap ended it: nothing more is read */
	char why[240];
};

struct walk {
	const struct pd_limits *lim;
	struct pd_model *model;
	struct pd_arena *arena;
	struct pd_coverage *cov;
	struct layer top;		/* the bundle's own stream */
	struct layer *cur;		/* the archive being walked */
	uint64_t members, total_out;
	bool stop;			/* a bundle-wide cap was hit */
	char stop_why[240];
	unsigned netns_members;		/* other namespaces' outputs */
	char netns_first[64];
	const char *name_note;		/* for the next result: "member 7:
					 * empty name"; NULL */
	struct pd_progress *progress;	/* stderr a terminal; else NULL */
	const struct counted *progress_of;	/* the top-level member read */
	bool progress_bundle;		/* its size unknown: the bundle's */
	uint64_t bundle_size;		/* compressed; 0: unknown */
};

/* A source counting what it yields as the output of one layer, against
 * the bundle's total and that layer's ratio; once a cap ends the layer
 * (or one it reads from, or the walk), reads fail with the cap's reason. */
struct counted {
	struct pd_source inner;
	struct walk *w;
	struct layer *layer;
	const char *member;		/* being read, for the notes */
	const struct layer *cut;	/* the layer a cap ended, if one did */
	uint64_t got;			/* bytes it yielded */
	char err[240];
};

struct pd_source pd_counted(struct counted *c, struct walk *w,
    struct layer *l, const char *member, struct pd_source inner);
/* True when a cap ended l, a layer under it, or the walk. */
bool pd_layer_blocked(const struct walk *w, const struct layer *l);
/* The bundle's compressed bytes read so far. */
uint64_t pd_walk_bundle_in(const struct walk *w);

/* A gzip'd, xz'd or zstd'd member, unwrapped as a decompression layer
 * of its own (its ratio counted apart from the archive's); l.name is set
 * when it is one. */
struct unwrap {
	struct pd_gunzip *gz;
	struct pd_unxz *xz;
	struct pd_unzstd *zs;
	struct layer l;
	struct counted c;
};

/* Unwraps a member whose head (raw's) is gzip's, xz's or zstd's magic: s then
 * reads what is inside.  False, and nothing set up, for any other. */
bool pd_unwrap(struct walk *w, struct unwrap *u,
    struct pd_member_result *res, struct pd_input *raw, struct pd_source *s);
void pd_unwrap_free(struct unwrap *u);
/* A member a cap cut short gets a note (true), unless the layer the cap
 * ended is the member's own, which said so already. */
bool pd_cut_note(struct pd_member_result *res, const struct counted *cnt,
    const struct unwrap *u);

#endif
