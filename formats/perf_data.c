/* "perf.data": a file written by perf record, file or pipe mode, either
 * byte order, streamed: the part before the data section (header, ids,
 * attributes) is held in memory up to PRE_DATA_MAX, the data section is
 * read one record at a time, the feature sections after it up to
 * FEATURES_MAX.  Samples are parsed by their attribute's sample_type up
 * to the call chain (every field after it is irrelevant here, so RAW,
 * BRANCH_STACK, REGS_*, STACK_USER, WEIGHT and the rest never need
 * decoding); MMAP/MMAP2 give the user mappings, FORK which process
 * runs in whose mappings, LOST the losses;
 * AUXTRACE payloads, tracing data and everything else are skipped by
 * their sizes; perf record -z's batches are decompressed
 * (src/decode/perf_zstd.c) and their records read as the others.  The
 * feature sections, and one profile per event at the end, are in
 * perf_data_meta.c.  Layout: tools/perf/Documentation/
 * perf.data-file-format.txt in the Linux tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode/perf_zstd.h"
#include "decode/profile.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/cursor.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "perf_data.h"

static int
bid_perf_data(const struct pd_member *m)
{
	if (m->head_len < PIPE_HEADER_SIZE)
		return 0;
	if (memcmp(m->head, "PERFILE2", 8) == 0 ||
	    memcmp(m->head, "2ELIFREP", 8) == 0 ||
	    memcmp(m->head, "PERFFILE", 8) == 0)
		return 64;
	return 0;
}

/* Reads exactly n bytes; false at the end or on an error. */
static bool
read_full(struct reader *r, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = pd_input_read(r->in, (unsigned char *)buf + got,
		    n - got);

		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	r->pos += n;
	return true;
}

/* n bytes in place where the input's block holds them, else read into
 * buf; NULL at the end or on an error. */
static const unsigned char *
take(struct reader *r, unsigned char *buf, size_t n)
{
	const unsigned char *p = pd_input_take(r->in, n);

	if (p) {
		r->pos += n;
		return p;
	}
	return read_full(r, buf, n) ? buf : NULL;
}

static bool
skip(struct reader *r, uint64_t n)
{
	while (n > 0) {
		size_t k = n > sizeof(r->rec) ? sizeof(r->rec) : (size_t)n;

		if (!read_full(r, r->rec, k))
			return false;
		n -= k;
	}
	return true;
}

/* The fixed part of a sample, in perf's order (perf_event.h): IDENTIFIER,
 * IP, TID (pid, tid), TIME, ADDR, ID, STREAM_ID, CPU (cpu, res), PERIOD;
 * a word each. */
static void
sample_layout(struct attr *at)
{
	static const uint64_t order[] = { ST_IDENTIFIER, ST_IP, ST_TID,
	    ST_TIME, ST_ADDR, ST_ID, ST_STREAM_ID, ST_CPU, ST_PERIOD };
	uint16_t at_word = 0;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!(at->sample_type & order[i]))
			continue;
		if (order[i] == ST_IP)
			at->at_ip = at_word;
		else if (order[i] == ST_TID)
			at->at_tid = at_word;
		else if (order[i] == ST_CPU)
			at->at_cpu = at_word;
		else if (order[i] == ST_PERIOD)
			at->at_period = at_word;
		at_word += 8;
	}
	at->fixed = at_word;
}

/* A word and a half-word of a sample's fixed part, in the file's order. */
static uint64_t
word_at(const uint8_t *p, bool le)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) ? v :
	    __builtin_bswap64(v);
}

static uint32_t
half_at(const uint8_t *p, bool le)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) ? v :
	    __builtin_bswap32(v);
}

/* perf_event_attr: the fields used here sit in its first 48 bytes. */
static bool
parse_attr(struct reader *r, struct pd_cursor *c, size_t size)
{
	struct pd_cursor a;

	if (size < 48 || pd_cursor_left(c) < size)
		return false;
	pd_cursor_init(&a, pd_cursor_bytes(c, size), size, r->le);
	if (r->n_attrs == ATTRS_MAX)
		return true;
	struct attr *at = &r->attrs[r->n_attrs++];

	at->type = pd_cursor_u32(&a);
	(void)pd_cursor_u32(&a);		/* size */
	at->config = u64_of(&a);
	at->sample_period = u64_of(&a);
	at->sample_type = u64_of(&a);
	at->read_format = u64_of(&a);
	at->freq = (u64_of(&a) >> 10) & 1;	/* flags: bit 10 is freq */
	sample_layout(at);
	return pd_cursor_ok(&a);
}

static void
add_id(struct reader *r, uint64_t id, unsigned attr)
{
	if (r->n_ids >= IDS_MAX)
		return;
	if (!r->ids)
		r->ids = pd_xmalloc(IDS_MAX * sizeof(*r->ids));
	r->ids[r->n_ids++] = (struct id_attr){ id, attr };
}

static int
cmp_id(const void *x, const void *y)
{
	const struct id_attr *a = x, *b = y;

	return a->id < b->id ? -1 : a->id > b->id;
}

/* Where a sample's id sits, from the first attribute (perf requires the
 * same position in every attribute of a file). */
static void
settle_attrs(struct reader *r)
{
	if (r->n_ids)
		qsort(r->ids, r->n_ids, sizeof(*r->ids), cmp_id);
	if (!r->n_attrs)
		return;
	uint64_t st = r->attrs[0].sample_type;

	r->identifier = st & ST_IDENTIFIER;
	r->id_pos = 0;
	if (!r->identifier && (st & ST_ID))
		r->id_pos = 1 + !!(st & ST_IP) + !!(st & ST_TID) +
		    !!(st & ST_TIME) + !!(st & ST_ADDR);
}

static const struct attr *
attr_of(struct reader *r, const unsigned char *rec, size_t len)
{
	if (r->n_attrs <= 1 || (!r->identifier && !r->id_pos))
		return r->n_attrs ? &r->attrs[0] : NULL;
	struct pd_cursor c;
	size_t at = r->identifier ? 0 : (r->id_pos - 1) * 8;

	if (at + 8 > len)
		return NULL;
	pd_cursor_init(&c, rec + at, 8, r->le);
	struct id_attr key = { u64_of(&c), 0 };
	const struct id_attr *f = bsearch(&key, r->ids, r->n_ids,
	    sizeof(*r->ids), cmp_id);

	return f ? &r->attrs[f->attr] : NULL;
}

static struct pd_prof_raw *
attr_raw(struct attr *at)
{
	if (!at->raw)
		at->raw = pd_prof_raw_new();
	return at->raw;
}

static void
skip_read(struct pd_cursor *c, uint64_t rf)
{
	unsigned per = 1 + !!(rf & RF_ID) + !!(rf & RF_LOST);
	uint64_t nr = 1;

	if (rf & RF_GROUP)
		nr = u64_of(c);
	pd_cursor_skip(c, 8 * (!!(rf & RF_ENABLED) + !!(rf & RF_RUNNING)));
	if (nr > pd_cursor_left(c) / 8 / per) {
		pd_cursor_skip(c, pd_cursor_left(c) + 1);	/* bad */
		return;
	}
	pd_cursor_skip(c, nr * per * 8);
}

/* The first PD_PROF_CHAIN of a chain's nr addresses, which the caller
 * found to lie within c: one bounds check, then words as the file
 * orders them (a plain copy where that is the machine's order). */
static void
chain_of(struct pd_cursor *c, uint64_t nr, uint64_t *chain)
{
	unsigned kept = nr < PD_PROF_CHAIN ? (unsigned)nr : PD_PROF_CHAIN;
	const uint8_t *p = pd_cursor_bytes(c, (size_t)kept * 8);
	bool swap = c->le != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);

	if (!p)
		return;
	memcpy(chain, p, (size_t)kept * 8);
	if (swap)
		for (unsigned i = 0; i < kept; i++)
			chain[i] = __builtin_bswap64(chain[i]);
	pd_cursor_skip(c, (size_t)(nr - kept) * 8);
}

static void
sample(struct reader *r, const unsigned char *rec, size_t len,
    unsigned misc)
{
	struct attr *at = (struct attr *)attr_of(r, rec, len);
	struct pd_cursor c;
	uint64_t ip = 0, period, nr = 0;
	uint32_t pid = 0;
	int cpu = -1;

	if (!at) {
		if (!r->unknown_attr_noted)
			pd_diag_note(r->d, PD_WARN, "perf.sample-id", 0,
			    "samples whose id matches no attribute were "
			    "skipped");
		r->unknown_attr_noted = true;
		return;
	}
	uint64_t st = at->sample_type;

	period = at->freq || !at->sample_period ? 1 : at->sample_period;
	pd_cursor_init(&c, rec, len, r->le);
	/* one bounds check for the fixed part (sample_layout) */
	const uint8_t *f = pd_cursor_bytes(&c, at->fixed);

	if (f && (st & ST_IP))
		ip = word_at(f + at->at_ip, r->le);
	if (f && (st & ST_TID))
		pid = half_at(f + at->at_tid, r->le);
	if (f && (st & ST_CPU)) {
		cpu = (int)half_at(f + at->at_cpu, r->le);
		if (cpu < 0 || cpu >= PD_MAX_CPUS)
			cpu = -1;
	}
	if (f && (st & ST_PERIOD))
		period = word_at(f + at->at_period, r->le);
	if (st & ST_READ)
		skip_read(&c, at->read_format);
	if (st & ST_CALLCHAIN)
		nr = u64_of(&c);
	struct queued *q = pd_perf_slot(r, nr < PD_PROF_CHAIN ?
	    (unsigned)nr : PD_PROF_CHAIN);

	if (st & ST_CALLCHAIN) {
		if (nr > pd_cursor_left(&c) / 8)
			pd_cursor_skip(&c, pd_cursor_left(&c) + 1);	/* bad */
		else
			chain_of(&c, nr, q->chain);
	}
	if (!pd_cursor_ok(&c)) {
		r->bad_samples++;
		return;
	}
	q->raw = attr_raw(at);
	q->pid = pid;
	q->cpu = cpu;
	q->mode = (misc & MISC_CPUMODE_MASK) <= PD_MODE_GUEST_USER ?
	    (enum pd_cpumode)(misc & MISC_CPUMODE_MASK) : PD_MODE_UNKNOWN;
	q->period = period;
	q->ip = ip;
	q->has_chain = st & ST_CALLCHAIN;
	q->n = nr < PD_PROF_CHAIN ? (unsigned)nr : PD_PROF_CHAIN;
	pd_perf_commit(r, q);
}

static void
mmap_record(struct reader *r, const unsigned char *rec, size_t len,
    unsigned type, unsigned misc)
{
	struct pd_cursor c;
	char name[4096];

	pd_cursor_init(&c, rec, len, r->le);
	uint32_t pid = pd_cursor_u32(&c);

	(void)pd_cursor_u32(&c);
	uint64_t start = u64_of(&c), size = u64_of(&c), pgoff = u64_of(&c);

	const unsigned char *bid = NULL;
	size_t bid_len = 0;

	if (type == REC_MMAP2 && (misc & MISC_MMAP_BUILD_ID)) {
		bid_len = pd_cursor_u8(&c);
		pd_cursor_skip(&c, 3);
		bid = pd_cursor_bytes(&c, 20);
		pd_cursor_skip(&c, 8);		/* prot, flags */
	} else if (type == REC_MMAP2) {
		pd_cursor_skip(&c, 24 + 8);	/* dev, inode; prot, flags */
	}
	size_t left = pd_cursor_left(&c);
	const unsigned char *fn = pd_cursor_bytes(&c, left);

	if (!pd_cursor_ok(&c) || !fn)
		return;
	size_t n = strnlen((const char *)fn, left);

	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, fn, n);
	name[n] = '\0';
	pd_prof_map(r->maps, pid, start, size, pgoff, name);
	if (bid && bid_len)
		pd_profile_buildid(r->p, r->d->arena, name, bid, bid_len);
}

/* A record's contents, from the file or from a compressed batch. */
static void
contents(struct reader *r, uint32_t type, uint16_t misc,
    const unsigned char *rec, size_t len)
{
	struct pd_cursor c;

	r->p->records++;
	if (type < 128)
		r->by_type[type]++;
	pd_cursor_init(&c, rec, len, r->le);
	switch (type) {
	case REC_SAMPLE:
		sample(r, rec, len, misc);
		break;
	case REC_MMAP:
	case REC_MMAP2:
		mmap_record(r, rec, len, type, misc);
		break;
	case REC_FORK: {
		uint32_t pid = pd_cursor_u32(&c), ppid = pd_cursor_u32(&c);

		if (pd_cursor_ok(&c))
			pd_prof_fork(r->maps, pid, ppid);
		break;
	}
	case REC_LOST:
		(void)u64_of(&c);
		r->p->lost += u64_of(&c);
		break;
	case REC_LOST_SAMPLES:
		r->p->lost += u64_of(&c);
		break;
	case REC_HEADER_ATTR: {
		/* attr (its own size at byte 4), then its ids */
		struct pd_cursor s = c;

		pd_cursor_skip(&s, 4);
		uint32_t asz = pd_cursor_u32(&s);
		unsigned idx = r->n_attrs;

		if (!parse_attr(r, &c, asz))
			break;
		while (pd_cursor_left(&c) >= 8)
			add_id(r, u64_of(&c), idx);
		settle_attrs(r);
		break;
	}
	case REC_HEADER_FEATURE: {
		uint64_t id = u64_of(&c);

		if (pd_cursor_ok(&c))
			pd_perf_feature(r, (unsigned)id, rec + 8, len - 8);
		break;
	}
	default:
		break;
	}
}

static void
unz_record(void *ctx, uint32_t type, uint16_t misc,
    const unsigned char *rec, size_t len)
{
	struct reader *r = ctx;

	/* payloads after a record (AUXTRACE, tracing data) are written
	 * uncompressed by perf, and a batch holds no batch */
	if (type != REC_AUXTRACE && type != REC_HEADER_TRACING_DATA &&
	    type != REC_COMPRESSED && type != REC_COMPRESSED2)
		contents(r, type, misc, rec, len);
}

/* perf record -z: COMPRESSED's body is zstd data, COMPRESSED2's a
 * u64 size and the data.  After a failure the batches are counted,
 * not read. */
static void
compressed(struct reader *r, uint32_t type, const unsigned char *rec,
    size_t len)
{
	const char *why = NULL;

	r->batches++;
	if (r->unz_failed)
		return;
	if (type == REC_COMPRESSED2) {
		struct pd_cursor c;

		pd_cursor_init(&c, rec, len, r->le);
		uint64_t n = u64_of(&c);

		if (!pd_cursor_ok(&c) || n > len - 8) {
			why = "a batch's size is past its record";
			goto failed;
		}
		rec += 8;
		len = (size_t)n;
	}
	if (!r->unz && !(r->unz = pd_perf_unz_new(r->le))) {
		why = "zstd could not start";
		goto failed;
	}
	if (pd_perf_unz_feed(r->unz, rec, len, unz_record, r, &why))
		return;
failed:
	r->unz_failed = why;
}

static void
note_compressed(struct reader *r)
{
	if (r->unz_failed)
		pd_diag_note(r->d, PD_WARN, "perf.compressed", 0, "compressed "
		    "record batches (perf record -z): %s; %llu of %llu batches "
		    "and the records before were read", r->unz_failed,
		    (unsigned long long)r->unz_read,
		    (unsigned long long)r->batches);
	else if (r->unz && pd_perf_unz_pending(r->unz))
		pd_diag_note(r->d, PD_WARN, "perf.compressed", 0, "the last "
		    "compressed batch ends inside a record (%zu bytes left "
		    "out)", pd_perf_unz_pending(r->unz));
}

/* One record from the stream.  false at the end or on a bad size. */
static bool
record(struct reader *r, bool pipe, uint64_t *left)
{
	unsigned char hdr_buf[8];
	const unsigned char *hdr, *rec;
	struct pd_cursor c;

	if ((left && *left < 8) || !(hdr = take(r, hdr_buf, 8)))
		return false;
	pd_cursor_init(&c, hdr, 8, r->le);
	uint32_t type = pd_cursor_u32(&c);
	uint16_t misc = pd_cursor_u16(&c), size = pd_cursor_u16(&c);

	if (size < 8 || (left && size > *left)) {
		pd_diag_note(r->d, PD_WARN, "perf.record-size", 0, "record of "
		    "type %u at byte %llu has size %u%s; the rest of the data "
		    "was not read", type, (unsigned long long)(r->pos - 8),
		    size, left && size > *left ? ", past the data section" :
		    "");
		return false;
	}
	size_t body = size - 8u;

	/* in place while the record lies in the input's block: nothing
	 * below keeps a pointer into it past this record */
	if (!(rec = take(r, r->rec, body)))
		return false;
	if (left)
		*left -= size;
	pd_cursor_init(&c, rec, body, r->le);
	if (type == REC_HEADER_TRACING_DATA) {
		uint32_t n = pd_cursor_u32(&c);

		if (pipe && !skip(r, ((uint64_t)n + 7) & ~(uint64_t)7))
			return false;
	} else if (type == REC_AUXTRACE) {
		uint64_t n = u64_of(&c);	/* payload after the record */

		if (left) {
			if (n > *left)
				return false;
			*left -= n;
		}
		if (!skip(r, n))
			return false;
	} else if (type == REC_COMPRESSED || type == REC_COMPRESSED2) {
		compressed(r, type, rec, body);
		if (!r->unz_failed)
			r->unz_read++;
		return true;
	} else {
		contents(r, type, misc, rec, body);
		return true;
	}
	r->p->records++;
	r->by_type[type]++;
	return true;
}

static void
read_features(struct reader *r, uint64_t data_end, const uint64_t flags[4])
{
	unsigned char *buf = NULL;
	size_t len = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < 256; i++)
		n += (flags[i / 64] >> (i % 64)) & 1;
	if (!n || r->pos != data_end)
		return;
	if (pd_input_slurp(r->in, FEATURES_MAX, &buf, &len) != 0) {
		pd_diag_note(r->d, PD_WARN, "perf.features", 0, "feature "
		    "sections not read: %s", r->in->errmsg);
		return;
	}
	struct pd_cursor t;

	pd_cursor_init(&t, buf, len, r->le);
	for (unsigned i = 0; i < 256; i++) {
		if (!((flags[i / 64] >> (i % 64)) & 1))
			continue;
		uint64_t off = u64_of(&t), size = u64_of(&t);

		if (!pd_cursor_ok(&t))
			break;
		if (off < data_end || !pd_span_ok(off - data_end, size, len)) {
			pd_diag_note(r->d, PD_WARN, "perf.feature-offset", 0,
			    "feature %u points outside the file", i);
			continue;
		}
		pd_perf_feature(r, i, buf + (off - data_end), (size_t)size);
	}
	free(buf);
}

static enum pd_status
parse_file(struct reader *r, const unsigned char *head)
{
	struct pd_cursor c;
	unsigned char *pre = NULL;
	uint64_t flags[4];
	enum pd_status rc = PD_OK;

	pd_cursor_init(&c, head, HEADER_SIZE, r->le);
	pd_cursor_skip(&c, 8);
	uint64_t hsize = u64_of(&c), attr_size = u64_of(&c);
	uint64_t attrs_off = u64_of(&c), attrs_size = u64_of(&c);
	uint64_t data_off = u64_of(&c), data_size = u64_of(&c);

	pd_cursor_skip(&c, 16);		/* event_types */
	for (int i = 0; i < 4; i++)
		flags[i] = u64_of(&c);
	if (hsize < HEADER_SIZE || data_off < HEADER_SIZE ||
	    data_off - HEADER_SIZE > PRE_DATA_MAX || attr_size < 64 ||
	    attr_size > data_off || attrs_off < HEADER_SIZE ||
	    !pd_span_ok(attrs_off, attrs_size, data_off) ||
	    !pd_span_ok(data_off, data_size, UINT64_MAX)) {
		pd_diag_note(r->d, PD_FAILED, "perf.header", 0, "header "
		    "offsets are not those of a perf.data file (attrs at %llu, "
		    "data at %llu)", (unsigned long long)attrs_off,
		    (unsigned long long)data_off);
		return PD_FAILED;
	}
	size_t pre_len = (size_t)(data_off - HEADER_SIZE);

	pre = pd_xmalloc(pre_len + 1);
	if (!read_full(r, pre, pre_len)) {
		pd_diag_note(r->d, PD_FAILED, "perf.truncated", 0, "file ends "
		    "before its data section");
		free(pre);
		return PD_FAILED;
	}
	/* attrs: perf_event_attr then the file section of its ids; o stays
	 * inside [attrs_off, attrs_end], so o += attr_size cannot wrap */
	uint64_t attrs_end = attrs_off + attrs_size;

	for (uint64_t o = attrs_off; pd_span_ok(o, attr_size, attrs_end);
	    o += attr_size) {
		struct pd_cursor a, ids;
		unsigned idx = r->n_attrs;

		pd_cursor_init(&a, pre + (o - HEADER_SIZE), attr_size, r->le);
		if (!parse_attr(r, &a, attr_size - 16))
			break;
		uint64_t ioff = u64_of(&a), isz = u64_of(&a);

		if (ioff < HEADER_SIZE || !pd_span_ok(ioff, isz, data_off))
			continue;
		pd_cursor_init(&ids, pre + (ioff - HEADER_SIZE), isz, r->le);
		while (pd_cursor_left(&ids) >= 8)
			add_id(r, u64_of(&ids), idx);
	}
	free(pre);
	settle_attrs(r);
	if (!r->n_attrs) {
		pd_diag_note(r->d, PD_FAILED, "perf.no-attrs", 0, "no event "
		    "attributes: the samples cannot be decoded");
		return PD_FAILED;
	}
	uint64_t left = data_size;

	while (left > 0 && record(r, false, &left))
		;
	if (left > 0) {
		pd_diag_note(r->d, PD_WARN, "perf.truncated", 0, "data "
		    "section cut short: %llu of %llu bytes read; the samples "
		    "before were used", (unsigned long long)(data_size - left),
		    (unsigned long long)data_size);
		rc = PD_WARN;
	}
	read_features(r, data_off + data_size, flags);
	return rc;
}

static enum pd_status
parse_perf_data(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct reader *r = pd_xmalloc(sizeof(*r));
	unsigned char head[HEADER_SIZE];
	enum pd_status rc = PD_OK;

	/* version 1, perf's first format, differs in its header and
	 * byte-order rules; named, so that the bundle says why it has no
	 * profile */
	if (m->head_len >= 8 && memcmp(m->head, "PERFFILE", 8) == 0) {
		free(r);
		pd_diag_note(d, PD_FAILED, "perf.v1", 0, "perf.data of the "
		    "first format (PERFFILE, before PERFILE2) is not read: "
		    "give perf report --stdio or perf script text of it "
		    "instead");
		return PD_FAILED;
	}
	memset(r, 0, sizeof(*r));
	r->m = m;
	r->in = in;
	r->h = h;
	r->d = d;
	/* a forced read (fuzzing) may come with fewer than 8 head bytes */
	r->le = m->head_len < 8 || memcmp(m->head, "2ELIFREP", 8) != 0;
	if (!read_full(r, head, PIPE_HEADER_SIZE)) {
		free(r);
		return PD_FAILED;
	}
	struct pd_cursor c;

	pd_cursor_init(&c, head + 8, 8, r->le);
	uint64_t hsize = u64_of(&c);

	r->p = pd_host_profile(h, d->arena, m->path, "perf.data");
	r->maps = pd_prof_raw_new();
	r->p->swapped = !r->le;
	r->p->ev = (struct pd_evidence){ .member = m->path, .text =
	    hsize == PIPE_HEADER_SIZE ? "perf.data (pipe mode)" : "perf.data" };
	if (hsize == PIPE_HEADER_SIZE) {
		r->p->pipe_mode = true;
		while (record(r, true, NULL))
			;
	} else if (!read_full(r, head + PIPE_HEADER_SIZE,
	    HEADER_SIZE - PIPE_HEADER_SIZE)) {
		pd_diag_note(d, PD_FAILED, "perf.truncated", 0, "file ends "
		    "inside its header");
		rc = PD_FAILED;
	} else {
		rc = parse_file(r, head);
	}
	note_compressed(r);
	if (r->bad_samples)
		pd_diag_note(d, PD_WARN, "perf.bad-sample", 0, "%llu samples "
		    "were shorter than their attribute's sample_type says and "
		    "were left out", (unsigned long long)r->bad_samples);
	pd_perf_flush(r);
	pd_perf_finish_profiles(r);
	if (rc != PD_FAILED && r->p->samples == 0)
		pd_diag_note(d, PD_WARN, "perf.no-samples", 0, "no samples");
	pd_prof_raw_free(r->maps);
	pd_perf_unz_free(r->unz);
	free(r->ids);
	free(r);
	return rc;
}

static const char *const hints[] = { "perf.data", NULL };

const struct pd_format pd_format_perf_data = {
	.name = "perf.data",
	.summary = "CPU profile written by perf record (file or pipe mode, "
	    "any byte order): samples per symbol, per CPU and core type",
	.command = "perf record -a -g -o perf.data -- sleep 10",
	.hints = hints,
	.gives = PD_HAVE_PROFILE,
	.collect = "perf record -a -g (perf.data with /proc/kallsyms)",
	.bid = bid_perf_data,
	.parse = parse_perf_data,
};
