/* The total and ratio caps, counted per decompression layer.  A ratio cap
 * ends the layer that broke it (a gzip'd member, a nested archive) and
 * the walk goes on with the next sibling; only the bundle's own stream
 * breaking it, or the total being spent, stops the walk, since nothing
 * after that can be reached without reading on.  Also the unwrapping of
 * gzip'd, xz'd and zstd'd members, each such a layer. */
#include <stdio.h>
#include <string.h>
#include "bundle/walk.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"

#define RATIO_FLOOR (16u << 20)	/* below this, any ratio is fine */

bool
pd_layer_blocked(const struct walk *w, const struct layer *l)
{
	if (w->stop)
		return true;
	for (; l; l = l->up)
		if (l->ended)
			return true;
	return false;
}

static bool
blocked(struct counted *c)
{
	const struct walk *w = c->w;

	if (w->stop) {
		c->cut = &w->top;
		snprintf(c->err, sizeof(c->err), "%s", w->stop_why);
		return true;
	}
	for (const struct layer *l = c->layer; l; l = l->up)
		if (l->ended) {
			c->cut = l;
			snprintf(c->err, sizeof(c->err), "%s", l->why);
			return true;
		}
	return false;
}

static uint64_t
layer_in(const struct layer *l)
{
	return l->in_of ? l->in_of(l->in_ctx) : l->in;
}

uint64_t
pd_walk_bundle_in(const struct walk *w)
{
	return layer_in(&w->top);
}

/* The top-level member's progress, on a terminal: its own bytes of its
 * size, or the bundle's of the bundle's. */
static void
progress(const struct counted *c)
{
	const struct walk *w = c->w;

	if (w->progress && w->progress_of == c)
		pd_progress_tick(w->progress, w->progress_bundle ?
		    layer_in(&w->top) : c->got);
}

static void
total_spent(struct walk *w, const char *member)
{
	snprintf(w->stop_why, sizeof(w->stop_why), "decompressed bytes over "
	    "the bundle's cap of %llu (--max-total) in '%s'; the cap is "
	    "spent, so nothing after it was read",
	    (unsigned long long)w->lim->max_total, member);
	w->stop = true;
	pd_diag_note(&w->cov->bundle, PD_FAILED, "bundle.cap", 0,
	    "walk stopped: %s", w->stop_why);
}

static void
ratio_broken(struct walk *w, struct layer *l, const char *member)
{
	unsigned long long cap = w->lim->max_ratio, in = layer_in(l);

	if (!l->up) {
		/* the bundle's own stream: what follows the bomb is behind it
		 * in the same stream, so the walk ends here */
		snprintf(w->stop_why, sizeof(w->stop_why), "the bundle's "
		    "compressed stream is over %llu:1 (--max-ratio; %llu bytes "
		    "from %llu) in '%s', possibly a decompression bomb; the "
		    "rest lies behind it in the same stream and was not read",
		    cap, (unsigned long long)l->out, in, member);
		w->stop = true;
		pd_diag_note(&w->cov->bundle, PD_FAILED, "bundle.cap", 0,
		    "walk stopped: %s", w->stop_why);
		return;
	}
	bool inside = strcmp(member, l->name) != 0;

	snprintf(l->why, sizeof(l->why), "%s '%s' is over %llu:1 "
	    "(--max-ratio; %llu bytes from %llu)%s%s%s, possibly a "
	    "decompression bomb; the rest of it was not read, the walk goes "
	    "on after it", l->kind, l->name, cap, (unsigned long long)l->out,
	    in, inside ? " in '" : "", inside ? member : "", inside ? "'" : "");
	l->ended = true;
	pd_diag_note(l->owner, PD_FAILED, "member.cap", 0, "%s", l->why);
}

/* r bytes handed out (a read's or a view's return). */
static ssize_t
counted(struct counted *c, ssize_t r)
{
	struct walk *w = c->w;
	struct layer *l = c->layer;

	if (r <= 0)
		return r;
	/* the bytes read are handed out; a cap they break fails the next
	 * read */
	c->got += (uint64_t)r;
	l->out += (uint64_t)r;
	w->total_out += (uint64_t)r;
	if (w->total_out > w->lim->max_total) {
		total_spent(w, c->member);
	} else if (l->out > RATIO_FLOOR) {
		uint64_t in = layer_in(l);

		if (in && l->out / in > w->lim->max_ratio)
			ratio_broken(w, l, c->member);
	}
	progress(c);
	return r;
}

static ssize_t
counted_read(void *ctx, void *buf, size_t n)
{
	struct counted *c = ctx;

	if (blocked(c))
		return -1;
	return counted(c, c->inner.read(c->inner.ctx, buf, n));
}

/* A view counts as the read it stands for. */
static ssize_t
counted_view(void *ctx, size_t n, const unsigned char **p)
{
	struct counted *c = ctx;

	if (blocked(c))
		return -1;
	ssize_t r = c->inner.view(c->inner.ctx, n, p);

	return r == PD_INPUT_NO_VIEW ? r : counted(c, r);
}

/* The whole member counts as the read of the rest: taken only where
 * those bytes break no cap, so that where one would, the reads meet it
 * as they always have. */
static ssize_t
counted_whole(void *ctx, size_t had, size_t max, const unsigned char **p)
{
	struct counted *c = ctx;
	const struct walk *w = c->w;

	if (blocked(c) || c->got != had || w->total_out > w->lim->max_total)
		return PD_INPUT_NO_VIEW;
	uint64_t room = w->lim->max_total - w->total_out;

	if (room < (uint64_t)max - had)
		max = (size_t)(had + room);
	ssize_t r = c->inner.whole(c->inner.ctx, had, max, p);

	if (r == PD_INPUT_NO_VIEW || r < (ssize_t)had)
		return r;
	counted(c, r - (ssize_t)had);
	return r;
}

static const char *
counted_err(void *ctx)
{
	struct counted *c = ctx;

	if (c->err[0])
		return c->err;
	return c->inner.err ? c->inner.err(c->inner.ctx) : "read error";
}

struct pd_source
pd_counted(struct counted *c, struct walk *w, struct layer *l,
    const char *member, struct pd_source inner)
{
	*c = (struct counted){ .inner = inner, .w = w, .layer = l,
		.member = member };
	return (struct pd_source){ counted_read, counted_err, c,
	    inner.view ? counted_view : NULL,
	    inner.whole ? counted_whole : NULL };
}

static uint64_t
gunzip_in(const void *gz)
{
	return pd_gunzip_in(gz);
}

static uint64_t
unxz_in(const void *xz)
{
	return pd_unxz_in(xz);
}

static uint64_t
unzstd_in(const void *zs)
{
	return pd_unzstd_in(zs);
}

/* Source over a pd_input, so a filter can sit on top of a replayed head. */
static ssize_t
input_src_read(void *ctx, void *buf, size_t n)
{
	return pd_input_read(ctx, buf, n);
}

static const char *
input_src_err(void *ctx)
{
	struct pd_input *in = ctx;

	return in->errmsg[0] ? in->errmsg : "read error";
}

bool
pd_unwrap(struct walk *w, struct unwrap *u, struct pd_member_result *res,
    struct pd_input *raw, struct pd_source *s)
{
	struct pd_source in = { input_src_read, input_src_err, raw, NULL, NULL };
	struct pd_source dec;

	if (pd_is_gzip(raw->head, raw->head_len)) {
		u->gz = pd_gunzip_new(in);
		dec = pd_gunzip_source(u->gz);
		u->l = (struct layer){ .kind = "gzip'd member",
			.in_of = gunzip_in, .in_ctx = u->gz };
	} else if (pd_is_xz(raw->head, raw->head_len)) {
		u->xz = pd_unxz_new(in);
		dec = pd_unxz_source(u->xz);
		u->l = (struct layer){ .kind = "xz'd member",
			.in_of = unxz_in, .in_ctx = u->xz };
	} else if (pd_is_zstd(raw->head, raw->head_len)) {
		u->zs = pd_unzstd_new(in);
		dec = pd_unzstd_source(u->zs);
		u->l = (struct layer){ .kind = "zstd'd member",
			.in_of = unzstd_in, .in_ctx = u->zs };
	} else {
		return false;
	}
	u->l.up = w->cur;
	u->l.name = res->path;
	u->l.owner = &res->diag;
	*s = pd_counted(&u->c, w, &u->l, res->path, dec);
	return true;
}

void
pd_unwrap_free(struct unwrap *u)
{
	pd_gunzip_free(u->gz);
	pd_unxz_free(u->xz);
	pd_unzstd_free(u->zs);
}

/* A member a cap cut short: the note naming it, unless the layer the cap
 * ended is the member's own, which said so already. */
bool
pd_cut_note(struct pd_member_result *res, const struct counted *cnt,
    const struct unwrap *u)
{
	bool wrapped = u->l.name != NULL;
	const struct counted *c = cnt->cut || !wrapped ? cnt : &u->c;

	if (!c->cut)
		return false;
	if (c->cut->owner != &res->diag)
		pd_diag_note(&res->diag, PD_FAILED, "member.cap", 0,
		    "cut short after %llu bytes: %s", (unsigned long long)
		    (wrapped ? u->c.got : cnt->got), c->err);
	return true;
}
