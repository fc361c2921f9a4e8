/* A bounds-checked reader over bytes in memory, with a sticky error flag:
 * once a read would pass the end, every later read returns 0 and
 * pd_cursor_ok() is false, so a parser checks once, after a group of
 * reads.  Every binary input goes through one.
 *   pd_cursor_u16/u32 read in c->le order, pd_cursor_be16/be32 in network
 *   order; pd_cursor_bytes gives n bytes in place (NULL and bad when
 *   fewer are left).
 * pd_span_ok is the one test of an offset and size read from a file:
 * off + size fits in limit, with no wrap of the sum. */
#ifndef PD_CURSOR_H
#define PD_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_cursor {
	const uint8_t *p;
	size_t len, pos;
	bool bad;
	bool le;		/* multi-byte reads are little-endian */
};

static inline bool
pd_span_ok(uint64_t off, uint64_t size, uint64_t limit)
{
	return off <= limit && size <= limit - off;
}

/* Inline: every decoded packet goes through a dozen of these. */
static inline void
pd_cursor_init(struct pd_cursor *c, const void *p, size_t len, bool le)
{
	c->p = p;
	c->len = p ? len : 0;
	c->pos = 0;
	c->bad = false;
	c->le = le;
}

static inline bool
pd_cursor_ok(const struct pd_cursor *c)
{
	return !c->bad;
}

static inline size_t
pd_cursor_left(const struct pd_cursor *c)
{
	return c->bad ? 0 : c->len - c->pos;
}

static inline const uint8_t *
pd_cursor_bytes(struct pd_cursor *c, size_t n)
{
	if (c->bad || n > c->len - c->pos) {
		c->bad = true;
		return NULL;
	}
	const uint8_t *p = c->p + c->pos;

	c->pos += n;
	return p;
}

static inline void
pd_cursor_skip(struct pd_cursor *c, size_t n)
{
	(void)pd_cursor_bytes(c, n);
}

static inline uint8_t
pd_cursor_u8(struct pd_cursor *c)
{
	const uint8_t *p = pd_cursor_bytes(c, 1);

	return p ? p[0] : 0;
}

/* Network-order words of a header taken whole by pd_cursor_bytes: one
 * bounds check for all its fields, where a packet's every header is
 * read (a check per field was a fifth of the capture walk). */
static inline uint16_t
pd_be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
pd_be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static inline uint16_t
pd_cursor_be16(struct pd_cursor *c)
{
	const uint8_t *p = pd_cursor_bytes(c, 2);

	return p ? pd_be16_at(p) : 0;
}

static inline uint32_t
pd_cursor_be32(struct pd_cursor *c)
{
	const uint8_t *p = pd_cursor_bytes(c, 4);

	return p ? pd_be32_at(p) : 0;
}

static inline uint16_t
pd_cursor_u16(struct pd_cursor *c)
{
	const uint8_t *p = pd_cursor_bytes(c, 2);

	if (!p)
		return 0;
	return c->le ? (uint16_t)(p[1] << 8 | p[0]) :
	    (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
pd_cursor_u32(struct pd_cursor *c)
{
	const uint8_t *p = pd_cursor_bytes(c, 4);

	if (!p)
		return 0;
	if (c->le)
		return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
		    (uint32_t)p[1] << 8 | p[0];
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

#endif
