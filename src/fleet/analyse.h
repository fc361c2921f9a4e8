/* JSON lines made in this process: one bundle analysed as
 * `pathdoctor -f json` does, wrapped in the line of the JSON line
 * contract (pathdoctor_jsonl 1) and handed to a callback. */
#ifndef PD_FLEET_ANALYSE_H
#define PD_FLEET_ANALYSE_H

#include <stdbool.h>
#include <stddef.h>

struct pd_limits;

/* One compact JSON line, without its newline.  Non-zero: stop. */
typedef int (*pd_fleet_line_fn)(void *ctx, const char *line, size_t len);
/* Asked with the bundle's hash before it is analysed: true skips it
 * (--skip-existing). */
typedef bool (*pd_fleet_skip_fn)(void *ctx, const char *sha256);

/* Hashes and analyses bundle and calls line with its JSON line (a
 * bundle that cannot be read gives a line with its error); skip, when
 * given, may spare the analysis.  Returns line's result, 0 skipped. */
int pd_fleet_analyse(const char *bundle, const struct pd_limits *lim,
    pd_fleet_skip_fn skip, pd_fleet_line_fn line, void *ctx);

#endif
