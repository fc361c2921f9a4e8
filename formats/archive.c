/* "archive": a nested archive inside the bundle (a sosreport tarball in
 * an upload, a .tar.xz per host); the walker opens it itself, to
 * --max-depth levels.  Gzip'd members are unwrapped before bidding, so a
 * nested .tar.gz is seen here as a tar. */
#include <string.h>
#include "pathdoctor/format.h"

static int
bid_archive(const struct pd_member *m)
{
	const unsigned char *p = m->head;
	size_t n = m->head_len;

	if (n >= 262 && memcmp(p + 257, "ustar", 5) == 0)
		return 64;
	if (n >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
		return 48;
	if (n >= 6 && memcmp(p, "7z\xbc\xaf\x27\x1c", 6) == 0)
		return 48;
	if (n >= 10 && memcmp(p, "BZh", 3) == 0 && p[3] >= '1' &&
	    p[3] <= '9' && memcmp(p + 4, "1AY&SY", 6) == 0)
		return 64;
	if (n >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0)
		return 32;
	if (n >= 4 && memcmp(p, "PK\x03\x04", 4) == 0)
		return 32;
	return 0;
}

static const char *const hints[] = { ".tar", ".tgz", ".txz", ".zip",
	"sosreport", NULL };

const struct pd_format pd_format_archive = {
	.name = "archive",
	.summary = "nested tar, zip, xz, bzip2 or zstd archive, walked in place",
	.command = "tar, sos report",
	.hints = hints,
	.container = 1,
	.bid = bid_archive,
};
