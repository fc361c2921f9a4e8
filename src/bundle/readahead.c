/* A compressed bundle file (or stdin, whatever it holds) decompressed on
 * a producer thread for the bundle's libarchive handle, which then reads
 * plain tar through its read callback, one block at a time, without
 * copying.  Threaded, a producer fills a ring of RA_BLOCKS blocks ahead
 * of the walker; on one thread the callback fills one block itself.  The
 * bytes, and so the report, are the same either way; a truncated stream
 * gives everything before the cut, then the error.  Memory: RA_BLOCKS *
 * RA_BLOCK bytes, and the decoder's.
 *
 * The decoder is chosen by the stream's first bytes:
 *
 *   1f 8b                          gzip      ISA-L or zlib (gunzip.c)
 *   fd 37 7a 58 5a 00              xz        liblzma, bounded (unxz.c)
 *   28 b5 2f fd, or 5X 2a 4d 18    zstd      libzstd, bounded (unzstd.c)
 *     (a frame, or a skippable frame, as libarchive bids it)
 *   42 5a 68 '1'-'9'   "BZh"       bzip2     libarchive's filters on a
 *   04 22 4d 18, 02 21 4c 18       lz4         handle of their own
 *   4c 5a 49 50        "LZIP"      lzip        (bundle/unfilter.c),
 *   5d|5e, then a power of two     lzma        read through its raw
 *     from 4 KiB to 128 MiB LE       (alone)     format
 *   1f 9d                          compress
 *   ed ab ee db                    rpm
 *   "begin "                       uu
 *   89 4c 5a 4f 00 0d 0a 1a 0a     lzop      the same, through the
 *   "LRZI"                         lrzip       programs libarchive runs
 *   "GRZipII" 00 02 04 3a 29       grzip       for them
 *
 * Anything else passes through to the bundle's handle, whose own filters
 * still bid on it.  (libarchive's gzip filter, read through its raw
 * format, returns nothing at all from a truncated stream, hence gunzip for
 * gzip; xz and zstd are decoded here to bound the memory a header can
 * ask for.) */
#include <archive.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bundle/progress.h"
#include "bundle/readahead.h"
#include "bundle/unfilter.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/input.h"

#define RA_BLOCK (1u << 20)
#define RA_BLOCKS 4

#define STALL_MS 1000	/* stdin this long without data: say so */

struct pd_readahead {
	int fd;
	bool is_stdin;
	unsigned char peek[16];		/* the magic, read to pick a decoder */
	size_t peek_len, peek_pos;
	uint64_t file_in;		/* bytes read from fd */
	char ferr[128];
	struct pd_gunzip *gz;		/* at most one of gz, xz, zs, uf */
	struct pd_unxz *xz;
	struct pd_unzstd *zs;
	struct pd_unfilter *uf;
	struct pd_source src;
	bool threaded;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t filled, emptied;
	unsigned char *buf[RA_BLOCKS];
	size_t len[RA_BLOCKS];
	uint64_t in_at[RA_BLOCKS];	/* compressed bytes behind each block */
	uint64_t taken_in;		/* ... behind the block last taken */
	unsigned head, tail, count;	/* ring: produce at head, take at tail */
	bool holding;			/* the consumer has block tail */
	bool eof, failed, stop;
	char err[256];
};

enum decoder { DEC_NONE, DEC_GZIP, DEC_XZ, DEC_ZSTD, DEC_LIBARCHIVE };

static bool
starts(const unsigned char *p, size_t n, const char *magic, size_t len)
{
	return n >= len && memcmp(p, magic, len) == 0;
}

/* The table above.  A false match costs a copy (libarchive's raw format
 * passes what no filter takes through unchanged); a miss leaves the
 * filter to the walker's thread: neither changes a byte. */
static enum decoder
by_magic(const unsigned char *p, size_t n)
{
	if (pd_is_gzip(p, n))
		return DEC_GZIP;
	if (pd_is_xz(p, n))
		return DEC_XZ;
	if (pd_is_zstd(p, n))
		return DEC_ZSTD;
	if ((starts(p, n, "BZh", 3) && n >= 4 && p[3] >= '1' && p[3] <= '9') ||
	    starts(p, n, "\x04\x22\x4d\x18", 4) ||
	    starts(p, n, "\x02\x21\x4c\x18", 4) ||
	    starts(p, n, "LZIP", 4) || starts(p, n, "\x1f\x9d", 2) ||
	    starts(p, n, "\xed\xab\xee\xdb", 4) ||
	    starts(p, n, "begin ", 6) ||
	    starts(p, n, "\x89LZO\0\r\n\x1a\n", 9) ||
	    starts(p, n, "LRZI", 4) ||
	    starts(p, n, "GRZipII\0\x02\x04:)", 12))
		return DEC_LIBARCHIVE;
	if (n >= 5 && (p[0] == 0x5d || p[0] == 0x5e)) {
		uint32_t dict = (uint32_t)p[1] | (uint32_t)p[2] << 8 |
		    (uint32_t)p[3] << 16 | (uint32_t)p[4] << 24;

		if (dict >= 1u << 12 && dict <= 1u << 27 &&
		    (dict & (dict - 1)) == 0)
			return DEC_LIBARCHIVE;
	}
	return DEC_NONE;
}

/* A large plain file that libarchive reads front to back: a tar, a
 * capture.  (A zip or a 7z is read by seeking to its directory, which a
 * stream through the ring cannot give.)  Not a perf.data: its samples
 * are added on a second thread of their own (formats/perf_data_queue.c),
 * and a third made the 33 MB perf.data of tests/bench-profile.sh 1.2x
 * slower than libarchive's reads on the walker's thread (45.0 ms against
 * 36.7, medians of 11 interleaved runs). */
static bool
plain_streamed(const unsigned char *h, size_t n)
{
	static const unsigned char magics[][4] = {
		{ 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xd4, 0xc3, 0xb2, 0xa1 },
		{ 0xa1, 0xb2, 0x3c, 0x4d }, { 0x4d, 0x3c, 0xb2, 0xa1 },
		{ 0x0a, 0x0d, 0x0d, 0x0a },
	};

	if (n >= 262 && memcmp(h + 257, "ustar", 5) == 0)
		return true;
	for (size_t i = 0; n >= 4 && i < sizeof(magics) / sizeof(magics[0]);
	    i++)
		if (memcmp(h, magics[i], 4) == 0)
			return true;
	return false;
}

/* A compressed file, or a large plain one read front to back: on a
 * second thread the plain file's reads overlap the analysis, the ring's
 * 1 MiB reads replace libarchive's 10 KiB ones, and the walker reads
 * blocks the copy has just warmed.  Not mapped: on the 2-core
 * development machine (a virtual machine) touching each cache line of
 * the 450 MB capture of tests/bench.sh took 165 to 250 ms through a
 * mapping (populated a MiB at a time or not) against 40 to 48 ms read
 * into a 1 MiB buffer, copy included, and the mapped capture took 1.9x
 * the time of the ring's (medians of 11 interleaved runs; 1.6x on one
 * thread).  Below this size the thread does not pay for itself. */
#define RA_PLAIN_MIN (8u << 20)

/* The first bytes of fd (its offset left where it was), and whether it
 * is a regular file of RA_PLAIN_MIN bytes or more. */
static ssize_t
head_of(int fd, unsigned char *head, size_t n, bool *big)
{
	struct stat st;

	*big = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size >= (off_t)RA_PLAIN_MIN;
	return pread(fd, head, n, 0);
}

bool
pd_readahead_wanted(const char *path)
{
	unsigned char head[512];
	int fd = open(path, O_RDONLY);
	bool big;
	ssize_t n;

	if (fd < 0)
		return false;
	n = head_of(fd, head, sizeof(head), &big);
	close(fd);
	if (n <= 0)
		return false;
	return by_magic(head, (size_t)n) != DEC_NONE ||
	    (big && plain_streamed(head, (size_t)n));
}

/* A pipe that gives nothing for a while may be a terminal or a stalled
 * producer: a person at a terminal hears that stdin is read to its end,
 * on the status line, for as long as it stays silent. */
static void
wait_notice(struct pd_readahead *r)
{
	struct pollfd p = { .fd = r->fd, .events = POLLIN };

	if (!r->is_stdin || !pd_status_on() || poll(&p, 1, STALL_MS) != 0)
		return;
	pd_status_show("pathdoctor: waiting for input on stdin (read to its "
	    "end)");
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	pd_status_clear();
}

static ssize_t
file_read(void *ctx, void *buf, size_t n)
{
	struct pd_readahead *r = ctx;
	ssize_t k;

	if (r->peek_pos < r->peek_len) {
		k = (ssize_t)(r->peek_len - r->peek_pos);
		if ((size_t)k > n)
			k = (ssize_t)n;
		memcpy(buf, r->peek + r->peek_pos, (size_t)k);
		r->peek_pos += (size_t)k;
		return k;
	}
	wait_notice(r);
	do
		k = read(r->fd, buf, n);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		snprintf(r->ferr, sizeof(r->ferr), "%s", strerror(errno));
	else
		r->file_in += (uint64_t)k;
	return k;
}

static const char *
file_err(void *ctx)
{
	return ((struct pd_readahead *)ctx)->ferr;
}

/* Compressed bytes the decoder has taken (the file's, undecoded). */
static uint64_t
src_in(const struct pd_readahead *r)
{
	if (r->gz)
		return pd_gunzip_in(r->gz);
	if (r->xz)
		return pd_unxz_in(r->xz);
	if (r->zs)
		return pd_unzstd_in(r->zs);
	if (r->uf)
		return pd_unfilter_in(r->uf);
	return r->file_in;
}

/* Reads the magic (a pipe may give it a byte at a time) and picks the
 * decoder; what is no known filter is passed through for libarchive's
 * own filters. */
static void
pick_decoder(struct pd_readahead *r)
{
	struct pd_source file = { file_read, file_err, r, NULL, NULL };

	while (r->peek_len < sizeof(r->peek)) {
		ssize_t k = file_read(r, r->peek + r->peek_len,
		    sizeof(r->peek) - r->peek_len);

		if (k <= 0)
			break;
		r->peek_len += (size_t)k;
	}
	switch (by_magic(r->peek, r->peek_len)) {
	case DEC_GZIP:
		r->gz = pd_gunzip_new(file);
		r->src = pd_gunzip_source(r->gz);
		break;
	case DEC_XZ:
		r->xz = pd_unxz_new(file);
		r->src = pd_unxz_source(r->xz);
		break;
	case DEC_ZSTD:
		r->zs = pd_unzstd_new(file);
		r->src = pd_unzstd_source(r->zs);
		break;
	case DEC_LIBARCHIVE:
		r->uf = pd_unfilter_new(file);
		r->src = pd_unfilter_source(r->uf);
		break;
	case DEC_NONE:
		r->src = file;
		break;
	}
}

/* Fills one block; the length, and eof or failed set on the way. */
static size_t
fill(struct pd_readahead *r, unsigned char *buf, bool *eof, bool *failed,
    char *err, size_t errlen)
{
	size_t len = 0;

	while (len < RA_BLOCK) {
		ssize_t n = r->src.read(r->src.ctx, buf + len, RA_BLOCK - len);

		if (n < 0) {
			*failed = true;
			snprintf(err, errlen, "%s", r->src.err(r->src.ctx));
			break;
		}
		if (n == 0) {
			*eof = true;
			break;
		}
		len += (size_t)n;
	}
	return len;
}

static void *
produce(void *arg)
{
	struct pd_readahead *r = arg;

	for (;;) {
		bool eof = false, failed = false;
		char err[sizeof(r->err)] = "";

		pthread_mutex_lock(&r->mu);
		while (r->count == RA_BLOCKS && !r->stop)
			pthread_cond_wait(&r->emptied, &r->mu);
		if (r->stop) {
			pthread_mutex_unlock(&r->mu);
			return NULL;
		}
		unsigned i = r->head;

		pthread_mutex_unlock(&r->mu);
		size_t len = fill(r, r->buf[i], &eof, &failed, err, sizeof(err));
		uint64_t in = src_in(r);

		pthread_mutex_lock(&r->mu);
		r->len[i] = len;
		r->in_at[i] = in;
		if (len > 0) {
			r->head = (r->head + 1) % RA_BLOCKS;
			r->count++;
		}
		r->eof = eof;
		if (failed) {
			r->failed = true;
			memcpy(r->err, err, sizeof(r->err));
		}
		pthread_cond_signal(&r->filled);
		pthread_mutex_unlock(&r->mu);
		if (eof || failed)
			return NULL;
	}
}

/* The read callback on one thread: fill block 0 in place. */
static la_ssize_t
take_here(struct archive *a, void *ctx, const void **out)
{
	struct pd_readahead *r = ctx;
	bool eof = false, failed = false;
	size_t n;

	if (r->eof || r->failed) {
		if (r->failed)
			archive_set_error(a, EIO, "%s", r->err);
		return r->failed ? -1 : 0;
	}
	n = fill(r, r->buf[0], &eof, &failed, r->err, sizeof(r->err));
	r->eof = eof;
	r->failed = failed;
	r->taken_in = src_in(r);
	if (n == 0 && failed) {
		archive_set_error(a, EIO, "%s", r->err);
		return -1;
	}
	*out = r->buf[0];
	return (la_ssize_t)n;
}

/* The read callback with a producer: take the next block of the ring. */
static la_ssize_t
take(struct archive *a, void *ctx, const void **out)
{
	struct pd_readahead *r = ctx;
	la_ssize_t n = 0;

	pthread_mutex_lock(&r->mu);
	if (r->holding) {
		r->tail = (r->tail + 1) % RA_BLOCKS;
		r->count--;
		r->holding = false;
		pthread_cond_signal(&r->emptied);
	}
	while (r->count == 0 && !r->eof && !r->failed)
		pthread_cond_wait(&r->filled, &r->mu);
	if (r->count > 0) {
		r->holding = true;
		*out = r->buf[r->tail];
		n = (la_ssize_t)r->len[r->tail];
		r->taken_in = r->in_at[r->tail];
	} else if (r->failed) {
		archive_set_error(a, EIO, "%s", r->err);
		n = -1;
	}
	pthread_mutex_unlock(&r->mu);
	return n;
}

int
pd_readahead_open(struct archive *a, const char *path, bool threaded,
    struct pd_readahead **out, char *err, size_t errlen)
{
	struct pd_readahead *r = pd_xmalloc(sizeof(*r));
	unsigned made = 0;

	memset(r, 0, sizeof(*r));
	*out = NULL;
	r->is_stdin = strcmp(path, "-") == 0;
	r->fd = r->is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
	if (r->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(r);
		return -1;
	}
	pick_decoder(r);
	r->threaded = threaded;
	for (; made < (threaded ? RA_BLOCKS : 1); made++)
		r->buf[made] = pd_xmalloc(RA_BLOCK);
	if (threaded) {
		pthread_mutex_init(&r->mu, NULL);
		pthread_cond_init(&r->filled, NULL);
		pthread_cond_init(&r->emptied, NULL);
		if (pthread_create(&r->thread, NULL, produce, r) != 0) {
			/* no thread to be had: decompress here instead */
			pthread_cond_destroy(&r->emptied);
			pthread_cond_destroy(&r->filled);
			pthread_mutex_destroy(&r->mu);
			r->threaded = false;
		}
	}
	*out = r;
	if (archive_read_open(a, r, NULL, r->threaded ? take : take_here,
	    NULL) != ARCHIVE_OK) {
		snprintf(err, errlen, "%s: %s", path, archive_error_string(a));
		pd_readahead_close(r);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* Counted per block handed over, not as the producer reads, so that the
 * ratio cap fires at the same byte with or without the thread. */
uint64_t
pd_readahead_in(const struct pd_readahead *r)
{
	return r->taken_in;
}

void
pd_readahead_close(struct pd_readahead *r)
{
	if (!r)
		return;
	if (r->threaded) {
		pthread_mutex_lock(&r->mu);
		r->stop = true;
		pthread_cond_signal(&r->emptied);
		pthread_mutex_unlock(&r->mu);
		pthread_join(r->thread, NULL);
		pthread_cond_destroy(&r->emptied);
		pthread_cond_destroy(&r->filled);
		pthread_mutex_destroy(&r->mu);
	}
	for (unsigned i = 0; i < RA_BLOCKS; i++)
		free(r->buf[i]);
	pd_gunzip_free(r->gz);
	pd_unxz_free(r->xz);
	pd_unzstd_free(r->zs);
	pd_unfilter_free(r->uf);
	if (!r->is_stdin)
		close(r->fd);
	free(r);
}
