/* A bounds-checked reader over bytes in memory, with a sticky error flag:
 * once a read would pass the end, every later read returns 0 and
 * pd_cursor_ok() is false, so a parser checks once, after a group of
 * reads.  Every binary input goes through one. */
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

void pd_cursor_init(struct pd_cursor *c, const void *p, size_t len, bool le);
bool pd_cursor_ok(const struct pd_cursor *c);
size_t pd_cursor_left(const struct pd_cursor *c);
uint8_t pd_cursor_u8(struct pd_cursor *c);
uint16_t pd_cursor_u16(struct pd_cursor *c);	/* in c->le order */
uint32_t pd_cursor_u32(struct pd_cursor *c);
uint16_t pd_cursor_be16(struct pd_cursor *c);	/* network order */
uint32_t pd_cursor_be32(struct pd_cursor *c);
/* n bytes in place (NULL and bad when fewer are left). */
const uint8_t *pd_cursor_bytes(struct pd_cursor *c, size_t n);
void pd_cursor_skip(struct pd_cursor *c, size_t n);

#endif
