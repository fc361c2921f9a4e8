/* Interface names and snapshot times from member paths, for outputs
 * that do not carry them (ethtool -S, ethtool -i). */
#ifndef PD_IFPATH_H
#define PD_IFPATH_H

#include <stdbool.h>
#include <stdint.h>

struct pd_arena;
struct pd_format;

/* "h/ethtool-S/nic2@1764000000.txt" -> "nic2"; sosreport
 * "ethtool_-S_bond0.123" -> "bond0.123", the prefix being one of format
 * f's name_prefixes; NULL when nothing is left or what is left is a
 * format name.  The result may still not be a valid interface name:
 * check with pd_ifname_valid. */
const char *pd_ifname_from_path(struct pd_arena *a, const char *path,
    const struct pd_format *f);
/* Whether the path's layout says its base name is an interface: a
 * sosreport prefix, "@TIME", the command or the format named in the
 * path ("ethtool-S/", "pcap/", ".pcap"), or an interface's shape
 * ("enp1s0", "nic2", "bond0.123"); not for a neutral "m03". */
bool pd_ifname_path_trusted(const char *path, const struct pd_format *f);
/* At most 15 bytes, no '/', ':', white space or control bytes. */
bool pd_ifname_valid(const char *name);
/* "Features for eth0:" with prefix "Features for " -> "eth0". */
const char *pd_ifname_from_header(struct pd_arena *a, const char *line,
    const char *prefix);
/* "...@1764000000.5.txt" -> 1764000000500 ms; false without one. */
bool pd_time_from_path(const char *path, int64_t *ms);
/* "1764000000" or "1764000000.250" -> ms; false when malformed. */
bool pd_parse_unix_time(const char *s, int64_t *ms, const char **end);

#endif
