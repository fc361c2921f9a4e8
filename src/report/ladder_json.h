/* The "ladders" array of the JSON report (src/report/ladder_json.c). */
#ifndef PD_LADDER_JSON_H
#define PD_LADDER_JSON_H

#include <jansson.h>

struct pd_ladder;
struct pd_ladder_gap;

json_t *pd_ladders_json(const struct pd_ladder *ladders);
/* "ladders_missing": [{"host", "needs"}] */
json_t *pd_ladder_gaps_json(const struct pd_ladder_gap *gaps);

#endif
