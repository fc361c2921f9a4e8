/* A bundle's content hash for -f jsonl (README "Fleet"): SHA-256 of a
 * file's bytes or stdin's; of a directory, its regular files in byte
 * order of their relative paths, each as the path, a NUL, the size in
 * decimal, a NUL, then the bytes.  It identifies a bundle whatever its
 * name, so that a database keys rows on it. */
#ifndef PD_FLEET_HASH_H
#define PD_FLEET_HASH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_digest {
	char hex[65];			/* lower case, NUL-terminated */
	uint64_t bytes;			/* hashed; a directory: its files' */
};

struct pd_sha256;			/* an OpenSSL EVP digest context */

struct pd_sha256 *pd_sha256_new(void);	/* NULL when OpenSSL refuses */
/* Why pd_sha256_new gave NULL (OpenSSL missing or refusing). */
const char *pd_sha256_error(void);
void pd_sha256_update(struct pd_sha256 *h, const void *p, size_t n);
/* Fills d and frees h. */
void pd_sha256_end(struct pd_sha256 *h, struct pd_digest *d);

/* Hashes the file or directory at path.  A directory is walked as the
 * bundle walker walks one: symbolic links not followed, devices, fifos
 * and sockets left out, 32 levels deep at most, a file that cannot be
 * opened left out (the walker notes it); at most max_files files.  A
 * path that is neither a regular file nor a directory (a fifo) is not
 * read, since it gives its bytes once.  0, or -1 with err filled. */
int pd_hash_path(const char *path, uint64_t max_files, struct pd_digest *d,
    char *err, size_t errlen);

/* stdin hashed as the analysis reads it: a thread copies fd 0 into a
 * pipe that becomes fd 0, hashing what passes; once the analysis is
 * done, the rest of stdin is read and hashed too, so that the digest is
 * the whole stream's wherever the analysis stopped. */
struct pd_stdin_tee {
	pthread_t thread;
	int src;			/* the real stdin, moved off fd 0 */
	int to;				/* the pipe's end the thread writes */
	struct pd_sha256 *h;
	uint64_t bytes;
	int err;			/* errno of a failed read; 0 */
};

/* 0 when fd 0 is now the tee's pipe; -1 with err filled and fd 0
 * untouched otherwise. */
int pd_stdin_tee_start(struct pd_stdin_tee *t, char *err, size_t errlen);
/* Closes fd 0, waits for the rest of stdin, fills d; 0, or -1 with err
 * filled when stdin could not be read to its end. */
int pd_stdin_tee_end(struct pd_stdin_tee *t, struct pd_digest *d,
    char *err, size_t errlen);

#endif
