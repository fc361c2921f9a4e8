/* The content hash of a bundle (hash.h), with OpenSSL's EVP API.  A file
 * is hashed in a pass of its own before the analysis: its bytes reach
 * the walker through libarchive's own open or the readahead's, and
 * hooking both for a hash would tie two readers to this one need; the
 * second read comes from the page cache (README "Fleet" has the cost). */
#define _DEFAULT_SOURCE	/* scandir, alphasort, O_NOFOLLOW */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/dynlib.h"
#include "fleet/hash.h"
#include "pathdoctor/arena.h"

#define DIR_DEPTH_MAX 32	/* as the bundle walker's (bundle.c) */
#define CHUNK 65536

#ifndef PD_SONAME_CRYPTO
#define PD_SONAME_CRYPTO "libcrypto.so.3"
#endif

struct pd_sha256 {
	EVP_MD_CTX *ctx;
};

/* OpenSSL's digest functions, resolved at the first hash */
static struct {
	EVP_MD_CTX *(*EVP_MD_CTX_new)(void);
	void (*EVP_MD_CTX_free)(EVP_MD_CTX *);
	const EVP_MD *(*EVP_sha256)(void);
	int (*EVP_DigestInit_ex)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
	int (*EVP_DigestUpdate)(EVP_MD_CTX *, const void *, size_t);
	int (*EVP_DigestFinal_ex)(EVP_MD_CTX *, unsigned char *,
	    unsigned int *);
} evp;

static const struct pd_dynsym evp_syms[] = {
	PD_DYNSYM(evp, EVP_MD_CTX_new), PD_DYNSYM(evp, EVP_MD_CTX_free),
	PD_DYNSYM(evp, EVP_sha256), PD_DYNSYM(evp, EVP_DigestInit_ex),
	PD_DYNSYM(evp, EVP_DigestUpdate), PD_DYNSYM(evp, EVP_DigestFinal_ex),
	{ NULL, NULL, 0 }
};

static struct pd_dynlib libcrypto = {
	.what = "the bundle hash (SHA-256)",
	.sonames = (const char *const[]){ PD_SONAME_CRYPTO, "libcrypto.so",
	    NULL },
	.syms = evp_syms,
};

const char *
pd_sha256_error(void)
{
	return libcrypto.err[0] ? libcrypto.err :
	    "SHA-256 not available from OpenSSL";
}

struct pd_sha256 *
pd_sha256_new(void)
{
	struct pd_sha256 *h = pd_xmalloc(sizeof(*h));

	if (!pd_dynlib_load(&libcrypto)) {
		free(h);
		return NULL;
	}
	h->ctx = evp.EVP_MD_CTX_new();
	if (!h->ctx || evp.EVP_DigestInit_ex(h->ctx, evp.EVP_sha256(),
	    NULL) != 1) {
		evp.EVP_MD_CTX_free(h->ctx);
		free(h);
		return NULL;
	}
	return h;
}

void
pd_sha256_update(struct pd_sha256 *h, const void *p, size_t n)
{
	evp.EVP_DigestUpdate(h->ctx, p, n);
}

void
pd_sha256_end(struct pd_sha256 *h, struct pd_digest *d)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	evp.EVP_DigestFinal_ex(h->ctx, md, &n);
	for (unsigned i = 0; i < n && i < 32; i++)
		snprintf(d->hex + 2 * i, 3, "%02x", md[i]);
	evp.EVP_MD_CTX_free(h->ctx);
	free(h);
}

/* Reads fd to its end into h; the bytes read, or -1 (errno set). */
static int64_t
hash_fd(struct pd_sha256 *h, int fd, unsigned char *buf)
{
	int64_t total = 0;
	ssize_t r;

	for (;;) {
		r = read(fd, buf, CHUNK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		pd_sha256_update(h, buf, (size_t)r);
		total += r;
	}
	return r < 0 ? -1 : total;
}

/* A directory's regular files, by relative path. */
struct files {
	char **v;
	size_t n, cap;
	uint64_t max;
	bool over;
};

static void
add_file(struct files *f, const char *rel)
{
	if (f->n == f->max) {
		f->over = true;
		return;
	}
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->v = pd_xrealloc(f->v, f->cap * sizeof(*f->v));
	}
	f->v[f->n++] = pd_xstrdup(rel);
}

/* The walker's rules (walk_dir in bundle.c): what it reads is listed. */
static void
list_dir(struct files *f, const char *dir, const char *rel, unsigned level)
{
	struct dirent **ents = NULL;
	int n = scandir(dir, &ents, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		const char *nm = ents[i]->d_name;
		struct stat st;

		if (f->over || strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0)
			continue;
		size_t lf = strlen(dir) + strlen(nm) + 2;
		size_t lr = (rel ? strlen(rel) + 1 : 0) + strlen(nm) + 1;
		char *full = pd_xmalloc(lf), *path = pd_xmalloc(lr);

		snprintf(full, lf, "%s/%s", dir, nm);
		snprintf(path, lr, "%s%s%s", rel ? rel : "", rel ? "/" : "",
		    nm);
		if (lstat(full, &st) != 0)
			st.st_mode = 0;
		if (S_ISDIR(st.st_mode) && level < DIR_DEPTH_MAX)
			list_dir(f, full, path, level + 1);
		else if (S_ISREG(st.st_mode))
			add_file(f, path);
		free(full);
		free(path);
	}
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
}

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One file of a directory: its path, a NUL, its size, a NUL, its bytes.
 * A file that cannot be opened is left out, as the walker reads nothing
 * of it; one whose size changes while it is read fails the hash. */
static int
hash_member(struct pd_sha256 *h, const char *dir, const char *rel,
    unsigned char *buf, uint64_t *bytes, char *err, size_t errlen)
{
	size_t lf = strlen(dir) + strlen(rel) + 2;
	char *full = pd_xmalloc(lf), size[24];
	struct stat st;
	int rc = 0;

	snprintf(full, lf, "%s/%s", dir, rel);
	int fd = open(full, O_RDONLY | O_NOFOLLOW);

	free(full);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		goto out;
	snprintf(size, sizeof(size), "%" PRIu64, (uint64_t)st.st_size);
	pd_sha256_update(h, rel, strlen(rel) + 1);
	pd_sha256_update(h, size, strlen(size) + 1);
	int64_t got = hash_fd(h, fd, buf);

	if (got != (int64_t)st.st_size) {
		snprintf(err, errlen, "%s: %s while hashed", rel, got < 0 ?
		    strerror(errno) : "its size changed");
		rc = -1;
	}
	*bytes += (uint64_t)st.st_size;
out:
	close(fd);
	return rc;
}

static int
hash_dir(struct pd_sha256 *h, const char *path, uint64_t max_files,
    unsigned char *buf, struct pd_digest *d, char *err, size_t errlen)
{
	struct files f = { .max = max_files };
	int rc = 0;

	list_dir(&f, path, NULL, 0);
	if (f.over) {
		snprintf(err, errlen, "more than %" PRIu64 " files: not hashed",
		    max_files);
		rc = -1;
	}
	if (f.n > 1)
		qsort(f.v, f.n, sizeof(*f.v), cmp_path);
	for (size_t i = 0; i < f.n; i++) {
		if (rc == 0)
			rc = hash_member(h, path, f.v[i], buf, &d->bytes, err,
			    errlen);
		free(f.v[i]);
	}
	free(f.v);
	return rc;
}

int
pd_hash_path(const char *path, uint64_t max_files, struct pd_digest *d,
    char *err, size_t errlen)
{
	struct pd_sha256 *h = pd_sha256_new();
	unsigned char *buf = pd_xmalloc(CHUNK);
	struct stat st;
	int fd = -1, rc = -1;

	d->bytes = 0;
	if (!h) {
		snprintf(err, errlen, "%s", pd_sha256_error());
		goto out;
	}
	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		rc = hash_dir(h, path, max_files, buf, d, err, errlen);
	} else if (!S_ISREG(st.st_mode)) {
		/* a fifo (<(cmd)) or device gives its bytes once: the
		 * analysis gets them, and the line no hash */
		snprintf(err, errlen, "%s: not a regular file: not hashed",
		    path);
	} else if ((fd = open(path, O_RDONLY)) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	} else {
		int64_t got = hash_fd(h, fd, buf);

		if (got < 0)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		else
			d->bytes = (uint64_t)got;
		rc = got < 0 ? -1 : 0;
	}
out:
	if (fd >= 0)
		close(fd);
	if (h)
		pd_sha256_end(h, d);
	free(buf);
	return rc;
}

/* The tee's thread: stdin into the pipe while the analysis reads it,
 * then (the pipe closed by the reader) the rest of it, hashed only. */
static void *
tee_main(void *arg)
{
	struct pd_stdin_tee *t = arg;
	unsigned char *buf = pd_xmalloc(CHUNK);
	ssize_t r;

	for (;;) {
		r = read(t->src, buf, CHUNK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		pd_sha256_update(t->h, buf, (size_t)r);
		t->bytes += (uint64_t)r;
		for (ssize_t off = 0; t->to >= 0 && off < r;) {
			ssize_t w = write(t->to, buf + off, (size_t)(r - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {	/* EPIPE: the analysis has all it reads */
				close(t->to);
				t->to = -1;
				break;
			}
			off += w;
		}
	}
	if (r < 0)
		t->err = errno;
	if (t->to >= 0)
		close(t->to);
	t->to = -1;
	free(buf);
	return NULL;
}

int
pd_stdin_tee_start(struct pd_stdin_tee *t, char *err, size_t errlen)
{
	int p[2];

	memset(t, 0, sizeof(*t));
	if (!(t->h = pd_sha256_new())) {
		snprintf(err, errlen, "%s", pd_sha256_error());
		return -1;
	}
	if (pipe(p) != 0)
		goto fail;
	if ((t->src = dup(STDIN_FILENO)) < 0 || dup2(p[0], STDIN_FILENO) < 0)
		goto fail_pipe;
	close(p[0]);
	t->to = p[1];
	if (pthread_create(&t->thread, NULL, tee_main, t) == 0)
		return 0;
	dup2(t->src, STDIN_FILENO);
	close(t->src);
	close(t->to);
	goto fail;
fail_pipe:
	if (t->src >= 0)
		close(t->src);
	close(p[0]);
	close(p[1]);
fail:
	snprintf(err, errlen, "stdin could not be hashed: no pipe or thread "
	    "to hash it through");
	pd_sha256_end(t->h, &(struct pd_digest){ 0 });
	return -1;
}

int
pd_stdin_tee_end(struct pd_stdin_tee *t, struct pd_digest *d, char *err,
    size_t errlen)
{
	close(STDIN_FILENO);	/* the thread's writes fail: it drains */
	pthread_join(t->thread, NULL);
	close(t->src);
	d->bytes = t->bytes;
	pd_sha256_end(t->h, d);
	if (!t->err)
		return 0;
	snprintf(err, errlen, "stdin: %s", strerror(t->err));
	return -1;
}
