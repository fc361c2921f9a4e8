/* Interface names and snapshot times from member paths. */
#include <string.h>
#include "base/ifpath.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/format.h"
#include "pathdoctor/text.h"

static const char *const extensions[] = { ".txt", ".out", ".log", ".gz",
	".pcap", ".pcapng", ".cap", NULL };

bool
pd_parse_unix_time(const char *s, int64_t *ms, const char **end)
{
	uint64_t sec, frac = 0;
	const char *e;
	int digits = 0;

	if (!pd_parse_u64(s, 10, &sec, &e) || sec > 100000000000ull)
		return false;
	if (*e == '.') {
		e++;
		while (*e >= '0' && *e <= '9') {
			if (digits < 3) {
				frac = frac * 10 + (uint64_t)(*e - '0');
				digits++;
			}
			e++;
		}
		while (digits < 3) {
			frac *= 10;
			digits++;
		}
	}
	*ms = (int64_t)(sec * 1000 + frac);
	if (end)
		*end = e;
	return true;
}

/* The base name without a known extension: [*start, *len). */
static void
base_of(const char *path, const char **start, size_t *len)
{
	const char *b = strrchr(path, '/');

	b = b ? b + 1 : path;
	size_t n = strlen(b);

	for (int again = 1; again;) {
		again = 0;
		for (const char *const *x = extensions; *x; x++) {
			size_t k = strlen(*x);

			if (n > k && memcmp(b + n - k, *x, k) == 0) {
				n -= k;
				again = 1;
			}
		}
	}
	*start = b;
	*len = n;
}

/* Position of "@<time>" at the end of [b, b+n), or n. */
static size_t
time_at(const char *b, size_t n)
{
	for (size_t i = n; i > 0; i--)
		if (b[i - 1] == '@') {
			for (size_t k = i; k < n; k++)
				if (!((b[k] >= '0' && b[k] <= '9') || b[k] == '.'))
					return n;
			return i < n ? i - 1 : n;
		}
	return n;
}

bool
pd_time_from_path(const char *path, int64_t *ms)
{
	const char *b, *end;
	size_t n;

	base_of(path, &b, &n);
	size_t at = time_at(b, n);

	if (at == n)
		return false;
	char buf[32];

	if (n - at - 1 >= sizeof(buf))
		return false;
	memcpy(buf, b + at + 1, n - at - 1);
	buf[n - at - 1] = '\0';
	return pd_parse_unix_time(buf, ms, &end) && *end == '\0';
}

/* Names that follow the kernel's and udev's naming schemes, or the
 * conventions of bridges, bonds, tunnels and hypervisors: with one of
 * these a member's base name can stand for its interface even where
 * nothing else in the path says it does. */
static const char *const if_prefixes[] = {
	"eth", "en", "wl", "ww", "ib", "bond", "br", "vmbr", "tap", "veth",
	"vnet", "virbr", "docker", "team", "nic", "em", "usb", "vlan", "tun",
	"gre", "ovs", "cni", "flannel", "cali", "vxlan", "geneve", "wg",
	"macvtap", "ipvlan", "hn", "lan", "wan", "net", "p", NULL,
};

static bool
interface_like(const char *b, size_t n)
{
	bool digit = false;

	if (n == 2 && memcmp(b, "lo", 2) == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		digit = digit || (b[i] >= '0' && b[i] <= '9');
	for (const char *const *p = if_prefixes; digit && *p; p++) {
		size_t k = strlen(*p);

		if (n > k && memcmp(b, *p, k) == 0)
			return k > 1 || (b[1] >= '0' && b[1] <= '9');
	}
	return false;
}

/* The path names the format's command ("ethtool-S/", "x.pcap") or a
 * directory is named for the format ("pcap/"). */
static bool
hinted(const char *path, const char *base, const struct pd_format *f)
{
	size_t k = strlen(f->name);

	for (const char *const *h = f->hints; h && *h; h++)
		if (**h && strstr(path, *h))
			return true;
	for (const char *p = path; p < base; p++)
		if ((p == path || p[-1] == '/') && strncmp(p, f->name, k) == 0 &&
		    p[k] == '/')
			return true;
	return false;
}

bool
pd_ifname_path_trusted(const char *path, const struct pd_format *f)
{
	const char *b;
	size_t n, whole;

	base_of(path, &b, &n);
	whole = n;
	n = time_at(b, n);
	if (n < whole || hinted(path, b, f))
		return true;
	for (const char *const *p = f->name_prefixes; p && *p; p++)
		if (strncmp(b, *p, strlen(*p)) == 0)
			return true;
	return interface_like(b, n);
}

const char *
pd_ifname_from_path(struct pd_arena *a, const char *path,
    const struct pd_format *f)
{
	const char *b;
	size_t n, longest = 0;

	base_of(path, &b, &n);
	n = time_at(b, n);
	/* the longest of the format's prefixes: "ethtool_-S_" over a
	 * shorter one that it starts with */
	for (const char *const *p = f->name_prefixes; p && *p; p++) {
		size_t k = strlen(*p);

		if (n > k && k > longest && memcmp(b, *p, k) == 0)
			longest = k;
	}
	b += longest;
	n -= longest;
	if (n == 0)
		return NULL;
	char *name = pd_arena_strndup(a, b, n);

	/* "ethtool-S.txt" names a command, not an interface */
	return pd_format_find(name) ? NULL : name;
}

bool
pd_ifname_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 15)
		return false;
	for (size_t i = 0; i < n; i++)
		if (name[i] == ' ' || name[i] == ':' || name[i] == '/' ||
		    (unsigned char)name[i] <= 0x20)
			return false;
	return true;
}

const char *
pd_ifname_from_header(struct pd_arena *a, const char *line,
    const char *prefix)
{
	const char *p = pd_skip_space(line);

	if (!pd_starts_with(p, prefix))
		return NULL;
	p += strlen(prefix);
	size_t n = strlen(p);

	while (n && (p[n - 1] == ' ' || p[n - 1] == ':'))
		n--;
	return n ? pd_arena_strndup(a, p, n) : NULL;
}
