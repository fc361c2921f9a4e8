/* Streaming TCP analysis of one interface's packets; see capture.h. */
#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/ifpath.h"
#include "decode/capture.h"
#include "decode/packet.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"

#define EXACT_SIZES 65536	/* payload sizes counted in a flat array */
#define DUP_WINDOW 0.001	/* s: the same segment again this soon */
#define DUP_ID_WINDOW 0.5	/* s: the same IP ID again this soon */
#define RECENT 8		/* segments remembered per direction */
#define TABLE_MIN 64		/* flow slots at first; doubled by use */
#define EXACT_MIN 2048		/* exact-size counters at first */

struct recent {
	uint32_t seq, span, hash;
	uint16_t id;
	double ts;
};

struct seqstate {
	bool init;
	uint32_t nxt;			/* highest sequence sent + 1 */
	uint16_t win;
	uint16_t last_id;		/* IP ID of the last segment */
	bool last_was_data;
	uint32_t id_steps, id_ones;	/* ID deltas seen, and those of 1 */
	double last_data_ts;
	double nxt_ts;			/* when nxt last moved on */
	uint32_t lastack;		/* of the last ACK sent this way */
	double lastack_ts;
	uint32_t dupacks;		/* in a row, tshark's way */
	struct recent r[RECENT];	/* ring of the last segments */
	unsigned r_next;
};

struct slot {
	bool used;
	struct pd_flow f;
	struct seqstate s[2];
	double syn_ts, irtt;		/* the handshake's, tshark's iRTT */
	int syn_dir;			/* -1 until a SYN without ACK */
	bool synack;
};

struct pd_capture_state {
	struct pd_capture *cap;
	struct slot *table;		/* n_slots slots, a power of two */
	struct slot *last;		/* of the previous packet; NULL after rehash */
	unsigned used, n_slots;
	uint64_t *exact;		/* n_exact counters, up to EXACT_SIZES */
	uint32_t n_exact;
	struct pd_size_count big[PD_CAPTURE_SIZES];	/* sizes >= 64 KiB */
	unsigned n_big;
	struct pd_flow done[PD_CAPTURE_FLOWS];	/* evicted, bytes desc */
	unsigned n_done;
};

static int
seq_lt(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

unsigned
pd_size_bucket(uint32_t bytes)
{
	uint32_t v = bytes >> 6;

	if (bytes == 0)
		return 0;
	if (v == 0)
		return 1;
	/* 1 + the bits of v: one more bucket for each doubling */
	unsigned b = 1 + (32 - (unsigned)__builtin_clz(v));

	return b < PD_SIZE_BUCKETS - 1 ? b : PD_SIZE_BUCKETS - 1;
}

/* Addresses compared as numbers where they fit one (IPv4): memcmp's
 * call was a twentieth of the per-packet cost. */
static int
addr_cmp(const uint8_t *x, const uint8_t *y, int family)
{
	if (family == 4) {
		uint32_t a = (uint32_t)x[0] << 24 | (uint32_t)x[1] << 16 |
		    (uint32_t)x[2] << 8 | x[3];
		uint32_t b = (uint32_t)y[0] << 24 | (uint32_t)y[1] << 16 |
		    (uint32_t)y[2] << 8 | y[3];

		return (a > b) - (a < b);
	}
	return memcmp(x, y, 16);
}

void
pd_flow_key_of(const struct pd_pkt *p, struct pd_flow_key *k, int *dir)
{
	int c = addr_cmp(p->src, p->dst, p->family);

	memset(k, 0, sizeof(*k));
	k->family = p->family;
	*dir = c > 0 || (c == 0 && p->sport > p->dport);
	/* copies of a constant size: a move each, not a call */
	if (p->family == 4) {
		memcpy(k->a, *dir ? p->dst : p->src, 4);
		memcpy(k->b, *dir ? p->src : p->dst, 4);
	} else {
		memcpy(k->a, *dir ? p->dst : p->src, 16);
		memcpy(k->b, *dir ? p->src : p->dst, 16);
	}
	k->pa = *dir ? p->dport : p->sport;
	k->pb = *dir ? p->sport : p->dport;
}

/* Word by word, padding too (keys are made whole by memset): the same
 * as memcmp == 0, without its call. */
static inline bool
key_eq(const struct pd_flow_key *x, const struct pd_flow_key *y)
{
	const unsigned char *p = (const void *)x, *q = (const void *)y;
	uint64_t diff = 0, u, v;
	size_t i = 0;

	for (; i + 8 <= sizeof(*x); i += 8) {
		memcpy(&u, p + i, 8);
		memcpy(&v, q + i, 8);
		diff |= u ^ v;
	}
	if (i < sizeof(*x)) {
		memcpy(&u, p + sizeof(*x) - 8, 8);
		memcpy(&v, q + sizeof(*x) - 8, 8);
		diff |= u ^ v;
	}
	return diff == 0;
}

bool
pd_flow_key_eq(const struct pd_flow_key *x, const struct pd_flow_key *y)
{
	return key_eq(x, y);
}

void
pd_flow_key_fmt(char *buf, size_t n, const struct pd_flow_key *k)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	int af = k->family == 4 ? AF_INET : AF_INET6;

	inet_ntop(af, k->a, a, sizeof(a));
	inet_ntop(af, k->b, b, sizeof(b));
	if (k->family == 4)
		snprintf(buf, n, "%s:%u <-> %s:%u", a, k->pa, b, k->pb);
	else
		snprintf(buf, n, "[%s]:%u <-> [%s]:%u", a, k->pa, b, k->pb);
}

static uint32_t
hash_key(const struct pd_flow_key *k)
{
	/* 8 bytes at a time, multiply-xorshift mixing: a byte-wise hash
	 * was half of the per-packet cost */
	const uint8_t *p = (const uint8_t *)k;
	uint64_t h = 0x9e3779b97f4a7c15u, w;
	size_t i = 0;

	for (; i + 8 <= sizeof(*k); i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, p + i, sizeof(*k) - i);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	return (uint32_t)(h ^ h >> 29);
}

/* Flow slots held by the capture states alive on this thread: a pcapng
 * file's interfaces, analysed at once, share one table's worth, so that
 * memory stays bounded whatever the number of interfaces and flows. */
static _Thread_local unsigned live_slots;

struct pd_capture_state *
pd_capture_begin(struct pd_capture *cap)
{
	struct pd_capture_state *st = pd_xmalloc(sizeof(*st));

	memset(st, 0, sizeof(*st));
	st->cap = cap;
	/* small at first and grown by use: a file of many interfaces, or
	 * of few packets, must not cost a full table each */
	st->n_slots = TABLE_MIN;
	st->table = pd_xmalloc(TABLE_MIN * sizeof(*st->table));
	live_slots += TABLE_MIN;
	memset(st->table, 0, TABLE_MIN * sizeof(*st->table));
	st->n_exact = EXACT_MIN;
	st->exact = pd_xmalloc(EXACT_MIN * sizeof(*st->exact));
	memset(st->exact, 0, EXACT_MIN * sizeof(*st->exact));
	cap->first_ts = -1;
	return st;
}

/* Counts a payload size exactly, the array grown to the next power of
 * two that holds it (at most EXACT_SIZES). */
static void
count_exact(struct pd_capture_state *st, uint32_t bytes)
{
	if (bytes >= st->n_exact) {
		uint32_t n = st->n_exact;

		while (n <= bytes)
			n *= 2;
		st->exact = pd_xrealloc(st->exact, n * sizeof(*st->exact));
		memset(st->exact + st->n_exact, 0, (n - st->n_exact) *
		    sizeof(*st->exact));
		st->n_exact = n;
	}
	st->exact[bytes]++;
}

static void
count_big(struct pd_capture_state *st, uint32_t bytes)
{
	for (unsigned i = 0; i < st->n_big; i++)
		if (st->big[i].bytes == bytes) {
			st->big[i].count++;
			return;
		}
	if (st->n_big < PD_CAPTURE_SIZES)
		st->big[st->n_big++] = (struct pd_size_count){ bytes, 1 };
	else
		st->cap->sizes.other++;
}

/* A bulk flow sends one size (its MSS, or its GSO size) nearly always,
 * so the entry counted last is tried before the search. */
static void
flow_size(struct pd_flow_dir *d, uint32_t bytes)
{
	struct pd_size_count *last = &d->sizes[d->last_size];

	if (d->last_size < d->n_sizes && last->bytes == bytes) {
		last->count++;
		return;
	}
	for (unsigned i = 0; i < d->n_sizes; i++)
		if (d->sizes[i].bytes == bytes) {
			d->sizes[i].count++;
			d->last_size = i;
			return;
		}
	if (d->n_sizes < PD_FLOW_SIZES) {
		d->last_size = d->n_sizes;
		d->sizes[d->n_sizes++] = (struct pd_size_count){ bytes, 1 };
	} else {
		d->sizes_other++;
	}
}

static uint64_t
flow_bytes(const struct pd_flow *f)
{
	return f->dir[0].bytes + f->dir[1].bytes;
}

/* Busier first; among equals the earlier, then the lower key, so the
 * order does not hang on where the flows sat in the table. */
static bool
flow_before(const struct pd_flow *x, const struct pd_flow *y)
{
	if (flow_bytes(x) != flow_bytes(y))
		return flow_bytes(x) > flow_bytes(y);
	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts;
	return memcmp(&x->key, &y->key, sizeof(x->key)) < 0;
}

/* Keeps the n busiest flows of a list sorted by flow_before. */
static void
offer_flow(struct pd_flow *list, unsigned *n, const struct pd_flow *f)
{
	unsigned i = *n;

	if (i == PD_CAPTURE_FLOWS) {
		if (!flow_before(f, &list[i - 1]))
			return;
		i--;
	} else {
		(*n)++;
	}
	while (i > 0 && flow_before(f, &list[i - 1])) {
		list[i] = list[i - 1];
		i--;
	}
	list[i] = *f;
}

static int
cmp_slot_recent(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->used != y->used)
		return x->used ? -1 : 1;
	return x->f.last_ts > y->f.last_ts ? -1 : x->f.last_ts < y->f.last_ts;
}

static void
place(struct slot *table, unsigned n_slots, const struct slot *s)
{
	uint32_t h = hash_key(&s->f.key) & (n_slots - 1);

	while (table[h].used)
		h = (h + 1) & (n_slots - 1);
	table[h] = *s;
}

/* At its size: the most recently seen half of the flows stays, placed
 * again in the same table (only that half is copied aside), and the
 * rest leave it, the busiest of them kept in the results. */
static void
evict(struct pd_capture_state *st)
{
	unsigned n = st->n_slots, keep = n / 2, k = 0;
	struct slot *kept = pd_xmalloc(keep * sizeof(*kept));

	qsort(st->table, n, sizeof(*st->table), cmp_slot_recent);
	for (unsigned i = 0; i < n; i++) {
		if (!st->table[i].used)
			continue;
		if (i >= keep) {
			offer_flow(st->done, &st->n_done, &st->table[i].f);
			st->cap->flows_evicted++;
			continue;
		}
		kept[k++] = st->table[i];
	}
	memset(st->table, 0, n * sizeof(*st->table));
	for (unsigned i = 0; i < k; i++)
		place(st->table, n, &kept[i]);
	free(kept);
	st->used = k;
	st->last = NULL;
}

/* Below PD_FLOW_TABLE slots, and while the live states hold fewer than
 * that, the table doubles; else it evicts. */
static void
rehash(struct pd_capture_state *st)
{
	struct slot *old = st->table;
	unsigned n_old = st->n_slots, n = n_old * 2;

	if (n_old >= PD_FLOW_TABLE || live_slots + n_old > PD_FLOW_TABLE) {
		evict(st);
		return;
	}
	struct slot *fresh = pd_xmalloc(n * sizeof(*fresh));

	memset(fresh, 0, n * sizeof(*fresh));
	st->used = 0;
	for (unsigned i = 0; i < n_old; i++) {
		if (!old[i].used)
			continue;
		place(fresh, n, &old[i]);
		st->used++;
	}
	free(old);
	live_slots += n - n_old;
	st->table = fresh;
	st->n_slots = n;
	st->last = NULL;
}

static struct slot *
find_slot(struct pd_capture_state *st, const struct pd_flow_key *k, double ts)
{
	uint32_t h = hash_key(k) & (st->n_slots - 1);

	for (;;) {
		struct slot *s = &st->table[h];

		if (!s->used)
			break;
		if (key_eq(&s->f.key, k))
			return s;
		h = (h + 1) & (st->n_slots - 1);
	}
	if (st->used >= st->n_slots * 3 / 4) {
		rehash(st);
		return find_slot(st, k, ts);
	}
	struct slot *s = &st->table[h];

	memset(s, 0, sizeof(*s));
	s->used = true;
	s->syn_dir = -1;
	s->f.key = *k;
	s->f.first_ts = ts;
	st->used++;
	st->cap->flows_seen++;
	return s;
}

static inline bool
same_ends(const uint8_t *ka, const uint8_t *kb, const uint8_t *x,
    const uint8_t *y, int family)
{
	/* sizes constant in each branch: compares inlined, not calls */
	if (family == 4)
		return memcmp(ka, x, 4) == 0 && memcmp(kb, y, 4) == 0;
	return memcmp(ka, x, 16) == 0 && memcmp(kb, y, 16) == 0;
}

/* Whether p is of the flow of key k, one way (k's a end is p's
 * source) or the other; *dir as pd_flow_key_of would set it.  Read
 * from the packet's fields, not from a key built of them: a key just
 * written in pieces and read back whole waits for each piece to leave
 * the store buffer (store forwarding cannot join them): a fifth of
 * this function's time, and reading the fields instead took the
 * benchmark capture of tests/bench.sh to 0.89x the time with
 * --one-thread. */
static bool
same_flow(const struct pd_flow_key *k, const struct pd_pkt *p, int *dir)
{
	if (k->family != p->family)
		return false;
	/* a key is in canonical order (pd_flow_key_of), so a packet that
	 * matches its a end as source has direction 0, and one matching
	 * both ways (same address and port at each end) does too */
	if (k->pa == p->sport && k->pb == p->dport &&
	    same_ends(k->a, k->b, p->src, p->dst, p->family)) {
		*dir = 0;
		return true;
	}
	if (k->pa == p->dport && k->pb == p->sport &&
	    same_ends(k->a, k->b, p->dst, p->src, p->family)) {
		*dir = 1;
		return true;
	}
	return false;
}

/* The slot of p's flow, and p's direction in it. */
static struct slot *
lookup(struct pd_capture_state *st, const struct pd_pkt *p, double ts,
    int *dir)
{
	struct pd_flow_key k;

	/* bulk traffic comes in runs of one flow */
	if (st->last && same_flow(&st->last->f.key, p, dir))
		return st->last;
	pd_flow_key_of(p, &k, dir);
	st->last = find_slot(st, &k, ts);
	return st->last;
}

static void
stall(struct pd_capture *cap, double ts, double gap)
{
	unsigned i = cap->n_stalls;

	cap->n_stall_events++;
	cap->stall_time += gap;
	if (i == PD_CAPTURE_STALLS) {
		if (cap->stalls[i - 1].gap >= gap)
			return;
		i--;
	} else {
		cap->n_stalls++;
	}
	while (i > 0 && cap->stalls[i - 1].gap < gap) {
		cap->stalls[i] = cap->stalls[i - 1];
		i--;
	}
	cap->stalls[i] = (struct pd_stall){ ts, gap };
}

/* The same IP packet captured twice (span ports and capture hardware do
 * that, sometimes milliseconds apart and stamped in either order): the
 * same IP ID, the same TCP bytes (header and payload as captured), and
 * close in time: within 0.5 s when the ID is not zero, within 1 ms when
 * it is (IPv6, or Linux's ID 0 with DF), where the bytes alone must
 * tell.  A sender's retransmission takes a new ID, or new ACK, window,
 * timestamps and checksum; on loopback it can come within a millisecond
 * with ID 0, and only the bytes tell it from a copy. */
static bool
captured_twice(const struct seqstate *s, const struct pd_pkt *p,
    uint32_t span, double ts)
{
	for (unsigned i = 0; i < RECENT; i++) {
		const struct recent *r = &s->r[i];

		if (r->span != span || r->seq != p->seq || r->id != p->ip_id ||
		    r->hash != p->tcp_hash)
			continue;
		if (fabs(ts - r->ts) < (p->ip_id ? DUP_ID_WINDOW : DUP_WINDOW))
			return true;
	}
	return false;
}

/* Senders that number IP IDs one per segment (Linux for connected
 * sockets, most stacks with DF) leave gaps where segments were lost
 * before the capture point, which sequence numbers alone cannot show at
 * the receiver.  Only steps from one data segment to the next count:
 * pure ACKs skip IDs without any loss (seen with Linux receivers).
 * Trusted once nine in ten of at least 16 steps are 1.
 * A silence of an RTO or more that ends with a gap is a stall when the
 * sender was streaming before it (the segments in the ring all within
 * BULK_WINDOW): request/response traffic also falls silent with a gap
 * when the host's counter is shared, and is no loss. */
#define ID_TRUST_STEPS 16
#define ID_GAP_MAX 4096
#define BULK_WINDOW 0.01	/* s */

static void
id_gap(struct pd_capture *cap, struct seqstate *s, const struct pd_pkt *p,
    double ts, bool retransmission, bool super)
{
	uint16_t step = (uint16_t)(p->ip_id - s->last_id);

	if (p->payload && s->last_was_data && p->ip_id && s->last_id) {
		s->id_steps++;
		s->id_ones += step == 1;
		if (step > 1 && step < ID_GAP_MAX &&
		    s->id_steps >= ID_TRUST_STEPS &&
		    s->id_ones * 10 >= s->id_steps * 9) {
			cap->unseen_segs += step - 1u;
			const struct recent *oldest = &s->r[s->r_next];

			if (!retransmission && oldest->ts > 0 &&
			    oldest->ts >= s->last_data_ts - BULK_WINDOW &&
			    ts - s->last_data_ts >= PD_STALL_MIN)
				stall(cap, ts, ts - s->last_data_ts);
		}
	}
	/* a super-packet's segments take one ID each on the wire */
	s->last_id = super ? 0 : p->ip_id;
	s->last_was_data = p->payload > 0;
}

#define OOO_DEFAULT 0.003	/* s: tshark's window without an iRTT */
#define FAST_WINDOW 0.02	/* s: after the peer's duplicate ACKs */

/* The handshake's round trip, as tshark takes it: from the SYN to the
 * first ACK of its sender after a SYN-ACK. */
static void
handshake(struct slot *sl, int d, const struct pd_pkt *p, double ts)
{
	bool syn = p->flags & PD_TCP_SYN, ack = p->flags & PD_TCP_ACK;

	if (syn && !ack) {
		sl->syn_dir = d;
		sl->syn_ts = ts;
	} else if (syn && ack && sl->syn_dir == !d) {
		sl->synack = true;
	} else if (ack && sl->synack && d == sl->syn_dir && sl->irtt == 0) {
		sl->irtt = ts - sl->syn_ts;
	}
}

/* Duplicate ACKs as tshark counts them: no data, no SYN/FIN/RST, the
 * same window, sequence and ACK as before. */
static void
acks(struct seqstate *s, const struct pd_pkt *p, double ts)
{
	if (!(p->flags & PD_TCP_ACK))
		return;
	if (p->payload == 0 && p->win == s->win && p->seq == s->nxt &&
	    p->ack == s->lastack && !(p->flags & (PD_TCP_SYN | PD_TCP_FIN |
	    PD_TCP_RST)))
		s->dupacks++;
	else if (p->ack != s->lastack)
		s->dupacks = 0;
	s->lastack = p->ack;
	s->lastack_ts = ts;
}

/* A segment below the highest sequence that is no copy: tshark's order
 * of tests, a fast retransmission (the peer's two duplicate ACKs asked
 * for it), a spurious one (already acknowledged), out of order (soon
 * after the highest sequence moved on, within the handshake's round
 * trip or 3 ms without one, and not ending there), else a
 * retransmission. */
static bool
out_of_order(const struct slot *sl, int d, const struct pd_pkt *p,
    uint32_t span, double ts)
{
	const struct seqstate *s = &sl->s[d], *peer = &sl->s[!d];
	double win = sl->irtt > 0 ? sl->irtt : OOO_DEFAULT;

	if (peer->dupacks >= 2 && peer->lastack == p->seq &&
	    ts - peer->lastack_ts < FAST_WINDOW)
		return false;
	/* data the peer had acknowledged already: sent again for nothing
	 * (tshark 4.0 calls it a spurious retransmission before this test) */
	if (p->payload > 0 && peer->lastack_ts > 0 &&
	    !seq_lt(peer->lastack, p->seq + p->payload))
		return false;
	return ts - s->nxt_ts < win && s->nxt != p->seq + span;
}

/* Retransmission by sequence ranges: a segment that starts below the
 * highest sequence already sent repeats data, unless it is the same
 * frame captured twice, a keep-alive, or a zero-window probe. */
static void
sequence(struct pd_capture_state *st, struct slot *sl, int d,
    const struct pd_pkt *p, double ts, bool super)
{
	struct seqstate *s = &sl->s[d], *peer = &sl->s[!d];
	struct pd_flow_dir *fd = &sl->f.dir[d];
	struct pd_capture *cap = st->cap;
	uint32_t span = p->payload + ((p->flags & PD_TCP_SYN) ? 1 : 0) +
	    ((p->flags & PD_TCP_FIN) ? 1 : 0);
	bool again_sent = false;

	handshake(sl, d, p, ts);
	if (!s->init) {
		s->init = true;
		s->nxt = p->seq + span;
		s->nxt_ts = ts;
	} else if (span > 0 && seq_lt(p->seq, s->nxt)) {
		if (captured_twice(s, p, span, ts)) {
			fd->dup_segs++;
			cap->dup_segs++;
		} else if (p->payload <= 1 && p->seq + 1 == s->nxt &&
		    !(p->flags & (PD_TCP_SYN | PD_TCP_FIN))) {
			cap->keepalives++;
		} else if (p->payload == 1 && peer->init && peer->win == 0) {
			cap->window_probes++;
		} else if (out_of_order(sl, d, p, span, ts)) {
			cap->ooo_segs++;
		} else {
			uint32_t again = s->nxt - p->seq;

			again_sent = true;
			fd->retrans_segs++;
			cap->retrans_segs++;
			fd->retrans_bytes += again < p->payload ? again :
			    p->payload;
			cap->retrans_bytes += again < p->payload ? again :
			    p->payload;
			if (s->last_data_ts > 0 &&
			    ts - s->last_data_ts >= PD_STALL_MIN)
				stall(cap, ts, ts - s->last_data_ts);
		}
	}
	if (s->init && seq_lt(s->nxt, p->seq + span)) {
		s->nxt = p->seq + span;
		s->nxt_ts = ts;
	}
	acks(s, p, ts);
	s->r[s->r_next] = (struct recent){ p->seq, span, p->tcp_hash,
	    p->ip_id, ts };
	s->r_next = (s->r_next + 1) % RECENT;
	s->win = p->win;
	id_gap(cap, s, p, ts, again_sent, super);
	if (p->payload)
		s->last_data_ts = ts;
}

void
pd_capture_packet(struct pd_capture_state *st, double ts, int linktype,
    const uint8_t *data, uint32_t caplen, uint32_t len)
{
	struct pd_capture *cap = st->cap;
	struct pd_pkt p;
	int d;

	cap->packets++;
	if (cap->first_ts < 0 || ts < cap->first_ts)
		cap->first_ts = ts;
	if (ts > cap->last_ts)
		cap->last_ts = ts;
	if (!pd_pkt_decode(linktype, data, caplen, len, &p) || p.proto != 6) {
		cap->undecoded++;
		if (p.undecoded && p.undecoded < PD_CAPTURE_WHY) {
			cap->undecoded_by[p.undecoded]++;
			cap->undecoded_what[p.undecoded] = p.what;
		}
		return;
	}
	cap->tcp_segments++;
	cap->tcp_payload_bytes += p.payload;
	cap->sizes.buckets[pd_size_bucket(p.payload)]++;
	if (p.payload < EXACT_SIZES)
		count_exact(st, p.payload);
	else
		count_big(st, p.payload);
	struct slot *sl = lookup(st, &p, ts, &d);
	struct pd_flow_dir *fd = &sl->f.dir[d];

	sl->f.last_ts = ts;
	fd->segs++;
	fd->bytes += p.payload;
	if (p.payload > fd->max_payload)
		fd->max_payload = p.payload;
	if (p.mss && (p.flags & PD_TCP_SYN))
		fd->mss = p.mss;
	/* above the peer's MSS (or any MSS-like size) is a super-packet */
	uint16_t mss = sl->f.dir[!d].mss ? sl->f.dir[!d].mss : fd->mss;

	bool super = p.length_from_frame || (mss && p.payload > mss);

	if (super) {
		fd->super_segs++;
		cap->super_segs++;
	}
	flow_size(fd, p.payload);
	sequence(st, sl, d, &p, ts, super);
}

static int
cmp_size_count(const void *a, const void *b)
{
	const struct pd_size_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

static void
top_sizes(struct pd_capture_state *st)
{
	struct pd_size_hist *h = &st->cap->sizes;
	struct pd_size_count *all = pd_xmalloc((st->n_exact +
	    PD_CAPTURE_SIZES) * sizeof(*all));
	unsigned n = 0;

	for (uint32_t b = 0; b < st->n_exact; b++)
		if (st->exact[b])
			all[n++] = (struct pd_size_count){ b, st->exact[b] };
	for (unsigned i = 0; i < st->n_big; i++)
		all[n++] = st->big[i];
	qsort(all, n, sizeof(*all), cmp_size_count);
	h->n = n < PD_CAPTURE_SIZES ? n : PD_CAPTURE_SIZES;
	memcpy(h->top, all, h->n * sizeof(*all));
	for (unsigned i = h->n; i < n; i++)
		h->other += all[i].count;
	free(all);
}

void
pd_capture_end(struct pd_capture_state *st)
{
	struct pd_capture *cap = st->cap;

	top_sizes(st);
	for (unsigned i = 0; i < st->n_slots; i++)
		if (st->table[i].used)
			offer_flow(st->done, &st->n_done, &st->table[i].f);
	for (unsigned i = 0; i < st->n_done; i++) {
		for (int d = 0; d < 2; d++)
			qsort(st->done[i].dir[d].sizes,
			    st->done[i].dir[d].n_sizes,
			    sizeof(struct pd_size_count), cmp_size_count);
		cap->flows[i] = st->done[i];
	}
	cap->n_flows = st->n_done;
	if (cap->first_ts < 0)
		cap->first_ts = 0;
	free(st->exact);
	free(st->table);
	live_slots -= st->n_slots;
	free(st);
}

void
pd_capture_notes(const struct pd_capture *cap, struct pd_diag *d)
{
	if (cap->flows_evicted)
		pd_diag_note(d, PD_WARN, "capture.flows-evicted", 0, "%s: %llu "
		    "flows, more than the flow table holds (%u slots, shared "
		    "by the interfaces of one file): %llu times the least "
		    "recently seen left it (the busiest are still listed; a "
		    "flow seen again after that starts anew)", cap->ifname,
		    (unsigned long long)cap->flows_seen, PD_FLOW_TABLE,
		    (unsigned long long)cap->flows_evicted);
	_Static_assert(PD_UNDEC_N <= PD_CAPTURE_WHY, "reasons fit the model");
	for (int i = 1; i < PD_UNDEC_N; i++) {
		uint64_t n = cap->undecoded_by[i];
		uint16_t what = cap->undecoded_what[i];

		if (n == 0)
			continue;
		pd_diag_note(d, PD_WARN, "capture.not-decoded", 0, "%s: %llu "
		    "packet%s not decoded: %s%s", cap->ifname,
		    (unsigned long long)n, n == 1 ? "" : "s",
		    pd_undecoded_why(i), what ? pd_arena_printf(d->arena,
		    " (0x%04x, the last)", what) : "");
	}
}

const char *
pd_capture_ifname(const struct pd_member *m, struct pd_diag *d,
    const struct pd_format *f)
{
	const char *name = pd_ifname_from_path(d->arena, m->hint_path, f);

	if (!name || !pd_ifname_valid(name)) {
		pd_diag_note(d, PD_WARN, "capture.no-ifname", 0, "'%s' does "
		    "not name an interface: name captures pcap/IF.pcap so they "
		    "can be joined to ip link and ethtool", name ? name :
		    m->path);
		if (!name)
			name = "?";
	}
	return name;
}
