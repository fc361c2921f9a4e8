/* perf record -z: PERF_RECORD_COMPRESSED (81) and COMPRESSED2 (83)
 * records hold one zstd stream, cut where perf flushed it, whose bytes
 * are further records; a record may straddle two compressed ones.  This
 * decompresses them in order and hands over each whole record. */
#ifndef PD_DECODE_PERF_ZSTD_H
#define PD_DECODE_PERF_ZSTD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decompressed bytes of one file at most: a bound on the work a small,
 * highly compressed member can ask for (perf's ratio is 5 to 30). */
#define PD_PERF_UNZ_MAX ((uint64_t)16 << 30)

struct pd_perf_unz;

/* One whole record: its header's type and misc, the body after it. */
typedef void pd_perf_unz_fn(void *ctx, uint32_t type, uint16_t misc,
    const unsigned char *body, size_t len);

struct pd_perf_unz *pd_perf_unz_new(bool le);
void pd_perf_unz_free(struct pd_perf_unz *z);
/* Feeds the payload of one compressed record; false, with *why set,
 * when the stream is corrupt or passes PD_PERF_UNZ_MAX (the records
 * before were handed over). */
bool pd_perf_unz_feed(struct pd_perf_unz *z, const unsigned char *src,
    size_t n, pd_perf_unz_fn *fn, void *ctx, const char **why);
/* Bytes decompressed so far, and those of a record cut at the end. */
uint64_t pd_perf_unz_total(const struct pd_perf_unz *z);
size_t pd_perf_unz_pending(const struct pd_perf_unz *z);

#endif
