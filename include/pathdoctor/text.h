/* Small text helpers for the line-oriented readers. */
#ifndef PD_TEXT_H
#define PD_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when the bytes look like text: no NUL, few control bytes. */
bool pd_text_plausible(const unsigned char *p, size_t n);
/* Copies line i (0-based) of a head buffer into out (NUL-terminated,
 * truncated to cap-1); returns false when the head has no such line. */
bool pd_text_head_line(const unsigned char *p, size_t n, unsigned i,
    char *out, size_t cap);
/* Like pd_text_head_line, counting only lines that are neither blank
 * nor comments ('#'): collectors and users annotate outputs. */
bool pd_text_content_line(const unsigned char *p, size_t n, unsigned i,
    char *out, size_t cap);
/* Copies the line at *p (up to end) into out, truncated to cap - 1, and
 * moves *p past it: one pass over a head's lines, where a bidder looks
 * at every line (pd_text_head_line starts from the top each time). */
bool pd_text_next_line(const unsigned char **p, const unsigned char *end,
    char *out, size_t cap);
/* The offset of the first line that opens with '{' (after blanks): a
 * tool's JSON after the lines it printed first; -1 when none. */
long pd_text_json_start(const unsigned char *p, size_t n);
const char *pd_skip_space(const char *s);
bool pd_starts_with(const char *s, const char *prefix);
/* Parses a decimal (or 0x hex when base 0) number at s; stores the end.
 * Returns false on no digits or overflow. */
bool pd_parse_u64(const char *s, int base, uint64_t *out, const char **end);
/* Splits "  key : value" at the first colon: key trimmed (length in
 * *klen), value with leading blanks skipped.  False without a colon. */
bool pd_split_colon(const char *line, const char **key, size_t *klen,
    const char **val);
/* Splits at the LAST ": " (ethtool -S names may hold colons). */
bool pd_split_last_colon(const char *line, const char **key, size_t *klen,
    const char **val);
/* True when the comma-separated list holds the item's first n bytes
 * as one element ("on,sm_on" holds "sm_on"). */
bool pd_list_has(const char *list, const char *item, size_t n);
/* True when s matches one of the space-separated fnmatch patterns
 * (each up to 127 bytes; a longer one matches nothing). */
bool pd_patterns_match(const char *patterns, const char *s);
/* The 16 bytes at p (all readable) as lower-case hexadecimal digits:
 * a 64-bit kernel address as /proc/kallsyms prints it, converted eight
 * digits at a time; false when any byte is not '0'..'9' or 'a'..'f'. */
bool pd_hex16_lower(const char *p, uint64_t *out);
/* A hexadecimal digit's value; -1 when c is not one. */
int pd_hex_digit(char c);
/* "1.5G", "64M", "100k", "4096": bytes; false when malformed. */
bool pd_parse_size(const char *s, uint64_t *out);

#endif
