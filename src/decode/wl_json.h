/* What the JSON workload readers (fio-json, iperf3-json) share: the
 * member read whole up to a cap and parsed with jansson from its first
 * '{' line (tools print text before their JSON, and fio more after it),
 * numbers where -1 is unknown, and evidence found by key, since jansson
 * keeps no line numbers. */
#ifndef PD_WL_JSON_H
#define PD_WL_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "pathdoctor/status.h"

struct pd_arena;
struct pd_diag;
struct pd_evidence;
struct pd_format;
struct pd_input;

/* The member as read, and its JSON value. */
struct pd_wl_json {
	unsigned char *buf;
	size_t len;
	json_t *root;
};

/* Reads and parses the member; false with the note FORMAT.too-large
 * (over cap) or FORMAT.bad (no JSON value) when it cannot.  Release
 * with pd_wl_json_release in every case. */
bool pd_wl_json_load(struct pd_wl_json *j, const struct pd_format *f,
    struct pd_input *in, size_t cap, struct pd_diag *d);
void pd_wl_json_release(struct pd_wl_json *j);
/* The number under key, or -1 when absent or negative. */
double pd_wl_json_num(json_t *o, const char *key);
/* The line of the nth (0-based) occurrence of key ("\"jobname\""). */
void pd_wl_json_evidence(const struct pd_wl_json *j, struct pd_evidence *ev,
    struct pd_arena *a, const char *member, const char *key, unsigned nth);

#endif
