/* sysfs and procfs values: listing lines, one-value files, CPU lists. */
#include <stdio.h>
#include <string.h>
#include "base/sysval.h"
#include "pathdoctor/format.h"
#include "pathdoctor/text.h"

bool
pd_sysval_split(const char *line, struct pd_span *path, struct pd_span *val)
{
	const char *c;

	if (line[0] != '/')
		return false;
	for (c = line; *c && *c != ':'; c++)
		if (*c == ' ' || *c == '\t')
			return false;
	if (*c != ':' || c == line + 1)
		return false;
	*path = (struct pd_span){ line, (size_t)(c - line) };
	*val = (struct pd_span){ c + 1, strlen(c + 1) };
	while (val->n && (val->p[val->n - 1] == '\r' ||
	    val->p[val->n - 1] == ' ' || val->p[val->n - 1] == '\t'))
		val->n--;
	return true;
}

bool
pd_sysval_split_known(const char *line, const char *const *patterns,
    size_t n, struct pd_span *path, struct pd_span *val)
{
	const char *end;

	if (!pd_sysval_split(line, path, val))
		return false;
	for (end = path->p + path->n; *end && *end != ' ' && *end != '\t';)
		end++;
	/* from the right: a value holds no '/', so a star of a pattern
	 * cannot take the value's start for the last component */
	for (const char *c = end; c > path->p + path->n - 1; c--) {
		if (*c != ':')
			continue;
		for (size_t i = 0; i < n; i++) {
			if (!pd_sysval_match(line, (size_t)(c - line),
			    patterns[i], NULL))
				continue;
			*path = (struct pd_span){ line, (size_t)(c - line) };
			*val = (struct pd_span){ c + 1, strlen(c + 1) };
			while (val->n && (val->p[val->n - 1] == '\r' ||
			    val->p[val->n - 1] == ' ' ||
			    val->p[val->n - 1] == '\t'))
				val->n--;
			return true;
		}
	}
	return false;
}

/* Matches s[0..n) against the whole of pat; '*' is one or more bytes
 * other than '/'.  Patterns hold at most a few stars, so the
 * backtracking stays small. */
static bool
match_at(const char *s, size_t n, const char *pat, struct pd_span *caps,
    unsigned k)
{
	for (; *pat; pat++) {
		if (*pat == '*') {
			size_t run = 0;

			while (run < n && s[run] != '/')
				run++;
			for (size_t take = run; take >= 1; take--) {
				if (k < PD_SYSVAL_CAPS)
					caps[k] = (struct pd_span){ s, take };
				if (match_at(s + take, n - take, pat + 1, caps,
				    k + 1))
					return true;
			}
			return false;
		}
		if (n == 0 || *s != *pat)
			return false;
		s++;
		n--;
	}
	return n == 0;
}

bool
pd_sysval_match(const char *path, size_t len, const char *pattern,
    struct pd_span caps[PD_SYSVAL_CAPS])
{
	struct pd_span tmp[PD_SYSVAL_CAPS];
	struct pd_span *c = caps ? caps : tmp;

	for (size_t i = 0; i < len; i++) {
		if (i > 0 && path[i - 1] != '/')
			continue;
		if (match_at(path + i, len - i, pattern, c, 0))
			return true;
	}
	return false;
}

bool
pd_sysval_one_line(const struct pd_member *m, char *out, size_t cap)
{
	size_t n = m->head_len;

	if (m->size >= 0 && (uint64_t)m->size > m->head_len)
		return false;
	if (n && m->head[n - 1] == '\n')
		n--;
	if (n && m->head[n - 1] == '\r')
		n--;
	if (n == 0 || n >= cap)
		return false;
	for (size_t i = 0; i < n; i++)
		if (m->head[i] < 0x20 && m->head[i] != '\t')
			return false;
	memcpy(out, m->head, n);
	out[n] = '\0';
	return true;
}

bool
pd_span_u64(struct pd_span s, uint64_t *out)
{
	uint64_t v = 0;

	if (s.n == 0 || s.n > 19)
		return false;
	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s.p[i] - '0');
	}
	*out = v;
	return true;
}

static bool
number(const char *s, size_t len, size_t *i, unsigned *out)
{
	unsigned long v = 0;
	size_t start = *i;

	while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
		v = v * 10 + (unsigned long)(s[*i] - '0');
		if (v > 1u << 20)
			return false;
		(*i)++;
	}
	*out = (unsigned)v;
	return *i > start;
}

static void
set_bit(uint64_t *bits, unsigned cpu, unsigned *n_set)
{
	if (!(bits[cpu / 64] >> (cpu % 64) & 1))
		(*n_set)++;
	bits[cpu / 64] |= 1ull << (cpu % 64);
}

bool
pd_cpulist_parse(const char *s, size_t len, uint64_t *bits, unsigned nbits,
    unsigned *n_set)
{
	unsigned count = 0;
	size_t i = 0;

	memset(bits, 0, (nbits + 63) / 64 * sizeof(*bits));
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	while (i < len) {
		unsigned lo, hi;

		if (!number(s, len, &i, &lo))
			return false;
		hi = lo;
		if (i < len && s[i] == '-') {
			i++;
			if (!number(s, len, &i, &hi) || hi < lo)
				return false;
		}
		if (hi >= nbits)
			return false;
		for (unsigned c = lo; c <= hi; c++)
			set_bit(bits, c, &count);
		if (i < len && s[i] != ',')
			return false;
		i += i < len;
	}
	if (n_set)
		*n_set = count;
	return true;
}

bool
pd_cpumask_parse(const char *s, size_t len, uint64_t *bits, unsigned nbits,
    unsigned *n_set)
{
	unsigned count = 0, bit = 0;

	memset(bits, 0, (nbits + 63) / 64 * sizeof(*bits));
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	if (len == 0)
		return false;
	/* from the least significant digit up */
	for (size_t i = len; i-- > 0;) {
		int v;

		if (s[i] == ',')
			continue;
		if ((v = pd_hex_digit(s[i])) < 0)
			return false;
		for (unsigned b = 0; b < 4; b++, bit++)
			if (v >> b & 1) {
				if (bit >= nbits)
					return false;
				set_bit(bits, bit, &count);
			}
	}
	if (n_set)
		*n_set = count;
	return true;
}

static bool
bit_at(const uint64_t *bits, unsigned i)
{
	return (bits[i / 64] >> (i % 64)) & 1u;
}

void
pd_cpulist_format(const uint64_t *bits, unsigned nbits, char *out,
    size_t cap)
{
	size_t len = 0;

	if (!cap)
		return;
	out[0] = '\0';
	for (unsigned i = 0; i < nbits; i++) {
		unsigned j = i;
		char run[32];
		int k;

		if (!bit_at(bits, i))
			continue;
		while (j + 1 < nbits && bit_at(bits, j + 1))
			j++;
		k = j > i ? snprintf(run, sizeof(run), "%s%u-%u", len ? "," :
		    "", i, j) : snprintf(run, sizeof(run), "%s%u", len ? "," :
		    "", i);
		if (len + (size_t)k + 4 > cap) {
			if (len + 4 <= cap)
				memcpy(out + len, "...", 4);
			return;
		}
		memcpy(out + len, run, (size_t)k + 1);
		len += (size_t)k;
		i = j;
	}
}
