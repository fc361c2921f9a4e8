/* The HTML report's parts (src/report/html*.c): one self-contained page,
 * inline CSS and SVG, nothing fetched and no script.  html.c writes the
 * page and the findings, html_svg.c the charts, html_host.c the hosts,
 * members and rules not evaluated, html_css.c the stylesheet. */
#ifndef PD_HTML_H
#define PD_HTML_H

#include <stdint.h>
#include <stdio.h>
#include "pathdoctor/model.h"

struct pd_arena;
struct pd_chart;
struct pd_ladder;
struct pd_profile;
struct pd_report;

struct pd_html {
	FILE *out;
	struct pd_arena *a;
	const struct pd_report *r;
};

/* Bundle-derived text, where the context h is in scope (escape.h). */
#define H(s) pd_html_text(h->a, (s))

extern const char pd_html_css[];

/* The ladder as horizontal bars: observed, each fix's expected with its
 * range, the hardware ceiling. */
void pd_html_ladder_svg(struct pd_html *h, const struct pd_ladder *l);
/* A finding's histograms: two in a <figure class="capture-pair">, each on
 * its own scale, or one. */
void pd_html_chart(struct pd_html *h, const struct pd_chart *c);
/* One histogram of up to rows sizes by count, drawn largest size first. */
void pd_html_sizes_svg(struct pd_html *h, const char *title,
    const struct pd_size_count *v, unsigned n, unsigned rows);
/* Top symbols of each core type by self share of its busy samples. */
void pd_html_profile_svg(struct pd_html *h, const struct pd_profile *p);

void pd_html_not_evaluated(struct pd_html *h);
void pd_html_members(struct pd_html *h);
void pd_html_hosts(struct pd_html *h);

/* s cut to at most max bytes on a UTF-8 boundary, with "..." when cut:
 * labels in an SVG cannot wrap. */
const char *pd_html_clip(struct pd_html *h, const char *s, size_t max);

#endif
