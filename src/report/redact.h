/* Redaction of identifying values in every output (src/report/redact.c),
 * for reports posted where others read them (--redact).
 *
 * Each escape function of src/report/escape.h passes its text through
 * pd_redact first, so every output that prints through them (md, json,
 * term, --dump-model, the diff's three) is masked the same way.  A value
 * becomes a token {KIND-N}: {host-1}, {ipv4-2}, {ipv6-1}, {mac-1},
 * {serial-1}, {uuid-1}, {user-1}; the same value always gets the same
 * token within one run (both bundles of a diff share the table).  Braces
 * never occur in a host name, address, serial, UUID or user name, so a
 * token cannot be taken for a real value; text already in the token form
 * is copied as it is, so redacting twice changes nothing.
 *
 * Known values (host names, serial numbers) are registered from the
 * models before rendering and masked wherever they occur as a whole word
 * (not next to a letter or digit), case-insensitively.  Patterns are
 * recognised in any string: IPv4, IPv6, MAC (and EUI-64, InfiniBand)
 * addresses, UUIDs, /home/NAME and /Users/NAME, and NAME@HOST:~ prompts.
 * Kept as they are: 0.0.0.0, 127.0.0.0/8, 255.255.255.255, :: and ::1,
 * the all-zero and all-ones MACs, the nil UUID, the user root.
 *
 * The table is bounded (PD_REDACT_MAX values); past it values become
 * {redacted} and pd_redact_overflow counts them. */
#ifndef PD_REDACT_H
#define PD_REDACT_H

#include <stdbool.h>
#include <stdio.h>

struct pd_arena;
struct pd_model;

#define PD_REDACT_MAX 65536

enum pd_redact_kind {
	PD_RK_HOST, PD_RK_IPV4, PD_RK_IPV6, PD_RK_MAC, PD_RK_SERIAL,
	PD_RK_UUID, PD_RK_USER, PD_RK_NQN, PD_RK_COUNT
};

/* Turns redaction on (it is off until then: pd_redact returns s). */
void pd_redact_enable(void);
/* Off again, every value forgotten (tests). */
void pd_redact_reset(void);
bool pd_redact_enabled(void);
/* A value masked as a whole word wherever it occurs (ignored when off,
 * shorter than 2 bytes or longer than 1024). */
void pd_redact_known(enum pd_redact_kind k, const char *value);
/* The model's host names (name, nodename, each profile's host name) and
 * card and device serial numbers, as pathdoctor and lspci print them. */
void pd_redact_model(const struct pd_model *m);
/* s with its values masked, in a (NULL: redaction's own arena, freed by
 * pd_redact_reset); s itself when off or nothing matched. */
const char *pd_redact(struct pd_arena *a, const char *s);
/* The mapping, one line a value: TOKEN TAB KIND TAB ORIGINAL (control
 * bytes, tab and backslash in ORIGINAL as \xNN), by kind, then token
 * number.  0, or -1 when writing failed. */
int pd_redact_write_map(FILE *out);
/* Values masked as {redacted} because the table was full. */
unsigned long pd_redact_overflow(void);

#endif
