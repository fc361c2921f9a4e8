/* See mapped.h.  libarchive is handed the file a piece at a time, each
 * piece where it lies in the mapping; as it is handed the next, the
 * pages before it are let go (the callback's contract: once libarchive
 * asks for the next piece it does not read the previous one again), so
 * that what is resident stays bounded on a file of any size.  A page let go and touched again would only be mapped again
 * from the file.
 *
 * Each piece is mapped in with MADV_POPULATE_READ (Linux 5.14) before it
 * is handed out: one call instead of a fault every 64 KiB, and what
 * would be a SIGBUS on access becomes an error return: a file shorter
 * than when it was mapped ends where it now ends, as a read would see
 * it, and a page that cannot be read is a read error.  Where the kernel
 * has no MADV_POPULATE_READ the walker's own accesses fault the pages
 * in.  A file cut shorter by another program after its pages were
 * populated raises SIGBUS on the walker's next touch of them: that is
 * said, in place of a crash, and pathdoctor exits with 3.
 *
 * No second thread: populating ahead on one (tried) made the 450 MB
 * capture slower, not faster (1.16x), since each page let go then costs
 * a TLB shootdown on the other CPU and each hand-over a wake-up, while
 * the faults it would take off the walker cost it under 1 %. */
#define _GNU_SOURCE		/* MADV_POPULATE_READ */
#include <archive.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bundle/mapped.h"
#include "bundle/readahead.h"
#include "pathdoctor/arena.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* <linux/mman.h>; older headers lack it */
#endif

#define MAP_PIECE (1u << 20)	/* handed to libarchive, and populated, at a
				 * time */

struct pd_mapped {
	int fd;
	const unsigned char *p;
	uint64_t map_len;		/* the mapping's length */
	uint64_t size;			/* where the file ends (it may shrink) */
	uint64_t pos;			/* handed to libarchive up to here */
	uint64_t let_go;		/* pages before this were let go */
	uint64_t page;
	const char *fail;		/* populating failed at size: why */
	bool populating;		/* the kernel has MADV_POPULATE_READ */
	uint64_t populated;		/* pages mapped up to here */
	struct sigaction old_bus;
};

/* What the SIGBUS handler says: set while a file is mapped. */
static char bus_note[512];
static size_t bus_note_len;

static void
on_bus(int sig)
{
	(void)sig;
	(void)!write(STDERR_FILENO, bus_note, bus_note_len);
	_exit(3);
}

static uint64_t
lesser(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Maps [off, off + len) in, or says why not: 0, or an errno. */
static int
populate(const struct pd_mapped *m, uint64_t off, uint64_t len)
{
	for (;;) {
		if (madvise((void *)(m->p + off), (size_t)len,
		    MADV_POPULATE_READ) == 0)
			return 0;
		if (errno != EINTR && errno != EAGAIN)
			return errno;
	}
}

/* After populating failed with e at off: a kernel that cannot (EINVAL,
 * or ENOMEM) leaves the faults to the walker's accesses; a file that
 * shrank ends where it now ends (what a read would see); anything else
 * (EFAULT: a page the kernel could not read) is a read error there. */
static void
failed_at(struct pd_mapped *m, uint64_t off, int e)
{
	struct stat st;

	if (e == EINVAL || e == ENOMEM) {
		m->populating = false;
		return;
	}
	if (e == EFAULT && fstat(m->fd, &st) == 0 &&
	    (uint64_t)st.st_size < m->size) {
		m->size = (uint64_t)st.st_size;
		m->populated = lesser(m->populated, m->size);
		return;
	}
	m->size = off;
	m->fail = e == EFAULT ? "the file's pages could not be read (an I/O "
	    "error?)" : strerror(e);
}

/* Makes [pos, end) safe to read, populated or failed: where the piece
 * may end, and why it ends short (NULL: the file ends there). */
static uint64_t
ready(struct pd_mapped *m, uint64_t end, const char **fail)
{
	while (m->populating && m->populated < lesser(end, m->size)) {
		uint64_t off = m->populated;
		uint64_t len = lesser(MAP_PIECE, m->size - off);
		int e = populate(m, off, len);

		if (e)
			failed_at(m, off, e);
		else
			m->populated = off + len;
	}
	*fail = m->fail;
	return lesser(end, m->size);
}

/* The pages wholly before off go: libarchive is done with them. */
static void
let_go(struct pd_mapped *m, uint64_t off)
{
	uint64_t to = off & ~(m->page - 1);

	if (to <= m->let_go)
		return;
	(void)madvise((void *)(m->p + m->let_go), (size_t)(to - m->let_go),
	    MADV_DONTNEED);
	m->let_go = to;
}

static la_ssize_t
take_piece(struct archive *a, void *ctx, const void **out)
{
	struct pd_mapped *m = ctx;
	uint64_t from = m->pos;
	const char *fail;
	uint64_t end = ready(m, from + MAP_PIECE, &fail);

	if (end <= from) {
		if (!fail)
			return 0;
		archive_set_error(a, EIO, "%s", fail);
		return -1;
	}
	let_go(m, from);
	*out = m->p + from;
	m->pos = end;
	return (la_ssize_t)(end - from);
}

void
pd_mapped_watch(const char *path, struct sigaction *old)
{
	struct sigaction sa;
	int n = snprintf(bus_note, sizeof(bus_note), "pathdoctor: %s: the file "
	    "became shorter while it was read (another program is writing "
	    "it?); read it once it is complete\n", path);

	bus_note_len = n < 0 ? 0 : lesser((size_t)n, sizeof(bus_note) - 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_bus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, old);
}

void
pd_mapped_unwatch(const struct sigaction *old)
{
	sigaction(SIGBUS, old, NULL);
	bus_note_len = 0;
}

/* The mapping and the note for SIGBUS; false (nothing to undo) where the
 * file cannot be mapped. */
static bool
map_file(struct pd_mapped *m, const char *path)
{
	struct stat st;

	if (fstat(m->fd, &st) != 0 || st.st_size <= 0)
		return false;
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
	    m->fd, 0);

	if (p == MAP_FAILED)
		return false;
	m->p = p;
	m->map_len = m->size = (uint64_t)st.st_size;
	m->page = (uint64_t)sysconf(_SC_PAGESIZE);
	m->populating = true;
	pd_mapped_watch(path, &m->old_bus);
	return true;
}

int
pd_mapped_open(struct archive *a, const char *path, struct pd_mapped **out,
    char *err, size_t errlen)
{
	struct pd_mapped *m = pd_xmalloc(sizeof(*m));

	memset(m, 0, sizeof(*m));
	*out = NULL;
	m->fd = open(path, O_RDONLY);
	if (m->fd < 0 || !pd_readahead_plain(m->fd) || !map_file(m, path)) {
		if (m->fd >= 0)
			close(m->fd);
		free(m);
		return 1;
	}
	*out = m;
	if (archive_read_open(a, m, NULL, take_piece, NULL) != ARCHIVE_OK) {
		snprintf(err, errlen, "%s: %s", path, archive_error_string(a));
		pd_mapped_close(m);
		*out = NULL;
		return -1;
	}
	return 0;
}

void
pd_mapped_close(struct pd_mapped *m)
{
	if (!m)
		return;
	munmap((void *)m->p, (size_t)m->map_len);
	pd_mapped_unwatch(&m->old_bus);
	close(m->fd);
	free(m);
}
