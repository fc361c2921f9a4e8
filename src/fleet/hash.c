/* The bundle hash of the JSON line contract, kept in one place so that
 * ingest and -f jsonl cannot disagree on what identifies a bundle. */
#define _DEFAULT_SOURCE		/* DT_* of struct dirent */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fleet/hash.h"

#define MAX_FILES 100000	/* as --max-members: a directory bundle */
#define MAX_DEPTH 32

struct walk {
	char **paths;
	size_t n, cap;
};

static int
add(struct walk *w, const char *rel)
{
	if (w->n == MAX_FILES)
		return -1;
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		char **p = realloc(w->paths, cap * sizeof(*p));

		if (!p)
			return -1;
		w->paths = p;
		w->cap = cap;
	}
	if (!(w->paths[w->n] = strdup(rel)))
		return -1;
	w->n++;
	return 0;
}

/* Relative paths of the regular files under root/rel; symbolic links
 * are not followed, as a bundle's reader does not follow them. */
static int
walk(const char *root, const char *rel, struct walk *w, int depth)
{
	char dir[4096];
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (depth > MAX_DEPTH)
		return -1;
	snprintf(dir, sizeof(dir), "%s%s%s", root, *rel ? "/" : "", rel);
	if (!(d = opendir(dir)))
		return -1;
	while (rc == 0 && (e = readdir(d))) {
		char sub[4096], full[4096];
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s%s%s", rel,
		    *rel ? "/" : "", e->d_name) >= sizeof(sub))
			rc = -1;
		else if ((size_t)snprintf(full, sizeof(full), "%s/%s", root,
		    sub) >= sizeof(full) || lstat(full, &st) != 0)
			rc = -1;
		else if (S_ISDIR(st.st_mode))
			rc = walk(root, sub, w, depth + 1);
		else if (S_ISREG(st.st_mode))
			rc = add(w, sub);
	}
	closedir(d);
	return rc;
}

static int
hash_fd(EVP_MD_CTX *md, int fd, uint64_t *bytes)
{
	unsigned char buf[1 << 16];
	ssize_t k;

	while ((k = read(fd, buf, sizeof(buf))) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 || EVP_DigestUpdate(md, buf, (size_t)k) != 1)
			return -1;
		*bytes += (uint64_t)k;
	}
	return 0;
}

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
hash_dir(EVP_MD_CTX *md, const char *root, uint64_t *bytes)
{
	struct walk w = { 0 };
	int rc = walk(root, "", &w, 0);

	qsort(w.paths, w.n, sizeof(*w.paths), cmp);
	for (size_t i = 0; rc == 0 && i < w.n; i++) {
		char full[4096], size[24];
		struct stat st;
		uint64_t got = 0;
		int fd;

		snprintf(full, sizeof(full), "%s/%s", root, w.paths[i]);
		if ((fd = open(full, O_RDONLY)) < 0 || fstat(fd, &st) != 0) {
			rc = -1;
		} else {
			snprintf(size, sizeof(size), "%lld",
			    (long long)st.st_size);
			rc = EVP_DigestUpdate(md, w.paths[i],
			    strlen(w.paths[i]) + 1) != 1 ||
			    EVP_DigestUpdate(md, size, strlen(size) + 1) != 1 ||
			    hash_fd(md, fd, &got) != 0 ? -1 : 0;
			*bytes += got;
		}
		if (fd >= 0)
			close(fd);
	}
	for (size_t i = 0; i < w.n; i++)
		free(w.paths[i]);
	free(w.paths);
	return rc;
}

int
pd_fleet_hash(const char *path, char hex[PD_SHA256_HEX], uint64_t *bytes,
    char *err, size_t n)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned dn = 0;
	struct stat st;
	int rc = -1, fd = -1;

	*bytes = 0;
	errno = 0;
	if (!md || EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1)
		snprintf(err, n, "%s: SHA-256 unavailable", path);
	else if (stat(path, &st) != 0)
		snprintf(err, n, "%s: %s", path, strerror(errno));
	else if (S_ISDIR(st.st_mode) ? hash_dir(md, path, bytes) != 0 :
	    (fd = open(path, O_RDONLY)) < 0 || hash_fd(md, fd, bytes) != 0)
		snprintf(err, n, "%s: %s", path, errno ? strerror(errno) :
		    "could not be read whole");
	else if (EVP_DigestFinal_ex(md, d, &dn) == 1 && dn == 32)
		rc = 0;
	if (fd >= 0)
		close(fd);
	for (unsigned i = 0; rc == 0 && i < dn; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	EVP_MD_CTX_free(md);
	return rc;
}
