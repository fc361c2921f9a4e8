/* Redaction of identifying values (rules in redact.h): one table of the
 * values seen, by kind and text, and a set of the known ones matched as
 * whole words with a rolling hash, so a string costs one pass over it
 * (at most KNOWN_LEN steps from each word start). */
#include <arpa/inet.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "report/dump.h"
#include "report/redact.h"

#define KNOWN_LEN 255		/* longest known value matched (DNS: 253) */
#define NAME_LEN 64		/* longest user name taken from a path */

static const char *const kind_names[PD_RK_COUNT] = {
	[PD_RK_HOST] = "host", [PD_RK_IPV4] = "ipv4", [PD_RK_IPV6] = "ipv6",
	[PD_RK_MAC] = "mac", [PD_RK_SERIAL] = "serial", [PD_RK_UUID] = "uuid",
	[PD_RK_USER] = "user", [PD_RK_NQN] = "nqn",
};

struct ent {
	char *orig;
	size_t len;
	unsigned kind, num;	/* token {kind-num}; aliases share num */
};

/* Open addressing, entry index + 1 per slot (0 empty), half full at most. */
struct table {
	uint32_t *slot;
	size_t cap, n;
};

static struct {
	bool on;
	struct ent *v;
	size_t n, cap;
	unsigned next_num[PD_RK_COUNT];
	struct table values;	/* by kind and text, case-insensitive */
	struct table known;	/* by text alone: matched as words */
	bool known_len[KNOWN_LEN + 1];
	size_t known_max;
	unsigned char first[256];	/* lower-cased first bytes of known */
	unsigned char inner[256];	/* lower-cased bytes of known values */
	unsigned long overflow;
	struct pd_arena *arena;
	char *buf;		/* the string being built */
	size_t blen, bcap;
} R;

static bool
word_byte(unsigned char c)
{
	return isalnum(c) || c >= 0x80;
}

static bool
hexd(unsigned char c)
{
	return isxdigit(c) != 0;
}

#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

static uint64_t
hash_step(uint64_t h, unsigned char c)
{
	return (h ^ (unsigned char)tolower(c)) * FNV_PRIME;
}

static uint64_t
hash_of(uint64_t h, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = hash_step(h, (unsigned char)s[i]);
	return h;
}

static uint64_t
kind_seed(unsigned kind)
{
	return hash_step(FNV_OFFSET, (unsigned char)(kind + 1));
}

static bool
all_hex(const char *s)
{
	for (; *s; s++)
		if (!hexd((unsigned char)*s))
			return false;
	return true;
}

static bool
same_text(const struct ent *e, const char *s, size_t len)
{
	return e->len == len && strncasecmp(e->orig, s, len) == 0;
}

/* The slot of (kind, s) in t: its entry, or the empty slot it would take.
 * kind < 0: the known set, whatever the kind. */
static size_t
slot_find(const struct table *t, int kind, const char *s, size_t len,
    uint64_t h)
{
	size_t mask = t->cap - 1, i = (size_t)h & mask;

	for (; t->slot[i]; i = (i + 1) & mask) {
		const struct ent *e = &R.v[t->slot[i] - 1];

		if ((kind < 0 || e->kind == (unsigned)kind) &&
		    same_text(e, s, len))
			break;
	}
	return i;
}

static uint64_t
ent_hash(const struct ent *e, bool known)
{
	return hash_of(known ? FNV_OFFSET : kind_seed(e->kind), e->orig,
	    e->len);
}

/* Room for one more in t, rehashing what it holds. */
static void
table_grow(struct table *t, bool known)
{
	if ((t->n + 1) * 2 <= t->cap)
		return;
	struct table old = *t;

	t->cap = old.cap ? old.cap * 2 : 64;
	t->slot = calloc(t->cap, sizeof(*t->slot));
	if (!t->slot)
		abort();
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.slot[i])
			continue;
		const struct ent *e = &R.v[old.slot[i] - 1];
		size_t at = slot_find(t, known ? -1 : (int)e->kind, e->orig,
		    e->len, ent_hash(e, known));

		t->slot[at] = old.slot[i];
	}
	free(old.slot);
}

/* The entry of (kind, s), made when new (num 0: the kind's next token
 * number); -1 when the table is full. */
static long
value_add(unsigned kind, const char *s, size_t len, unsigned num)
{
	uint64_t h = hash_of(kind_seed(kind), s, len);

	table_grow(&R.values, false);
	size_t at = slot_find(&R.values, (int)kind, s, len, h);

	if (R.values.slot[at])
		return (long)R.values.slot[at] - 1;
	if (R.n >= PD_REDACT_MAX) {
		R.overflow++;
		return -1;
	}
	if (R.n == R.cap) {
		R.cap = R.cap ? R.cap * 2 : 64;
		R.v = pd_xrealloc(R.v, R.cap * sizeof(*R.v));
	}
	R.v[R.n] = (struct ent){ pd_arena_strndup(R.arena, s, len), len, kind,
	    num ? num : ++R.next_num[kind] };
	R.values.slot[at] = (uint32_t)++R.n;
	R.values.n++;
	return (long)R.n - 1;
}

/* s as a known value, with the token number num (0: a new one); the
 * entry's number, 0 when not added. */
static unsigned
known_add(unsigned kind, const char *s, size_t len, unsigned num)
{
	if (!R.on || len < 2 || len > KNOWN_LEN)
		return 0;
	long e = value_add(kind, s, len, num);

	if (e < 0)
		return 0;
	table_grow(&R.known, true);
	size_t at = slot_find(&R.known, -1, s, len, hash_of(FNV_OFFSET, s,
	    len));

	if (!R.known.slot[at]) {
		R.known.slot[at] = (uint32_t)e + 1;
		R.known.n++;
		R.known_len[len] = true;
		R.known_max = len > R.known_max ? len : R.known_max;
		R.first[(unsigned char)tolower((unsigned char)s[0])] = 1;
		for (size_t k = 0; k < len; k++)
			R.inner[(unsigned char)tolower((unsigned char)s[k])] = 1;
	}
	return R.v[e].num;
}


/* A host name, and its first label as the same host. */
static void
known_host(const char *name)
{
	if (!name)
		return;
	size_t len = strlen(name), dot = strcspn(name, ".");
	unsigned num = known_add(PD_RK_HOST, name, len, 0);

	if (num && dot < len)
		known_add(PD_RK_HOST, name, dot, num);
}

/* A Device Serial Number as pathdoctor prints it (3c1a9f0003ab5e2c) and
 * as lspci does (3c-1a-9f-00-03-ab-5e-2c): one token. */
static void
known_serial(uint64_t dsn)
{
	char hex[17], dashed[24], *o = dashed;
	unsigned num;

	snprintf(hex, sizeof(hex), "%016" PRIx64, dsn);
	for (int i = 0; i < 8; i++)
		o += sprintf(o, "%s%c%c", i ? "-" : "", hex[2 * i],
		    hex[2 * i + 1]);
	if ((num = known_add(PD_RK_SERIAL, hex, 16, 0)))
		known_add(PD_RK_SERIAL, dashed, strlen(dashed), num);
}

/* A serial of 16 hex digits in both forms, a host with its first label. */
void
pd_redact_known(enum pd_redact_kind k, const char *value)
{
	size_t len = value ? strlen(value) : 0;

	if (k == PD_RK_SERIAL && len == 16 && all_hex(value))
		known_serial(strtoull(value, NULL, 16));
	else if (k == PD_RK_HOST)
		known_host(value);
	else if (value && (unsigned)k < PD_RK_COUNT)
		known_add(k, value, len, 0);
}

/* The model's addresses, UUIDs and users numbered in the order
 * --dump-model prints them, whatever the output: md, json and term of
 * one bundle then give each value the same token. */
static void
number_patterns(const struct pd_model *m)
{
	FILE *sink = fopen("/dev/null", "w");

	if (!sink)
		return;
	pd_model_dump(m, sink);
	fclose(sink);
}

void
pd_redact_model(const struct pd_model *m)
{
	if (!R.on || !m)
		return;
	for (const struct pd_host *h = m->hosts; h; h = h->next) {
		known_host(h->name);
		known_host(h->nodename);
		for (const struct pd_profile *p = h->profiles; p; p = p->next)
			known_host(p->hostname);
	}
	for (const struct pd_host *h = m->hosts; h; h = h->next) {
		for (const struct pd_card *c = h->cards; c; c = c->next)
			if (c->has_dsn)
				known_serial(c->dsn);
		for (const struct pd_pcidev *d = h->pcidevs; d; d = d->next)
			if (d->has_dsn)
				known_serial(d->dsn);
	}
	/* NVMe qualified names carry the storage owner's domain, array
	 * serials and volume names; the host's its UUID */
	for (const struct pd_host *h = m->hosts; h; h = h->next)
		for (const struct pd_nvme_subsys *s = h->nvme; s; s = s->next) {
			if (s->nqn)
				known_add(PD_RK_NQN, s->nqn, strlen(s->nqn), 0);
			if (s->hostnqn)
				known_add(PD_RK_NQN, s->hostnqn,
				    strlen(s->hostnqn), 0);
		}
	number_patterns(m);
}

void
pd_redact_enable(void)
{
	if (!R.arena)
		R.arena = pd_arena_new();
	R.on = true;
}

bool
pd_redact_enabled(void)
{
	return R.on;
}

void
pd_redact_reset(void)
{
	free(R.v);
	free(R.values.slot);
	free(R.known.slot);
	free(R.buf);
	if (R.arena)
		pd_arena_free(R.arena);
	memset(&R, 0, sizeof(R));
}

unsigned long
pd_redact_overflow(void)
{
	return R.overflow;
}

/* The output being built in R.buf. */
static void
put(const char *s, size_t len)
{
	if (R.blen + len + 1 > R.bcap) {
		R.bcap = (R.blen + len + 1) * 2;
		R.buf = pd_xrealloc(R.buf, R.bcap);
	}
	memcpy(R.buf + R.blen, s, len);
	R.blen += len;
}

static void
put_token(long e)
{
	char tok[48];

	if (e < 0)
		snprintf(tok, sizeof(tok), "{redacted}");
	else
		snprintf(tok, sizeof(tok), "{%s-%u}", kind_names[R.v[e].kind],
		    R.v[e].num);
	put(tok, strlen(tok));
}

/* A token already in the text ({host-1}, {redacted}): its length.  Only
 * the kinds' names, so that no other word hides in braces. */
static size_t
token_len(const char *s, size_t n, size_t i)
{
	size_t j, k;

	if (s[i] != '{')
		return 0;
	if (n - i >= 10 && strncmp(s + i, "{redacted}", 10) == 0)
		return 10;
	for (unsigned kind = 0; kind < PD_RK_COUNT; kind++) {
		size_t len = strlen(kind_names[kind]);

		if (n - i < len + 4 || strncmp(s + i + 1, kind_names[kind], len) ||
		    s[i + 1 + len] != '-')
			continue;
		for (j = k = i + len + 2; k < n && isdigit((unsigned char)s[k]);
		    k++)
			;
		return k > j && k < n && s[k] == '}' ? k + 1 - i : 0;
	}
	return 0;
}

/* The longest known value at i that is a whole word. */
static size_t
known_at(const char *s, size_t n, size_t i, long *e)
{
	uint64_t h = FNV_OFFSET;
	size_t best = 0;

	if ((i && word_byte((unsigned char)s[i - 1])) ||
	    !R.first[(unsigned char)tolower((unsigned char)s[i])])
		return 0;
	for (size_t len = 1; len <= R.known_max && i + len <= n; len++) {
		unsigned char c = (unsigned char)s[i + len - 1];

		if (!R.inner[tolower(c)])
			break;	/* no known value goes on with this byte */
		h = hash_step(h, c);
		if (!R.known_len[len] || (i + len < n &&
		    word_byte((unsigned char)s[i + len])))
			continue;
		size_t at = slot_find(&R.known, -1, s + i, len, h);

		if (R.known.slot[at]) {
			best = len;
			*e = (long)R.known.slot[at] - 1;
		}
	}
	return best;
}

/* Lower-cased copy of s[0..len) into out (room for len + 1). */
static void
lower(char *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (char)tolower((unsigned char)s[i]);
	out[len] = '\0';
}

static bool
all_of(const char *s, size_t len, const char *set)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(set, tolower((unsigned char)s[i])))
			return false;
	return true;
}

/* 8-4-4-4-12 hex digits, not inside a longer word or dashed run. */
static size_t
uuid_at(const char *s, size_t n, size_t i, unsigned *kind)
{
	static const char form[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

	if (n - i < 36 || (i && (isalnum((unsigned char)s[i - 1]) ||
	    s[i - 1] == '-')))
		return 0;
	for (size_t k = 0; k < 36; k++)
		if (form[k] == '-' ? s[i + k] != '-' :
		    !hexd((unsigned char)s[i + k]))
			return 0;
	if (i + 36 < n && (isalnum((unsigned char)s[i + 36]) ||
	    s[i + 36] == '-'))
		return 0;
	*kind = PD_RK_UUID;
	return 36;
}

/* 6 to 8 (BOOTIF's 01- before a MAC, EUI-64) or 20 (InfiniBand) groups
 * of two hex digits, all with ':' or all with '-'. */
static size_t
mac_at(const char *s, size_t n, size_t i, unsigned *kind)
{
	size_t j = i + 2, groups = 1;
	char sep;

	if (n - i < 17 || (i && isalnum((unsigned char)s[i - 1])) ||
	    !hexd((unsigned char)s[i]) || !hexd((unsigned char)s[i + 1]))
		return 0;
	sep = s[j];
	if (sep != ':' && sep != '-')
		return 0;
	/* after a separator only when no two-digit group ends there: the
	 * net0 of ifname=net0:3c:1a:9f:00:03:ab, not inside a longer run */
	if (i && (s[i - 1] == ':' || s[i - 1] == '-') && i >= 3 &&
	    hexd((unsigned char)s[i - 2]) && hexd((unsigned char)s[i - 3]) &&
	    (i == 3 || !isalnum((unsigned char)s[i - 4])))
		return 0;
	while (groups < 21 && j + 2 < n && s[j] == sep &&
	    hexd((unsigned char)s[j + 1]) && hexd((unsigned char)s[j + 2]))
		groups++, j += 3;
	if (j < n && (isalnum((unsigned char)s[j]) || (s[j] == sep &&
	    j + 1 < n && isalnum((unsigned char)s[j + 1]))))
		return 0;
	if ((groups < 6 || groups > 8) && groups != 20)
		return 0;
	*kind = PD_RK_MAC;
	return j - i;
}

/* A run of up to 64 bytes of hex digits, ':' and '.' that inet_pton
 * takes for IPv6 (perhaps without a trailing '.' or ':' that ends a
 * sentence or a field), with two colons and a decimal digit at least, so
 * that PCI addresses (0000:01:00.0), times (16:05:12) and C++ scopes
 * (a::b) stay. */
static size_t
ipv6_at(const char *s, size_t n, size_t i, char *canon, bool *keep)
{
	size_t j = i, colons = 0, digits = 0;
	struct in6_addr a;
	char buf[72];

	if (i && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == ':' ||
	    s[i - 1] == '.'))
		return 0;
	for (; j < n && j - i <= 64 && (hexd((unsigned char)s[j]) ||
	    s[j] == ':' || s[j] == '.'); j++) {
		colons += s[j] == ':';
		digits += isdigit((unsigned char)s[j]) != 0;
	}
	if (colons < 2 || !digits || j - i > 64 ||
	    (j < n && isalnum((unsigned char)s[j])))
		return 0;
	for (int trim = 0; trim < 3 && j > i; trim++, j--) {
		memcpy(buf, s + i, j - i);
		buf[j - i] = '\0';
		if (inet_pton(AF_INET6, buf, &a) == 1) {
			static const unsigned char zero[16];

			inet_ntop(AF_INET6, &a, canon, 64);
			*keep = memcmp(a.s6_addr, zero, 15) == 0 &&
			    a.s6_addr[15] <= 1;
			return j - i;
		}
		if (s[j - 1] != '.' && s[j - 1] != ':')
			return 0;
	}
	return 0;
}

/* Four dotted decimals up to 255, not inside a longer dotted run but for
 * a port (tcpdump's 10.0.0.1.4420). */
static size_t
ipv4_at(const char *s, size_t n, size_t i, char *canon, bool *keep)
{
	unsigned v[4];
	size_t j = i;

	if (i && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '.'))
		return 0;
	for (int p = 0; p < 4; p++) {
		size_t k = j;

		if (p && (j >= n || s[j++] != '.'))
			return 0;
		for (v[p] = 0, k = j; k < n && k - j < 4 &&
		    isdigit((unsigned char)s[k]); k++)
			v[p] = v[p] * 10 + (unsigned)(s[k] - '0');
		if (k == j || k - j > 3 || v[p] > 255)
			return 0;
		j = k;
	}
	if (j < n && isalnum((unsigned char)s[j]))
		return 0;
	if (j + 1 < n && s[j] == '.' && isdigit((unsigned char)s[j + 1])) {
		size_t k = j + 1;

		while (k < n && isdigit((unsigned char)s[k]))
			k++;
		if (k - j > 6 || (k < n && (isalnum((unsigned char)s[k]) ||
		    (s[k] == '.' && k + 1 < n &&
		    isdigit((unsigned char)s[k + 1])))))
			return 0;
	}
	snprintf(canon, 64, "%u.%u.%u.%u", v[0], v[1], v[2], v[3]);
	*keep = v[0] == 127 || (v[0] | v[1] | v[2] | v[3]) == 0 ||
	    (v[0] & v[1] & v[2] & v[3]) == 255;
	return j - i;
}

/* A user name's bytes at s[i..]: letters, digits, . _ - (up to 64). */
static size_t
user_len(const char *s, size_t n, size_t i)
{
	size_t j = i;

	while (j < n && j - i <= NAME_LEN && (isalnum((unsigned char)s[j]) ||
	    strchr("._-", s[j])))
		j++;
	return j - i > NAME_LEN ? 0 : j - i;
}

/* /home/NAME or /Users/NAME: the prefix's length in *pre. */
static size_t
home_at(const char *s, size_t n, size_t i, size_t *pre)
{
	if (n - i > 6 && strncmp(s + i, "/home/", 6) == 0)
		*pre = 6;
	else if (n - i > 7 && strncmp(s + i, "/Users/", 7) == 0)
		*pre = 7;
	else
		return 0;
	size_t len = user_len(s, n, i + *pre);

	if (!len || s[i + *pre] == '.')
		return 0;
	return *pre + len;
}

/* A shell prompt's NAME@HOST:~ or NAME@HOST:/ at a word start: the
 * lengths of NAME and HOST. */
static bool
prompt_at(const char *s, size_t n, size_t i, size_t *ul, size_t *hl)
{
	size_t h;

	if ((i && word_byte((unsigned char)s[i - 1])) ||
	    !isalnum((unsigned char)s[i]))
		return false;
	*ul = user_len(s, n, i);
	if (!*ul || i + *ul >= n || s[i + *ul] != '@')
		return false;
	h = i + *ul + 1;
	for (*hl = 0; h + *hl < n && *hl < KNOWN_LEN &&
	    (isalnum((unsigned char)s[h + *hl]) || s[h + *hl] == '.' ||
	    s[h + *hl] == '-'); (*hl)++)
		;
	return *hl && h + *hl + 1 < n && s[h + *hl] == ':' &&
	    (s[h + *hl + 1] == '~' || s[h + *hl + 1] == '/');
}

/* A value of kind found at s[i..i+len): its token, or the text itself
 * when keep. */
static void
put_value(unsigned kind, const char *s, size_t len, const char *canon,
    bool keep)
{
	if (keep)
		put(s, len);
	else
		put_token(value_add(kind, canon ? canon : s,
		    canon ? strlen(canon) : len, 0));
}

/* A MAC as the same value whichever separator: lower case with ':'. */
static void
put_mac(const char *s, size_t len)
{
	char canon[64];

	lower(canon, s, len);
	for (size_t k = 2; k < len; k += 3)
		canon[k] = ':';
	put_value(PD_RK_MAC, s, len, canon, all_of(canon, len, "0:") ||
	    all_of(canon, len, "f:"));
}

/* The value at s[i], written masked: the bytes taken, 0 when none. */
static size_t
value_at(const char *s, size_t n, size_t i)
{
	char canon[80];
	size_t len, pre, hl;
	bool keep = false;
	unsigned kind;
	long e;

	if ((len = token_len(s, n, i)) != 0) {
		put(s + i, len);
		return len;
	}
	if ((len = known_at(s, n, i, &e)) != 0) {
		put_token(e);
		return len;
	}
	if ((len = uuid_at(s, n, i, &kind)) != 0) {
		lower(canon, s + i, len);
		put_value(kind, s + i, len, canon,
		    all_of(canon, len, "0-"));
		return len;
	}
	if ((len = mac_at(s, n, i, &kind)) != 0) {
		put_mac(s + i, len);
		return len;
	}
	if ((len = ipv6_at(s, n, i, canon, &keep)) != 0 ||
	    (len = ipv4_at(s, n, i, canon, &keep)) != 0) {
		put_value(strchr(canon, ':') ? PD_RK_IPV6 : PD_RK_IPV4, s + i,
		    len, canon, keep);
		return len;
	}
	if ((len = home_at(s, n, i, &pre)) != 0) {
		put(s + i, pre);
		put_value(PD_RK_USER, s + i + pre, len - pre, NULL,
		    len - pre == 4 && strncmp(s + i + pre, "root", 4) == 0);
		return len;
	}
	if (prompt_at(s, n, i, &len, &hl)) {
		put_value(PD_RK_USER, s + i, len, NULL,
		    len == 4 && strncmp(s + i, "root", 4) == 0);
		put("@", 1);
		if (known_at(s, n, i + len + 1, &e) == hl)
			put_token(e);
		else
			put_value(PD_RK_HOST, s + i + len + 1, hl, NULL, false);
		return len + 1 + hl;
	}
	return 0;
}

const char *
pd_redact(struct pd_arena *a, const char *s)
{
	if (!R.on || !s)
		return s;
	size_t n = strlen(s), i = 0;
	bool changed = false;

	R.blen = 0;
	while (i < n) {
		size_t at = R.blen, len;

		if ((len = value_at(s, n, i)) == 0) {
			put(s + i++, 1);
			continue;
		}
		changed |= R.blen - at != len || memcmp(R.buf + at, s + i, len);
		i += len;
	}
	if (!changed)
		return s;
	return pd_arena_strndup(a ? a : R.arena, R.buf, R.blen);
}

static int
ent_cmp(const void *x, const void *y)
{
	const struct ent *a = &R.v[*(const uint32_t *)x];
	const struct ent *b = &R.v[*(const uint32_t *)y];

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return strcmp(a->orig, b->orig);
}

/* ORIGINAL with control bytes, tab, backslash and DEL as \xNN. */
static void
write_orig(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			fprintf(out, "\\x%02x", *p);
		else
			fputc(*p, out);
}

int
pd_redact_write_map(FILE *out)
{
	uint32_t *order = pd_xmalloc((R.n + 1) * sizeof(*order));

	for (size_t i = 0; i < R.n; i++)
		order[i] = (uint32_t)i;
	qsort(order, R.n, sizeof(*order), ent_cmp);
	fprintf(out, "# token\tkind\toriginal\n");
	for (size_t i = 0; i < R.n; i++) {
		const struct ent *e = &R.v[order[i]];

		fprintf(out, "{%s-%u}\t%s\t", kind_names[e->kind], e->num,
		    kind_names[e->kind]);
		write_orig(out, e->orig);
		fputc('\n', out);
	}
	if (R.overflow)
		fprintf(out, "# %lu more occurrences masked as {redacted}: the "
		    "map holds %d values\n", R.overflow, PD_REDACT_MAX);
	free(order);
	return ferror(out) ? -1 : 0;
}
