/* Pieces of the JSON report that pathdoctor diff's JSON reuses
 * (src/report/json.c). */
#ifndef PD_JSON_PARTS_H
#define PD_JSON_PARTS_H

#include <jansson.h>
#include <stdio.h>
#include "pathdoctor/model.h"

struct pd_finding;
struct pd_arena;

json_t *pd_json_evidence(const struct pd_evidence *ev);
/* The string, or JSON null for NULL (pd_json_str gives no value). */
json_t *pd_json_str_or_null(const char *s);
json_t *pd_json_finding(const struct pd_finding *f, struct pd_arena *a);
/* "softnet", "tcp_counters" and "nvme_subsystems" of a host that has
 * them. */
void pd_json_stack_counters(json_t *host, const struct pd_host *h);
/* "pcie" (MaxPayload, its capability, MaxReadReq per Express function)
 * and "drivers" (ethtool -i per interface) of a host. */
void pd_json_host_facts(json_t *host, const struct pd_host *h);
json_t *pd_json_sizes(const struct pd_size_count *v, unsigned n);
/* Writes root (and frees it) in the report's layout; -1 on a write
 * error. */
int pd_json_write(json_t *root, FILE *out);
/* The same compact, on one line (-f jsonl): the same content, the same
 * escapes, only the layout differs. */
int pd_json_write_line(json_t *root, FILE *out);
struct pd_report;
/* The object -f json prints for r (a new reference). */
json_t *pd_json_report(const struct pd_report *r);

#endif
