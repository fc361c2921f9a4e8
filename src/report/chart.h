/* Small text charts for reports: payload-size histograms, one or two
 * side by side ("tap vs physical"). */
#ifndef PD_CHART_H
#define PD_CHART_H

#include "pathdoctor/model.h"

struct pd_arena;

/* Up to rows sizes by count; with b, b's counts for the same sizes (and
 * its own top sizes) are printed beside a's, each column's bars scaled
 * to its own largest count (a line above the header says so). */
const char *pd_chart_sizes(struct pd_arena *a, const char *title_a,
    const struct pd_size_count *va, unsigned na, const char *title_b,
    const struct pd_size_count *vb, unsigned nb, unsigned rows);

/* Two histograms of data segments (payload above 0) side by side, each
 * bar scaled to its own column's largest count: the rows are each
 * side's top sizes in turn, largest size first. */
const char *pd_chart_data_pair(struct pd_arena *a, const char *title_a,
    const struct pd_size_count *va, unsigned na, const char *title_b,
    const struct pd_size_count *vb, unsigned nb, unsigned rows);

/* The count of payload size bytes in v (0 when it is not there). */
uint64_t pd_size_count_of(const struct pd_size_count *v, unsigned n,
    uint32_t bytes);

/* A finding's chart as text lines; NULL when it has none. */
struct pd_chart;
const char *pd_chart_draw(struct pd_arena *a, const struct pd_chart *c);

#endif
