/* Input formats: one const descriptor per format, chosen by bidding.
 *
 * Bid conventions (libarchive's "bits of evidence"):
 *  - return the number of bits actually verified: an 8-byte magic is 64,
 *    an exact header line 8 per byte up to 128, each further well-formed
 *    structural line +8 up to three of them;
 *  - return 0 on the first contradiction ("definitely not");
 *  - text formats return 0 for content with NUL bytes;
 *  - the member path is only a hint: +4, and only when the content bid
 *    is already above 0 (added by the sniffer, not by bid());
 *  - "unknown" bids 1 and a winning bid below PD_BID_MIN counts as
 *    unrecognised.
 */
#ifndef PD_FORMAT_H
#define PD_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "status.h"

struct pd_input;
struct pd_host;
struct pd_diag;

#define PD_PEEK_MAX 16384	/* head bytes any bidder may look at */
#define PD_BID_MIN 16
#define PD_BID_PATH_HINT 4

struct pd_member {
	const char *path;		/* bundle path, "./" stripped, ".gz" kept */
	const char *hint_path;		/* path with a compression suffix removed */
	int64_t size;			/* from the archive header; -1 unknown */
	const unsigned char *head;	/* first head_len bytes, decompressed */
	size_t head_len;
	unsigned depth;			/* 0 = top-level bundle */
	bool one_thread;		/* --one-thread: no helper thread */
};

struct pd_format {
	const char *name;	/* "lspci-vv": JSON, --list-formats, samples */
	const char *summary;	/* one line for --list-formats */
	const char *command;	/* the command that produces it */
	const char *const *hints;	/* path substrings that hint at it */
	/* File-name prefixes that name this command in sosreports and
	 * collector layouts ("ethtool_-S_" in ethtool_-S_eth0): stripped to
	 * leave the interface name.  NULL-ended; NULL when none. */
	const char *const *name_prefixes;
	/* The inputs (enum pd_have bits) a member of this format feeds, and
	 * what to collect for them, as the report's "not evaluated: needs"
	 * says it ("ethtool -a IF output"); NULL when the format feeds an
	 * input without being one on its own (kallsyms names a profile). */
	unsigned gives;
	const char *collect;
	int container;		/* a nested archive the walker opens itself */
	int (*bid)(const struct pd_member *m);
	enum pd_status (*parse)(const struct pd_member *m, struct pd_input *in,
	    struct pd_host *host, struct pd_diag *diag);
};

extern const struct pd_format *const pd_formats[];	/* NULL-terminated */

const struct pd_format *pd_format_find(const char *name);
#endif
