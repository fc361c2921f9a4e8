/* A bundle's content hash, as the JSON line gives it. */
#ifndef PD_FLEET_HASH_H
#define PD_FLEET_HASH_H

#include <stddef.h>
#include <stdint.h>

#define PD_SHA256_HEX 65	/* 64 hex digits and the NUL */

/* SHA-256 of a file's bytes; of a directory, its regular files walked
 * in byte order of their relative paths, each hashed as the path, a
 * NUL, the size in decimal, a NUL, then its bytes.  *bytes: the bytes
 * hashed (a directory's: the sum of its file sizes).  -1 with a message
 * in err when the bundle cannot be read. */
int pd_fleet_hash(const char *path, char hex[PD_SHA256_HEX],
    uint64_t *bytes, char *err, size_t n);

#endif
