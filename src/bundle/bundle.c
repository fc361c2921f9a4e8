/* The bundle walk: libarchive streams every member (or a directory is
 * walked in name order); each regular member is unwrapped if gzip'd,
 * identified by content and parsed.  Nothing is written to disk, links
 * and device nodes are never followed, and every cap ends in a note that
 * names the member. */
#define _DEFAULT_SOURCE	/* scandir, alphasort, O_NOFOLLOW */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bundle/archive_src.h"
#include "bundle/bundle.h"
#include "bundle/mapped.h"
#include "bundle/readahead.h"
#include "bundle/walk.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/format.h"
#include "pathdoctor/job.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define DIR_DEPTH_MAX 32

static uint64_t
archive_in(const void *a)
{
	la_int64_t n = archive_filter_bytes((struct archive *)a, -1);

	return n > 0 ? (uint64_t)n : 0;
}

static uint64_t
readahead_in(const void *ra)
{
	return pd_readahead_in(ra);
}

static struct pd_member_result *
add_result(struct walk *w, const char *path, const char *format)
{
	struct pd_member_result *r = pd_arena_alloc(w->arena, sizeof(*r));

	r->path = path;
	r->format = format;
	pd_diag_init(&r->diag, w->arena, path);
	if (w->name_note)
		pd_diag_note(&r->diag, PD_WARN, "member.empty-name", 0, "%s",
		    w->name_note);
	w->name_note = NULL;
	r->next = w->cov->members;
	w->cov->members = r;
	w->cov->n_members++;
	w->cov->n_listed++;
	return r;
}

/* A member of no format read (or not followed) past the listed ones:
 * taken off the list, counted.  It is the newest result, so the head. */
static void
fold(struct walk *w, struct pd_member_result *r)
{
	struct pd_coverage *cov = w->cov;

	if (cov->n_listed <= PD_MEMBERS_LISTED || cov->members != r)
		return;
	cov->members = r->next;
	cov->n_listed--;
	cov->n_folded++;
	cov->n_folded_noted += r->diag.worst != PD_OK;
}

static size_t
fill_head(struct pd_source src, unsigned char *head, size_t cap, bool *err)
{
	size_t n = 0;

	*err = false;
	while (n < cap) {
		ssize_t r = src.read(src.ctx, head + n, cap - n);

		if (r < 0) {
			*err = true;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return n;
}

static bool
has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n > k && strcmp(s + n - k, suf) == 0;
}

static const char *
strip_gz(struct walk *w, const char *path)
{
	static const char *const sufs[] = { ".gz", ".gzip", ".z", ".xz",
		".zst", NULL };

	for (const char *const *s = sufs; *s; s++)
		if (has_suffix(path, *s))
			return pd_arena_strndup(w->arena, path,
			    strlen(path) - strlen(*s));
	return path;
}

/* The format a member's name suggests: only its last two components
 * count ("ethtool-S/nic2.txt"), so a directory far up the path (the
 * "perf.data.tar.bz2/" of a build-id cache) suggests nothing. */
static const char *
hinted_format(const char *full)
{
	const char *path = full, *p;
	unsigned slashes = 0;

	for (p = full + strlen(full); p > full; p--)
		if (p[-1] == '/' && ++slashes == 2) {
			path = p;
			break;
		}
	for (const struct pd_format *const *f = pd_formats; *f; f++) {
		if ((*f)->container || !(*f)->parse)
			continue;
		for (const char *const *h = (*f)->hints; h && *h; h++)
			if (strstr(path, *h))
				return (*f)->name;
		if (strstr(path, (*f)->name))
			return (*f)->name;
	}
	return NULL;
}

static void walk_archive(struct walk *w, struct archive *a,
    const char *prefix, const char *lone_name, unsigned depth,
    struct pd_diag *owner);

/* The archive kinds a bundle (or a nested archive) may be. */
static void
archive_formats(struct archive *a)
{
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	/* streamable, not seekable: the seekable reader looks for a central
	 * directory at the end of any file, and finds one inside captures
	 * that carried a .docx or .xlsx */
	archive_read_support_format_zip_streamable(a);
	archive_read_support_format_cpio(a);
	archive_read_support_format_7zip(a);
	archive_read_support_format_empty(a);
	archive_read_support_format_raw(a);
}

/* libarchive read callback for a nested archive held in a member. */
struct nested {
	struct pd_input *in;
	unsigned char buf[65536];
};

static la_ssize_t
nested_read(struct archive *a, void *ctx, const void **out)
{
	struct nested *n = ctx;
	ssize_t r = pd_input_read(n->in, n->buf, sizeof(n->buf));

	if (r < 0) {
		archive_set_error(a, EIO, "%s", n->in->errmsg);
		return -1;
	}
	*out = n->buf;
	return r;
}

/* Walks a nested archive as a layer of its own over up (the member's
 * gzip layer, or the archive holding it); true when a cap ended it, so
 * that the caller does not read on through what is left of it. */
static bool
open_nested(struct walk *w, struct pd_member_result *res,
    const struct pd_member *m, struct pd_input *in, struct layer *up)
{
	if (m->depth + 1 > w->lim->max_depth) {
		pd_diag_note(&res->diag, PD_WARN, "bundle.depth-cap", 0,
		    "nested archive not opened: nesting deeper than %llu "
		    "(--max-depth)", (unsigned long long)w->lim->max_depth);
		return false;
	}
	struct archive *a = archive_read_new();
	struct nested *n = pd_xmalloc(sizeof(*n));
	struct layer *outer = w->cur;
	struct layer nl = { .up = up, .kind = "nested archive",
		.name = m->path, .owner = &res->diag, .in_of = archive_in,
		.in_ctx = a };
	bool ended = false;

	n->in = in;
	archive_formats(a);
	if (archive_read_open(a, n, NULL, nested_read, NULL) != ARCHIVE_OK) {
		pd_diag_note(&res->diag, PD_FAILED, "bundle.nested-open", 0,
		    "nested archive cannot be opened: %s",
		    archive_error_string(a));
		goto out;
	}
	w->cur = &nl;
	walk_archive(w, a, m->path, strip_gz(w, m->hint_path), m->depth + 1,
	    &res->diag);
	w->cur = outer;
	ended = pd_layer_blocked(w, &nl);
out:
	archive_read_free(a);
	free(n);
	return ended;
}

/* A sosreport's output from another network namespace is identified
 * but not read: its interfaces would add to the host's own (a bridge's
 * ports, the lo of every namespace, a router's qr- and qg- ports). */
static bool
other_netns(struct walk *w, const char *path)
{
	char ns[64];

	if (!pd_path_netns(path, ns, sizeof(ns)))
		return false;
	if (w->netns_members++ == 0)
		snprintf(w->netns_first, sizeof(w->netns_first), "%s", ns);
	return true;
}

/* A top-level member's progress line (on a terminal only): of its size,
 * else of the bundle's. */
static void
progress_begin(struct walk *w, const char *path, int64_t size,
    const struct counted *cnt, unsigned depth)
{
	if (!w->progress || depth > 0)
		return;
	w->progress_of = cnt;
	w->progress_bundle = size < 0;
	pd_progress_start(w->progress, w->lim->term_text(w->arena, path),
	    size >= 0 ? (uint64_t)size : w->bundle_size,
	    size >= 0 ? 0 : pd_walk_bundle_in(w));
}

static void
progress_end(struct walk *w, unsigned depth)
{
	if (!w->progress || depth > 0)
		return;
	pd_progress_end(w->progress);
	w->progress_of = NULL;
}

/* One regular member: unwrap, sniff, parse, drain, record.  Kept whole
 * because the steps share the member's input and cleanup: its one exit
 * path frees what the unwrapping opened. */
static void
process_member(struct walk *w, const char *path, int64_t size,
    struct pd_source src, unsigned depth)
{
	unsigned char *head = pd_xmalloc(PD_PEEK_MAX);
	unsigned char *inner_head = NULL;
	struct pd_member_result *res;
	struct counted cnt;
	struct pd_source s = pd_counted(&cnt, w, w->cur, path, src);
	struct unwrap u = { .gz = NULL };
	struct pd_input outer, in;
	bool err, capped = false;

	if (++w->members > w->lim->max_members) {
		if (w->members == w->lim->max_members + 1)
			pd_diag_note(&w->cov->bundle, PD_WARN,
			    "bundle.member-cap", 0,
			    "more than %llu members (--max-members); '%s' "
			    "and the rest were not read",
			    (unsigned long long)w->lim->max_members, path);
		snprintf(w->stop_why, sizeof(w->stop_why), "more than %llu "
		    "members (--max-members)",
		    (unsigned long long)w->lim->max_members);
		w->stop = true;
		free(head);
		return;
	}
	res = add_result(w, path, "unknown");
	progress_begin(w, path, size, &cnt, depth);
	size_t n = fill_head(s, head, PD_PEEK_MAX, &err);
	struct pd_member m = {
		.path = path, .hint_path = path, .size = size, .head = head,
		.head_len = n, .depth = depth,
		.one_thread = w->lim->one_thread,
	};

	pd_input_init(&outer, s, head, n, w->lim->max_line, &res->diag);
	if (!err && pd_unwrap(w, &u, res, &outer, &s)) {
		/* identify and parse what is inside */
		inner_head = pd_xmalloc(PD_PEEK_MAX);
		n = fill_head(s, inner_head, PD_PEEK_MAX, &err);
		m.head = inner_head;
		m.head_len = n;
		m.hint_path = strip_gz(w, path);
		m.size = -1;
	}
	if (err && n == 0) {
		if (pd_cut_note(res, &cnt, &u))
			goto out;
		pd_diag_note(&res->diag, PD_FAILED, "member.unreadable", 0,
		    "cannot read: %s", s.err(s.ctx));
		goto out;
	}
	const struct pd_format *f = pd_sniff(&m, NULL, NULL);

	res->format = f->name;
	pd_input_init(&in, s, m.head, m.head_len, w->lim->max_line,
	    &res->diag);
	in.max_spool = w->lim->max_spool;
	if (f->container) {
		capped = open_nested(w, res, &m, &in,
		    u.l.name ? &u.l : w->cur);
	} else if (f->parse && other_netns(w, path)) {
		/* identified, but not this host's interfaces: finish() */
	} else if (f->parse) {
		struct pd_host *h = pd_model_host_for_path(w->model, path);

		res->host_key = h->key;
		h->n_members++;
		enum pd_status st = f->parse(&m, &in, h, &res->diag);

		if (st < res->diag.worst)
			res->diag.worst = st;
	} else {
		const char *hint = hinted_format(m.hint_path);

		if (hint && m.head_len == 0)
			pd_diag_note(&res->diag, PD_WARN, "member.empty", 0,
			    "empty: the command behind %s printed nothing "
			    "(missing tool, or it failed?)", hint);
		else if (hint)
			pd_diag_note(&res->diag, PD_WARN, "member.unrecognised",
			    0, "the path suggests %s but the content does not "
			    "match it%s", hint,
			    pd_text_plausible(m.head, m.head_len) ? "" :
			    " (binary data)");
	}
	if (!capped)
		pd_input_drain(&in);
	if (pd_cut_note(res, &cnt, &u))
		;	/* said why */
	else if (in.failed || err)
		pd_diag_note(&res->diag, PD_FAILED, "member.truncated", 0,
		    "read error after %llu bytes: %s; the part before was "
		    "analysed", (unsigned long long)in.consumed,
		    in.errmsg[0] ? in.errmsg : s.err(s.ctx));
	pd_input_release(&in);
out:
	progress_end(w, depth);
	pd_input_release(&outer);
	pd_unwrap_free(&u);
	free(inner_head);
	free(head);
	pd_diag_finish(&res->diag);
	if (strcmp(res->format, "unknown") == 0)
		fold(w, res);
}

static const char *
member_path(struct walk *w, const char *prefix, const char *name)
{
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	while (name[0] == '/')
		name++;
	if (prefix)
		return pd_arena_printf(w->arena, "%s/%s", prefix, name);
	return pd_arena_strdup(w->arena, name);
}

/* A name that is missing, or nothing once "./" and "/" are taken off
 * (libarchive ends a name at its first NUL byte). */
static bool
empty_name(const char *name)
{
	if (!name)
		return true;
	while (*name == '/' || (name[0] == '.' && name[1] == '/'))
		name += name[0] == '.' ? 2 : 1;
	return *name == '\0';
}

static void
skipped(struct walk *w, const char *path, const char *why)
{
	struct pd_member_result *r = add_result(w, path, "skipped");

	pd_diag_note(&r->diag, PD_WARN, "member.not-followed", 0, "%s", why);
	fold(w, r);
}

static void
damaged(struct pd_diag *owner, const char *last, struct archive *a)
{
	pd_diag_note(owner, PD_FAILED, "bundle.damaged", 0,
	    "archive unreadable %s%s%s: %s; members before were analysed",
	    last ? "after '" : "at its start", last ? last : "",
	    last ? "'" : "", archive_error_string(a));
}

static void
walk_archive(struct walk *w, struct archive *a, const char *prefix,
    const char *lone_name, unsigned depth, struct pd_diag *owner)
{
	struct archive_entry *e;
	const char *last = NULL;
	unsigned pos = 0;

	while (!pd_layer_blocked(w, w->cur)) {
		int rc = archive_read_next_header(a, &e);

		if (rc == ARCHIVE_EOF)
			break;
		if (rc < ARCHIVE_WARN) {
			/* a cap failing the read has said so */
			if (!pd_layer_blocked(w, w->cur))
				damaged(owner, last, a);
			break;
		}
		const char *name = archive_entry_pathname(e);
		const char *path;

		pos++;
		if (archive_format(a) == ARCHIVE_FORMAT_RAW || !name)
			path = prefix && lone_name ? lone_name :
			    member_path(w, NULL, lone_name ? lone_name : "data");
		else
			path = member_path(w, prefix, name);
		w->name_note = NULL;
		if (empty_name(name) && archive_format(a) != ARCHIVE_FORMAT_RAW &&
		    archive_entry_filetype(e) != AE_IFDIR)
			w->name_note = pd_arena_printf(w->arena, "member %u%s%s: "
			    "empty name (NUL bytes or only slashes)", pos,
			    prefix ? " of " : "", prefix ? prefix : "");
		last = path;
		if (archive_entry_hardlink(e)) {
			skipped(w, path, pd_arena_printf(w->arena,
			    "hard link to '%s' not followed",
			    archive_entry_hardlink(e)));
			continue;
		}
		switch (archive_entry_filetype(e)) {
		case AE_IFREG:
			break;
		case AE_IFDIR:
			continue;
		case AE_IFLNK:
			/* perf archive's .build-id/ index links to the
			 * files it also holds */
			if (strstr(path, ".build-id/"))
				continue;
			skipped(w, path, pd_arena_printf(w->arena,
			    "symbolic link to '%s' not followed",
			    archive_entry_symlink(e) ?
			    archive_entry_symlink(e) : "?"));
			continue;
		default:
			skipped(w, path, "device node, fifo or socket ignored");
			continue;
		}
		struct pd_archive_src src;

		process_member(w, path, archive_entry_size_is_set(e) ?
		    archive_entry_size(e) : -1, pd_archive_source(&src, a),
		    depth);
	}
	w->name_note = NULL;
}

/* Directory bundles: walked in name order so output is deterministic.
 * A member can be had whole where it lies (struct pd_source's whole):
 * the file is mapped, so a reader that wants random access (an ELF
 * file's symbols, at its end) touches the page cache's pages of what it
 * reads, where a read would copy every byte into memory of its own, and
 * a member passed over is not read at all. */
struct fdsrc {
	int fd;
	struct walk *w;
	const char *full;		/* for the SIGBUS note */
	uint64_t off;			/* bytes handed out */
	unsigned char *blk;		/* FD_BLOCK read ahead for views */
	size_t blk_pos, blk_len;
	bool blk_failed;		/* the read after blk's bytes failed */
	void *map;
	size_t map_len;
	struct sigaction old_bus;
	char err[128];
};

/* A capture walk's 8 KB reads (formats/pcap.c) are views of reads this
 * large: one read(2) per 8 KB cost a capture of 450 MB in a directory
 * 1.6x the time it took through the ring's 1 MiB reads. */
#define FD_BLOCK (1u << 20)

static ssize_t
fd_sysread(struct fdsrc *f, void *buf, size_t n)
{
	ssize_t r;

	do
		r = read(f->fd, buf, n);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		snprintf(f->err, sizeof(f->err), "%s", strerror(errno));
	return r;
}

/* n bytes handed out: counted where they are, not where read ahead. */
static void
fd_handed(struct fdsrc *f, size_t n)
{
	f->w->top.in += n;
	f->off += n;
}

/* What is read ahead first, then the file, as one read would have. */
static ssize_t
fd_read(void *ctx, void *buf, size_t n)
{
	struct fdsrc *f = ctx;
	size_t k = f->blk_len - f->blk_pos < n ? f->blk_len - f->blk_pos : n;

	if (k) {
		memcpy(buf, f->blk + f->blk_pos, k);
		f->blk_pos += k;
	}
	if (k < n && !f->blk_failed) {
		ssize_t r = fd_sysread(f, (unsigned char *)buf + k, n - k);

		if (r < 0 && !k)
			return -1;
		k += r > 0 ? (size_t)r : 0;
		f->blk_failed = r < 0;
	} else if (!k && f->blk_failed) {
		return -1;
	}
	fd_handed(f, k);
	return (ssize_t)k;
}

/* The read ahead filled again: false at the end or on an error (then
 * kept for the read after what it did give). */
static bool
fd_refill(struct fdsrc *f)
{
	if (!f->blk)
		f->blk = pd_xmalloc(FD_BLOCK);
	f->blk_pos = f->blk_len = 0;
	while (f->blk_len < FD_BLOCK && !f->blk_failed) {
		ssize_t r = fd_sysread(f, f->blk + f->blk_len,
		    FD_BLOCK - f->blk_len);

		if (r <= 0) {
			f->blk_failed = r < 0;
			break;
		}
		f->blk_len += (size_t)r;
	}
	return f->blk_len > 0;
}

static ssize_t
fd_view(void *ctx, size_t n, const unsigned char **p)
{
	struct fdsrc *f = ctx;

	if (f->map || n > FD_BLOCK)
		return PD_INPUT_NO_VIEW;
	/* a refill that read nothing failed (its error in f->err) or met
	 * the end, as the read in its place would have */
	if (f->blk_pos == f->blk_len && !f->blk_failed && !fd_refill(f))
		return f->blk_failed ? -1 : 0;
	if (f->blk_len - f->blk_pos < n)
		return PD_INPUT_NO_VIEW;
	*p = f->blk + f->blk_pos;
	f->blk_pos += n;
	fd_handed(f, n);
	return (ssize_t)n;
}

/* Mapped writable but private: libelf may convert in place, and those
 * pages are then its own copies, never the file's.  A rest of less than
 * a read block is read: a mapping (and the SIGBUS handler set and put
 * back) costs more system calls than that read, and a directory of
 * many small members would pay them for each. */
static ssize_t
fd_whole(void *ctx, size_t had, size_t max, const unsigned char **p)
{
	struct fdsrc *f = ctx;
	struct stat st;

	if (f->map || f->blk || f->off != had || fstat(f->fd, &st) != 0 ||
	    !S_ISREG(st.st_mode) || (uint64_t)st.st_size < had ||
	    (uint64_t)st.st_size - had < PD_INPUT_BLOCK ||
	    (uint64_t)st.st_size > max || (uint64_t)st.st_size > SSIZE_MAX)
		return PD_INPUT_NO_VIEW;
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE, f->fd, 0);

	if (m == MAP_FAILED)
		return PD_INPUT_NO_VIEW;
	f->map = m;
	f->map_len = (size_t)st.st_size;
	pd_mapped_watch(f->full, &f->old_bus);
	f->w->top.in += f->map_len - had;
	f->off = f->map_len;
	*p = m;
	return (ssize_t)f->map_len;
}

static void
fd_close(struct fdsrc *f)
{
	free(f->blk);
	if (f->map) {
		munmap(f->map, f->map_len);
		pd_mapped_unwatch(&f->old_bus);
	}
	close(f->fd);
}

static const char *
fd_err(void *ctx)
{
	return ((struct fdsrc *)ctx)->err;
}

static void
walk_dir(struct walk *w, const char *dir, const char *rel, unsigned level)
{
	struct dirent **ents = NULL;
	int n = scandir(dir, &ents, NULL, alphasort);

	if (n < 0) {
		pd_diag_note(&w->cov->bundle, PD_FAILED, "bundle.dir", 0,
		    "cannot list '%s': %s", rel ? rel : ".", strerror(errno));
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *nm = ents[i]->d_name;

		if (w->stop || strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0)
			continue;
		char *full = pd_arena_printf(w->arena, "%s/%s", dir, nm);
		const char *path = rel ? pd_arena_printf(w->arena, "%s/%s",
		    rel, nm) : pd_arena_strdup(w->arena, nm);
		struct stat st;

		if (lstat(full, &st) != 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			skipped(w, path, "symbolic link not followed");
		} else if (S_ISDIR(st.st_mode)) {
			if (level < DIR_DEPTH_MAX)
				walk_dir(w, full, path, level + 1);
		} else if (S_ISREG(st.st_mode)) {
			struct fdsrc f = { .w = w, .full = full };

			f.fd = open(full, O_RDONLY | O_NOFOLLOW);
			if (f.fd < 0) {
				struct pd_member_result *r =
				    add_result(w, path, "unknown");

				pd_diag_note(&r->diag, PD_FAILED,
				    "member.unreadable", 0, "cannot open: %s",
				    strerror(errno));
				continue;
			}
			process_member(w, path, st.st_size,
			    (struct pd_source){ fd_read, fd_err, &f, fd_view,
			    fd_whole }, 0);
			fd_close(&f);
		} else {
			skipped(w, path, "device node, fifo or socket ignored");
		}
	}
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
}

void
pd_limits_default(struct pd_limits *l)
{
	l->max_members = 100000;
	l->max_total = 64ull << 30;
	l->max_ratio = 1000;
	l->max_spool = 64ull << 20;
	l->max_depth = 3;
	l->max_line = 1u << 20;
	l->one_thread = false;
	l->term_text = NULL;
}

static int
cmp_result(const void *a, const void *b)
{
	const struct pd_member_result *x = *(struct pd_member_result *const *)a;
	const struct pd_member_result *y = *(struct pd_member_result *const *)b;

	return strcmp(x->path, y->path);
}

static void
sort_results(struct pd_coverage *cov)
{
	if (cov->n_listed < 2)
		return;
	struct pd_member_result **v = pd_xmalloc(cov->n_listed * sizeof(*v));
	unsigned i = 0;

	for (struct pd_member_result *r = cov->members; r; r = r->next)
		v[i++] = r;
	qsort(v, cov->n_listed, sizeof(*v), cmp_result);
	for (i = 0; i + 1 < cov->n_listed; i++)
		v[i]->next = v[i + 1];
	v[cov->n_listed - 1]->next = NULL;
	cov->members = v[0];
	free(v);
}

static const char *
lone_name_of(struct walk *w, const char *path)
{
	const char *base = strrchr(path, '/');

	return pd_arena_strdup(w->arena, base ? base + 1 : path);
}

/* Walks an opened top-level archive; 0 when any member was seen. */
static int
finish(struct walk *w, const char *path, char *err, size_t errlen)
{
	pd_model_join(w->model);
	if (w->netns_members)
		pd_diag_note(&w->cov->bundle, PD_WARN, "bundle.other-netns", 0,
		    "%u members are outputs of other network namespaces "
		    "('ip netns exec %s' ...): identified, not read as this "
		    "host's interfaces", w->netns_members, w->netns_first);
	if (w->cov->n_folded)
		pd_diag_note(&w->cov->bundle, PD_WARN, "bundle.members-folded",
		    0, "%u more members of no format pathdoctor reads, or not "
		    "followed, are counted, not listed (past the first %u "
		    "listed); %u of them have notes", w->cov->n_folded,
		    PD_MEMBERS_LISTED, w->cov->n_folded_noted);
	pd_diag_finish(&w->cov->bundle);
	sort_results(w->cov);
	if (w->cov->n_members == 0) {
		snprintf(err, errlen, "%s: %s", path, w->cov->bundle.notes ?
		    w->cov->bundle.notes->msg :
		    "no members: the bundle is empty");
		return -1;
	}
	return 0;
}

/* Progress lines when main asked for them and stderr is a terminal;
 * the bundle's size when it is a file. */
static void
progress_on(struct walk *w, struct pd_progress *p, const struct stat *st)
{
	if (!w->lim->term_text || !pd_status_on())
		return;
	w->progress = p;
	w->bundle_size = S_ISREG(st->st_mode) ? (uint64_t)st->st_size : 0;
}

int
pd_bundle_read(const char *path, const struct pd_limits *lim,
    struct pd_model *m, struct pd_coverage *cov, char *err, size_t errlen)
{
	struct walk w = { .lim = lim, .model = m, .arena = m->arena,
		.cov = cov, .top = { .owner = &cov->bundle } };
	struct archive *a = NULL;
	struct pd_readahead *ra = NULL;
	struct pd_progress progress;
	struct stat st;
	int rc = -1;

	memset(cov, 0, sizeof(*cov));
	w.cur = &w.top;
	pd_diag_init(&cov->bundle, m->arena, path);
	bool is_stdin = strcmp(path, "-") == 0;

	if ((is_stdin ? fstat(STDIN_FILENO, &st) : stat(path, &st)) != 0) {
		if (!is_stdin) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		st.st_mode = 0;
	}
	progress_on(&w, &progress, &st);
	if (!is_stdin && S_ISDIR(st.st_mode)) {
		walk_dir(&w, path, NULL, 0);
		return finish(&w, path, err, errlen);
	}
	a = archive_read_new();
	archive_formats(a);
	/* stdin always (its xz is bounded there too, and a stall noted),
	 * a compressed file and a large plain one through the readahead */
	if (is_stdin || pd_readahead_wanted(path)) {
		if (pd_readahead_open(a, path, !lim->one_thread, &ra, err,
		    errlen) != 0)
			goto out;
	} else if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		snprintf(err, errlen, "%s: %s", path, archive_error_string(a));
		goto out;
	}
	/* the bundle's compressed bytes: the readahead's when it inflates,
	 * since libarchive then sees plain tar */
	w.top.in_of = ra ? readahead_in : archive_in;
	w.top.in_ctx = ra ? (const void *)ra : a;
	walk_archive(&w, a, NULL, is_stdin ? "stdin" :
	    strip_gz(&w, lone_name_of(&w, path)), 0, &cov->bundle);
	rc = finish(&w, path, err, errlen);
out:
	archive_read_free(a);
	pd_readahead_close(ra);
	pd_status_clear();
	return rc;
}

/* A bundle in memory that is xz'd goes through the bounded decoder, as a
 * file's would. */
struct memxz {
	struct pd_memsrc ms;
	struct pd_unxz *xz;
	unsigned char buf[65536];
};

static la_ssize_t
memxz_read(struct archive *a, void *ctx, const void **out)
{
	struct memxz *x = ctx;
	struct pd_source src = pd_unxz_source(x->xz);
	ssize_t r = src.read(src.ctx, x->buf, sizeof(x->buf));

	if (r < 0) {
		archive_set_error(a, EIO, "%s", src.err(src.ctx));
		return -1;
	}
	*out = x->buf;
	return r;
}

static uint64_t
memxz_in(const void *ctx)
{
	return pd_unxz_in(((const struct memxz *)ctx)->xz);
}

int
pd_bundle_read_memory(const void *data, size_t len, const char *name,
    const struct pd_limits *lim, struct pd_model *m,
    struct pd_coverage *cov, char *err, size_t errlen)
{
	struct walk w = { .lim = lim, .model = m, .arena = m->arena,
		.cov = cov, .top = { .owner = &cov->bundle } };
	struct archive *a = archive_read_new();
	struct memxz *x = NULL;
	int rc = -1;

	memset(cov, 0, sizeof(*cov));
	w.cur = &w.top;
	pd_diag_init(&cov->bundle, m->arena, name);
	archive_formats(a);
	w.top.in_of = archive_in;
	w.top.in_ctx = a;
	if (pd_is_xz(data, len)) {
		x = pd_xmalloc(sizeof(*x));
		x->xz = pd_unxz_new(pd_memsrc(&x->ms, data, len));
		w.top.in_of = memxz_in;
		w.top.in_ctx = x;
	}
	if ((x ? archive_read_open(a, x, NULL, memxz_read, NULL) :
	    archive_read_open_memory(a, data, len)) != ARCHIVE_OK) {
		snprintf(err, errlen, "%s: %s", name, archive_error_string(a));
		goto out;
	}
	walk_archive(&w, a, NULL, strip_gz(&w, name), 0, &cov->bundle);
	rc = finish(&w, name, err, errlen);
out:
	archive_read_free(a);
	if (x)
		pd_unxz_free(x->xz);
	free(x);
	return rc;
}

const char *
pd_member_parse_as(struct pd_model *m, const struct pd_format *f,
    const char *path, const void *data, size_t len, struct pd_diag *diag)
{
	struct pd_memsrc ms;
	struct pd_member mem = { .path = path, .hint_path = path,
		.size = (int64_t)len, .head = data,
		.head_len = len < PD_PEEK_MAX ? len : PD_PEEK_MAX };
	struct pd_input in;

	if (!f)
		f = pd_sniff(&mem, NULL, NULL);
	if (!f->parse)
		return f->name;
	pd_input_init(&in, pd_memsrc(&ms, data, len), NULL, 0, 1u << 20, diag);
	f->parse(&mem, &in, pd_model_host_for_path(m, path), diag);
	pd_input_release(&in);
	pd_model_join(m);
	return f->name;
}

const char *
pd_member_parse_buffer(struct pd_model *m, const char *path,
    const void *data, size_t len, struct pd_diag *diag)
{
	return pd_member_parse_as(m, NULL, path, data, len, diag);
}
