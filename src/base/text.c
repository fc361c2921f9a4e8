/* Small text helpers shared by the line-oriented readers. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/text.h"

/* The control bytes that text does not hold (NUL is refused apart). */
static const unsigned char stray_control[256] = {
	[1] = 1, [2] = 1, [3] = 1, [4] = 1, [5] = 1, [6] = 1, [7] = 1,
	[8] = 1, [11] = 1, [14] = 1, [15] = 1, [16] = 1, [17] = 1, [18] = 1,
	[19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1, [24] = 1, [25] = 1,
	[26] = 1, [27] = 1, [28] = 1, [29] = 1, [30] = 1, [31] = 1,
};

/* Every text format's bidder asks this of the same head, so the NUL
 * search is memchr's and the count a table's, without a branch a byte. */
bool
pd_text_plausible(const unsigned char *p, size_t n)
{
	size_t ctl = 0;

	if (n && memchr(p, 0, n))
		return false;
	for (size_t i = 0; i < n; i++)
		ctl += stray_control[p[i]];
	return ctl * 100 <= n;	/* at most 1 % stray control bytes */
}

bool
pd_text_head_line(const unsigned char *p, size_t n, unsigned i, char *out,
    size_t cap)
{
	size_t pos = 0;

	for (unsigned k = 0; k < i; k++) {
		const unsigned char *nl = memchr(p + pos, '\n', n - pos);

		if (!nl)
			return false;
		pos = (size_t)(nl - p) + 1;
	}
	if (pos >= n)
		return false;
	size_t len = 0;

	while (pos + len < n && p[pos + len] != '\n')
		len++;
	if (len && p[pos + len - 1] == '\r')
		len--;
	if (len >= cap)
		len = cap - 1;
	memcpy(out, p + pos, len);
	out[len] = '\0';
	return true;
}

bool
pd_text_content_line(const unsigned char *p, size_t n, unsigned i,
    char *out, size_t cap)
{
	unsigned seen = 0;

	for (unsigned k = 0; k < 4096; k++) {
		if (!pd_text_head_line(p, n, k, out, cap))
			return false;
		const char *s = pd_skip_space(out);

		if (*s == '\0' || *s == '#')
			continue;
		if (seen++ == i)
			return true;
	}
	return false;
}

const char *
pd_skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

bool
pd_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool
pd_parse_u64(const char *s, int base, uint64_t *out, const char **end)
{
	char *e;

	if (!isxdigit((unsigned char)*s))
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &e, base);

	if (e == s || errno == ERANGE)
		return false;
	*out = v;
	if (end)
		*end = e;
	return true;
}

bool
pd_parse_size(const char *s, uint64_t *out)
{
	const char *e;
	uint64_t v;

	if (!pd_parse_u64(s, 10, &v, &e))
		return false;
	uint64_t mul = 1;

	switch (*e) {
	case 'k': case 'K': mul = 1ull << 10; e++; break;
	case 'm': case 'M': mul = 1ull << 20; e++; break;
	case 'g': case 'G': mul = 1ull << 30; e++; break;
	case 't': case 'T': mul = 1ull << 40; e++; break;
	default: break;
	}
	if (*e == 'i' && mul > 1)
		e++;
	if (*e == 'B' || *e == 'b')
		e++;
	if (*e != '\0' || (v && mul > UINT64_MAX / v))
		return false;
	*out = v * mul;
	return true;
}

bool
pd_list_has(const char *list, const char *item, size_t n)
{
	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, ",");

		if (k == n && memcmp(p, item, n) == 0)
			return true;
		p += k + (p[k] == ',');
	}
	return false;
}

bool
pd_patterns_match(const char *patterns, const char *s)
{
	for (const char *p = patterns; p && *p;) {
		size_t k = strcspn(p, " ");
		char pat[128];

		if (k < sizeof(pat)) {
			memcpy(pat, p, k);
			pat[k] = '\0';
			if (fnmatch(pat, s, 0) == 0)
				return true;
		}
		p += k + (p[k] == ' ');
	}
	return false;
}

static void
trim_key(const char **key, size_t *klen)
{
	while (*klen && ((*key)[0] == ' ' || (*key)[0] == '\t')) {
		(*key)++;
		(*klen)--;
	}
	while (*klen && ((*key)[*klen - 1] == ' ' || (*key)[*klen - 1] == '\t'))
		(*klen)--;
}

bool
pd_split_colon(const char *line, const char **key, size_t *klen,
    const char **val)
{
	const char *c = strchr(line, ':');

	if (!c)
		return false;
	*key = line;
	*klen = (size_t)(c - line);
	trim_key(key, klen);
	*val = pd_skip_space(c + 1);
	return true;
}

bool
pd_split_last_colon(const char *line, const char **key, size_t *klen,
    const char **val)
{
	const char *c = NULL;

	for (const char *p = strstr(line, ": "); p; p = strstr(p + 1, ": "))
		c = p;
	if (!c)
		return false;
	*key = line;
	*klen = (size_t)(c - line);
	trim_key(key, klen);
	*val = pd_skip_space(c + 1);
	return true;
}

long
pd_text_json_start(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t j = i;

		while (j < n && (p[j] == ' ' || p[j] == '\t'))
			j++;
		if (j < n && p[j] == '{')
			return (long)j;
		while (i < n && p[i] != '\n')
			i++;
		i++;
	}
	return -1;
}

bool
pd_text_next_line(const unsigned char **p, const unsigned char *end,
    char *out, size_t cap)
{
	const unsigned char *nl;
	size_t n;

	if (*p >= end)
		return false;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	n = (size_t)((nl ? nl : end) - *p);
	snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1),
	    (const char *)*p);
	*p += n + 1;
	return true;
}

/* Eight lower-case hex digits, the first at the lowest address, as a
 * value: every byte is checked at once, by whether adding a bias
 * carries into its top bit (no byte carries into the next, as each is
 * below 0x80 first); a byte's value is its low nibble, plus 9 for a
 * letter (bit 6). */
static bool
hex8_lower(const char *p, uint32_t *out)
{
	const uint64_t ones = 0x0101010101010101u, top = ones * 0x80;
	uint64_t w;

	memcpy(&w, p, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	if (w & top)
		return false;
	uint64_t digit = (w + ones * (0x80 - '0')) & ~(w + ones * (0x80 -
	    '9' - 1));
	uint64_t letter = (w + ones * (0x80 - 'a')) & ~(w + ones * (0x80 -
	    'f' - 1));

	if (((digit | letter) & top) != top)
		return false;
	uint64_t v = (w & ones * 0x0f) + ((w >> 6) & ones) * 9;

	v = ((v << 4) | (v >> 8)) & 0x00ff00ff00ff00ffu;
	v = ((v << 8) | (v >> 16)) & 0x0000ffff0000ffffu;
	*out = (uint32_t)((v << 16) | (v >> 32));
	return true;
}

bool
pd_hex16_lower(const char *p, uint64_t *out)
{
	uint32_t hi, lo;

	if (!hex8_lower(p, &hi) || !hex8_lower(p + 8, &lo))
		return false;
	*out = (uint64_t)hi << 32 | lo;
	return true;
}

int
pd_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
