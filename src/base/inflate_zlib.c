/* The zlib inflate back end (src/base/inflate.h): the fallback where
 * ISA-L is absent, and the reference the unit tests hold ISA-L to. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "pathdoctor/arena.h"
#include "inflate.h"

struct zinf {
	z_stream zs;
	gz_header head;	/* only for head.done: is the header behind us */
};

static void
z_reset(void *p)
{
	struct zinf *z = p;

	inflateReset(&z->zs);
	memset(&z->head, 0, sizeof(z->head));
	/* inflateReset forgets the header record; ask for it again */
	inflateGetHeader(&z->zs, &z->head);
}

static void *
z_new(void)
{
	struct zinf *z = pd_xmalloc(sizeof(*z));

	memset(z, 0, sizeof(*z));
	/* gzip only, as on ISA-L's side: a member must start with 0x1f
	 * anyway (gunzip.c), which no zlib stream can */
	if (inflateInit2(&z->zs, 15 + 16) != Z_OK) {
		free(z);
		return NULL;
	}
	inflateGetHeader(&z->zs, &z->head);
	return z;
}

static void
z_free(void *p)
{
	struct zinf *z = p;

	if (!z)
		return;
	inflateEnd(&z->zs);
	free(z);
}

/* zlib says Z_DATA_ERROR for every kind; the header record tells a bad
 * header (done is 1 only once a gzip header was read whole), and the
 * trailer's two checks are the only messages naming a "check" after it. */
static enum pd_inflate_rc
z_class(const struct zinf *z)
{
	if (z->head.done != 1)
		return PD_INFLATE_BAD_HEADER;
	if (z->zs.msg && strstr(z->zs.msg, "check"))
		return PD_INFLATE_BAD_CHECK;
	return PD_INFLATE_BAD_DATA;
}

static enum pd_inflate_rc
z_run(void *p, struct pd_inflate_io *io)
{
	struct zinf *z = p;

	z->zs.next_in = (Bytef *)io->next_in;
	z->zs.avail_in = (uInt)io->avail_in;
	z->zs.next_out = io->next_out;
	z->zs.avail_out = (uInt)io->avail_out;
	int rc = inflate(&z->zs, Z_NO_FLUSH);

	io->next_in = z->zs.next_in;
	io->avail_in = z->zs.avail_in;
	io->next_out = z->zs.next_out;
	io->avail_out = z->zs.avail_out;
	switch (rc) {
	case Z_OK:
	case Z_BUF_ERROR:
		return PD_INFLATE_OK;
	case Z_STREAM_END:
		return PD_INFLATE_END;
	case Z_DATA_ERROR:
		return z_class(z);
	case Z_NEED_DICT:
		return PD_INFLATE_BAD_HEADER;
	default:
		return PD_INFLATE_FAILED;
	}
}

/* zlib hands back unused input itself at the end of a stream. */
static size_t
z_held(void *p, unsigned char *out, size_t max)
{
	(void)p;
	(void)out;
	(void)max;
	return 0;
}

const struct pd_inflate_ops pd_inflate_zlib = {
	.name = "zlib", .new = z_new, .free = z_free, .reset = z_reset,
	.run = z_run, .held = z_held,
};
