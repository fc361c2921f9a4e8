/* Small text helpers shared by the line-oriented readers. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/text.h"

bool
pd_text_plausible(const unsigned char *p, size_t n)
{
	size_t ctl = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (c == 0)
			return false;
		if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' &&
		    c != '\f')
			ctl++;
	}
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
