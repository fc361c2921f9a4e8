/* Identification by content: every reader bids, the highest wins; the
 * member path only breaks ties. */
#include <stdbool.h>
#include <string.h>
#include "bundle/bundle.h"
#include "pathdoctor/format.h"

static bool
path_hints(const struct pd_format *f, const char *path)
{
	if (!path)
		return false;
	if (strstr(path, f->name))
		return true;
	for (const char *const *h = f->hints; h && *h; h++)
		if (strstr(path, *h))
			return true;
	return false;
}

const struct pd_format *
pd_sniff(const struct pd_member *m, int *bid_out, int *runner_up)
{
	const struct pd_format *best = NULL;
	int best_bid = 0, second = 0;

	for (const struct pd_format *const *f = pd_formats; *f; f++) {
		int bid = (*f)->bid(m);

		if (bid > 0 && path_hints(*f, m->hint_path))
			bid += PD_BID_PATH_HINT;
		if (bid > best_bid) {
			second = best_bid;
			best_bid = bid;
			best = *f;
		} else if (bid > second) {
			second = bid;
		}
	}
	if (best_bid < PD_BID_MIN)
		best = pd_format_find("unknown");
	if (bid_out)
		*bid_out = best_bid;
	if (runner_up)
		*runner_up = second;
	return best;
}
