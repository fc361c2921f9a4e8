/* sysfs and procfs values as a bundle holds them: a listing of
 * "PATH:VALUE" lines, as `grep -H . FILES` prints them and
 * pathdoctor-collect writes them for one-value files, or the one-value
 * file itself at its own path (a sosreport's sys/ and proc/ trees).
 * Both forms go through the same path patterns, so a reader has one
 * table of the files it knows. */
#ifndef PD_SYSVAL_H
#define PD_SYSVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_member;

/* A piece of a string: not NUL-terminated. */
struct pd_span {
	const char *p;
	size_t n;
};

#define PD_SYSVAL_CAPS 4

/* Splits a listing line "/sys/class/x/y:VALUE" at the first colon after
 * the path, which must begin with '/' and hold no blank; the value is
 * the rest of the line (it may hold colons: "0-3:x" keeps ":x").  False
 * when the line is not of that form. */
bool pd_sysval_split(const char *line, struct pd_span *path,
    struct pd_span *val);

/* Like pd_sysval_split for paths that hold colons themselves
 * ("/sys/class/powercap/intel-rapl:0/name:package-0", "/proc/irq/141/
 * 0000:07:00.0-0/../smp_affinity_list:0"): splits at the colon whose
 * path before it matches one of the n patterns (as
 * pd_sysval_match), trying the last colon before a blank first (values
 * of these files hold no colon, and a pattern's star could take a
 * value's start as part of a file name); false when none matches. */
bool pd_sysval_split_known(const char *line, const char *const *patterns,
    size_t n, struct pd_span *path, struct pd_span *val);

/* Matches the end of path against pattern ("sys/class/nvme-subsystem/
 * * /iopolicy" without the blanks): the match must begin at the start
 * of path or after a '/', so "/sys/...", "sos/sys/..." and "sys/..." all
 * match, and "xsys/..." does not.  Each '*' matches one or more bytes
 * other than '/', stored in caps[i] (at most PD_SYSVAL_CAPS of them). */
bool pd_sysval_match(const char *path, size_t len, const char *pattern,
    struct pd_span caps[PD_SYSVAL_CAPS]);

/* A one-value member: the whole head is one line (a final newline
 * allowed, no other control byte) of at most cap - 1 bytes, copied to
 * out; false otherwise.  A one-value file has no header to bid on, so
 * its reader bids on its path and on the value's own grammar. */
bool pd_sysval_one_line(const struct pd_member *m, char *out, size_t cap);

/* A span as an unsigned decimal number; false when it is not one. */
bool pd_span_u64(struct pd_span s, uint64_t *out);

/* A CPU list as the kernel prints it ("0-3,8,10-11", "" for none) into
 * a bitmap of nbits bits; false when malformed or a CPU is nbits or
 * above.  The count of CPUs set is in *n_set when not NULL. */
bool pd_cpulist_parse(const char *s, size_t len, uint64_t *bits,
    unsigned nbits, unsigned *n_set);
/* A hexadecimal CPU mask as /proc/irq/N/smp_affinity prints it
 * ("00000000,0000000f": 32-bit groups, most significant first). */
bool pd_cpumask_parse(const char *s, size_t len, uint64_t *bits,
    unsigned nbits, unsigned *n_set);

/* A bitmap of nbits CPUs as the kernel's list form ("0-3,8") into out
 * (cap bytes, cut with "..." when longer); "" for none. */
void pd_cpulist_format(const uint64_t *bits, unsigned nbits, char *out,
    size_t cap);

#endif
