/* The HTML report's charts, as inline SVG: the ladder, payload-size
 * histograms, profile symbols.  Coordinates are printed with one
 * decimal so that the page is byte-stable; styling is left to the
 * page's stylesheet (classes), so the print rules apply to charts too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/rule.h"
#include "report/chart.h"
#include "report/escape.h"
#include "report/html.h"

#define MAX_ROWS 24		/* histogram rows, as the text charts */
#define LADDER_W 960.0
#define HIST_W 460.0

const char *
pd_html_clip(struct pd_html *h, const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0;

	if (n <= max)
		return s ? s : "";
	n = max - 1;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return pd_arena_printf(h->a, "%.*s\xe2\x80\xa6", (int)n, s);
}

/* The axis step: 1, 2 or 5 x 10^k, the smallest giving at most 5 ticks
 * up to max. */
static double
nice_step(double max)
{
	double raw = max > 0 ? max / 5 : 1;
	double p = pow(10, floor(log10(raw)));

	if (p >= raw)
		return p;
	if (2 * p >= raw)
		return 2 * p;
	return 5 * p >= raw ? 5 * p : 10 * p;
}

static double
nice_max(double max)
{
	double step = nice_step(max);

	return step * ceil(max / step - 1e-9);
}

static void
svg_open(struct pd_html *h, const char *cls, double w, double ht,
    const char *label)
{
	fprintf(h->out, "<svg class=\"%s\" viewBox=\"0 0 %.0f %.0f\" width=\""
	    "%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"%s\" xmlns=\""
	    "http://www.w3.org/2000/svg\">\n<title>%s</title>\n", cls, w, ht,
	    w, ht, H(label), H(label));
}

/* --- the ladder ------------------------------------------------------ */

#define LROW 46.0		/* label line, bar, gap */
#define LTOP 26.0		/* room for the ceiling's label */
#define LX 8.0
#define LBW (LADDER_W - 2 * LX)

/* "GB/s" and its divisor for an axis up to max bytes/s. */
static const char *
rate_unit(double max, double *div)
{
	static const char *const units[] = { "B/s", "kB/s", "MB/s", "GB/s",
		"TB/s" };
	unsigned u = 0;

	*div = 1;
	while (max / *div >= 1000 && u + 1 < PD_ARRAY_SIZE(units)) {
		*div *= 1000;
		u++;
	}
	return units[u];
}

static double
lx(double v, double dmax)
{
	return LX + (dmax > 0 ? v / dmax * LBW : 0);
}

/* One bar (v: low, expected, high) with its label above it and its rate
 * (and range) inside its start, clear of the whisker at its end; after
 * the whisker when the bar is too short to hold it. */
static void
ladder_bar(struct pd_html *h, double y, const char *cls, const char *label,
    const double v[3], double dmax, const char *rate)
{
	double x1 = lx(v[1], dmax), w = x1 - LX;
	double clear = lx(v[0], dmax) - LX, after = lx(v[2], dmax) - LX;

	fprintf(h->out, "<text class=\"lbl\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
	    LX, y + 14, H(pd_html_clip(h, label, 140)));
	fprintf(h->out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f"
	    "\" height=\"18\" rx=\"2\"/>\n", cls, LX, y + 20, w > 1 ? w : 1);
	/* 7 px a character of the bold label is generous */
	if (clear > 7.0 * (double)strlen(rate) + 16)
		fprintf(h->out, "<text class=\"val in\" x=\"%.1f\" y=\"%.1f\">"
		    "%s</text>\n", LX + 8, y + 33, rate);
	else
		fprintf(h->out, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\">%s"
		    "</text>\n", LX + after + 6, y + 33, rate);
}

/* The low..high range of a step as a whisker across its bar's end. */
static void
whisker(struct pd_html *h, double y, double lo, double hi, double dmax)
{
	double a = lx(lo, dmax), b = lx(hi, dmax), m = y + 29;

	fprintf(h->out, "<path class=\"whisker\" d=\"M%.1f %.1fH%.1fM%.1f "
	    "%.1fV%.1fM%.1f %.1fV%.1f\"/>\n", a, m, b, a, m - 6, m + 6, b,
	    m - 6, m + 6);
}

static void
ladder_axis(struct pd_html *h, double dmax, double y0, double y1)
{
	double div, step = nice_step(dmax);
	const char *unit = rate_unit(dmax, &div);
	unsigned n = (unsigned)lround(dmax / step);

	for (unsigned k = 0; k <= n; k++) {
		double t = k * step, x = lx(t, dmax);

		fprintf(h->out, "<path class=\"grid\" d=\"M%.1f %.1fV%.1f\"/>\n"
		    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor="
		    "\"%s\">%g%s%s</text>\n", x, y0, y1, x, y1 + 14, k == n ?
		    "end" : k ? "middle" : "start", t / div, k == n ? " " : "",
		    k == n ? unit : "");
	}
}

static void
ladder_ceiling(struct pd_html *h, const struct pd_ladder *l, double dmax,
    double y1)
{
	double x = lx(l->ceiling, dmax);
	bool right = x > LADDER_W / 2;

	fprintf(h->out, "<path class=\"ceiling-line\" d=\"M%.1f %.1fV%.1f\"/>\n"
	    "<text class=\"ceiling-lbl\" x=\"%.1f\" y=\"14\" "
	    "text-anchor=\"%s\">hardware ceiling "
	    "%s</text>\n", x, LTOP - 6, y1, right ? x - 4 :
	    x + 4, right ? "end" : "start", pd_rate_str(h->a, l->ceiling));
}

void
pd_html_ladder_svg(struct pd_html *h, const struct pd_ladder *l)
{
	unsigned rows = l->n_steps + 2;
	double dmax = l->ceiling > l->observed ? l->ceiling : l->observed;
	double y = LTOP, y1 = LTOP + rows * LROW;

	for (unsigned i = 0; i < l->n_steps; i++)
		dmax = l->steps[i].hi > dmax ? l->steps[i].hi : dmax;
	dmax = nice_max(dmax > 0 ? dmax : 1);
	fprintf(h->out, "<figure class=\"ladder-chart\">\n");
	svg_open(h, "ladder", LADDER_W, y1 + 22, pd_arena_printf(h->a, "path "
	    "ceiling ladder of %s: observed, each fix, hardware ceiling",
	    l->host->name));
	ladder_axis(h, dmax, LTOP - 6, y1);
	ladder_bar(h, y, "bar observed", pd_arena_printf(h->a, "observed (%s): "
	    "%s", l->observed_source, l->observed_what), (double[3]){
	    l->observed, l->observed, l->observed }, dmax,
	    pd_rate_str(h->a, l->observed));
	for (unsigned i = 0; i < l->n_steps; i++) {
		const struct pd_ladder_step *s = &l->steps[i];
		const char *rate = pd_arena_printf(h->a, "%s (%s .. %s)",
		    pd_rate_str(h->a, s->expected), pd_rate_str(h->a, s->lo),
		    pd_rate_str(h->a, s->hi));

		y += LROW;
		ladder_bar(h, y, "bar step", pd_arena_printf(h->a, "fix %u: %s "
		    "(%s)", i + 1, s->fix, s->finding->rule->id), (double[3]){
		    s->lo, s->expected, s->hi }, dmax, rate);
		whisker(h, y, s->lo, s->hi, dmax);
	}
	y += LROW;
	ladder_bar(h, y, "bar ceiling", pd_arena_printf(h->a, "hardware "
	    "ceiling: %s", l->ceiling_stage), (double[3]){ l->ceiling,
	    l->ceiling, l->ceiling }, dmax, pd_rate_str(h->a, l->ceiling));
	ladder_ceiling(h, l, dmax, y1);
	fprintf(h->out, "</svg>\n</figure>\n");
}

/* --- histograms ------------------------------------------------------ */

#define HROW 20.0
#define HTOP 6.0
#define HX0 78.0		/* bars start after the size label */
#define HBW (HIST_W - HX0 - 62)	/* and leave room for the count */

struct hist {
	uint32_t size[MAX_ROWS];
	uint64_t count[MAX_ROWS];
	unsigned n;
	bool log;
	double decades;		/* log: the axis spans 10^0 .. 10^decades */
	double max;		/* linear: the axis's end */
};

static bool
has_size(const struct hist *t, uint32_t bytes)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->size[i] == bytes)
			return true;
	return false;
}

static int
size_desc(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? 1 : a > b ? -1 : 0;
}

/* Counts spanning more than two orders of magnitude would leave every
 * bar but the largest a sliver: those get a log axis, said so on it. */
static void
hist_scale(struct hist *t)
{
	uint64_t max = 0, min = 0;

	for (unsigned i = 0; i < t->n; i++) {
		max = t->count[i] > max ? t->count[i] : max;
		if (t->count[i] && (!min || t->count[i] < min))
			min = t->count[i];
	}
	t->log = min && max > 100 * min;
	t->decades = t->log ? ceil(log10((double)max) - 1e-9) : 0;
	t->max = nice_max(max ? (double)max : 1);
}

static double
hist_x(const struct hist *t, uint64_t c)
{
	double w;

	if (!c)
		return HX0;
	if (t->log)
		w = log10((double)c) / t->decades * HBW;
	else
		w = (double)c / t->max * HBW;
	return HX0 + (w < 1.5 ? 1.5 : w);
}

static void
hist_axis(struct pd_html *h, const struct hist *t, double y1)
{
	if (t->log) {
		for (unsigned k = 0; k <= (unsigned)t->decades; k++) {
			double x = HX0 + k / t->decades * HBW;

			fprintf(h->out, "<path class=\"grid\" d=\"M%.1f "
			    "%.1fV%.1f\"/>\n<text class=\"tick\" x=\"%.1f\" "
			    "y=\"%.1f\" "
			    "text-anchor=\"middle\">%.0f</text>\n", x, HTOP, y1,
			    x, y1 + 13, pow(10, k));
		}
	} else {
		double step = nice_step(t->max);

		for (double v = 0; v <= t->max + step / 2; v += step) {
			double x = HX0 + v / t->max * HBW;

			fprintf(h->out, "<path class=\"grid\" d=\"M%.1f "
			    "%.1fV%.1f\"/>\n<text class=\"tick\" x=\"%.1f\" "
			    "y=\"%.1f\" "
			    "text-anchor=\"middle\">%.0f</text>\n", x, HTOP, y1,
			    x, y1 + 13, v);
		}
	}
	fprintf(h->out, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" "
	    "text-anchor=\"middle\">segments%s</text>\n", HX0 + HBW / 2,
	    y1 + 28, t->log ? " (log scale)" : "");
}

static void
hist_svg(struct pd_html *h, const char *title, const struct hist *t)
{
	double y1 = HTOP + t->n * HROW + 2;

	fprintf(h->out, "<div class=\"chart\">\n<p class=\"chart-title\">%s"
	    "<span class=\"scale\">%s</span></p>\n", H(title), t->log ?
	    "log scale" : "linear scale");
	svg_open(h, "hist", HIST_W, y1 + 34, pd_arena_printf(h->a, "payload "
	    "sizes of %s%s", title, t->log ? ", log scale" : ""));
	hist_axis(h, t, y1);
	for (unsigned i = 0; i < t->n; i++) {
		double y = HTOP + i * HROW + 2, x = hist_x(t, t->count[i]);

		fprintf(h->out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"end\">%u B</text>\n", HX0 - 6, y + 11,
		    t->size[i]);
		if (t->count[i])
			fprintf(h->out, "<rect class=\"bar size\" x=\"%.1f\" y="
			    "\"%.1f\" width=\"%.1f\" height=\"14\" rx=\"1.5\"/>"
			    "\n", HX0, y, x - HX0);
		fprintf(h->out, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\">%llu"
		    "</text>\n", x + 4, y + 11,
		    (unsigned long long)t->count[i]);
	}
	fprintf(h->out, "</svg>\n</div>\n");
}

static void
hist_fill(struct hist *t, const struct pd_size_count *v, unsigned n)
{
	qsort(t->size, t->n, sizeof(t->size[0]), size_desc);
	for (unsigned i = 0; i < t->n; i++)
		t->count[i] = pd_size_count_of(v, n, t->size[i]);
	hist_scale(t);
}

void
pd_html_sizes_svg(struct pd_html *h, const char *title,
    const struct pd_size_count *v, unsigned n, unsigned rows)
{
	struct hist t = { .n = 0 };

	for (unsigned i = 0; i < n && t.n < rows && t.n < MAX_ROWS; i++)
		t.size[t.n++] = v[i].bytes;
	hist_fill(&t, v, n);
	hist_svg(h, title, &t);
}

/* Both sides on the same rows, each side's top sizes in turn, so that
 * each side's shape shows whatever the other's counts. */
void
pd_html_chart(struct pd_html *h, const struct pd_chart *c)
{
	struct hist ta = { .n = 0 }, tb;
	unsigned rows = c && c->rows < MAX_ROWS ? c->rows : MAX_ROWS;

	if (!c)
		return;
	for (unsigned i = 0; ta.n < rows && (i < c->n_a || (c->b &&
	    i < c->n_b)); i++) {
		if (i < c->n_a && !has_size(&ta, c->a[i].bytes))
			ta.size[ta.n++] = c->a[i].bytes;
		if (c->b && ta.n < rows && i < c->n_b &&
		    !has_size(&ta, c->b[i].bytes))
			ta.size[ta.n++] = c->b[i].bytes;
	}
	tb = ta;
	hist_fill(&ta, c->a, c->n_a);
	if (!c->title_b || !c->b) {
		fprintf(h->out, "<figure class=\"capture\">\n");
		hist_svg(h, c->title_a, &ta);
	} else {
		hist_fill(&tb, c->b, c->n_b);
		fprintf(h->out, "<figure class=\"capture-pair\">\n");
		hist_svg(h, c->title_a, &ta);
		hist_svg(h, c->title_b, &tb);
	}
	fprintf(h->out, "<figcaption>TCP payload sizes by count, largest size "
	    "first; each chart on its own scale</figcaption>\n</figure>\n");
}

/* --- profile symbols ------------------------------------------------- */

#define PX0 200.0		/* bars start after the symbol's name */
#define PBW (HIST_W - PX0 - 56)

static double
busy_share(const struct pd_profile *p, unsigned g, unsigned sym)
{
	double busy = p->groups[g].total - p->groups[g].idle;

	return busy > 0 ? 100 * pd_prof_sym_group(p, false, sym, g) / busy :
	    0;
}

static void
profile_group(struct pd_html *h, const struct pd_profile *p, unsigned g,
    double dmax)
{
	unsigned n = p->n_top[g][0];
	double y1 = HTOP + n * HROW + 2, step = nice_step(dmax);

	fprintf(h->out, "<div class=\"chart\">\n<p class=\"chart-title\">%s"
	    "<span class=\"scale\">self, %% of busy samples</span></p>\n",
	    H(p->groups[g].name));
	svg_open(h, "hist", HIST_W, y1 + 20, pd_arena_printf(h->a, "top "
	    "symbols of %s by self share of busy samples", p->groups[g].name));
	for (double v = 0; v <= dmax + step / 2; v += step)
		fprintf(h->out, "<path class=\"grid\" d=\"M%.1f %.1fV%.1f\"/>\n"
		    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\""
		    "middle\">%g %%</text>\n", PX0 + v / dmax * PBW, HTOP, y1,
		    PX0 + v / dmax * PBW, y1 + 13, v);
	for (unsigned i = 0; i < n; i++) {
		const struct pd_prof_sym *s = &p->syms[p->top[g][0][i]];
		double y = HTOP + i * HROW + 2, v = busy_share(p, g,
		    p->top[g][0][i]), w = v / dmax * PBW;

		fprintf(h->out, "<g><title>%s (%s)</title><text class=\"sym\" "
		    "x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		    H(s->name), H(s->dso), PX0 - 6, y + 11,
		    H(pd_html_clip(h, s->name, 30)));
		fprintf(h->out, "<rect class=\"bar %s\" x=\"%.1f\" y=\"%.1f\" "
		    "width=\"%.1f\" height=\"14\" rx=\"1.5\"/>\n<text "
		    "class=\"val"
		    "\" x=\"%.1f\" y=\"%.1f\">%.1f %%</text></g>\n", s->kernel ?
		    "kernel" : "user", PX0, y, w > 1 ? w : 1, PX0 + w + 4,
		    y + 11, v);
	}
	fprintf(h->out, "</svg>\n</div>\n");
}

void
pd_html_profile_svg(struct pd_html *h, const struct pd_profile *p)
{
	double dmax = 0;

	for (unsigned g = 0; g < p->n_groups; g++)
		for (unsigned i = 0; i < p->n_top[g][0]; i++) {
			double v = busy_share(p, g, p->top[g][0][i]);

			dmax = v > dmax ? v : dmax;
		}
	if (dmax <= 0)
		return;
	/* one scale for every core type, so that their bars compare */
	dmax = nice_max(dmax);
	fprintf(h->out, "<figure class=\"profile-groups\">\n");
	for (unsigned g = 0; g < p->n_groups; g++)
		if (p->n_top[g][0])
			profile_group(h, p, g, dmax);
	fprintf(h->out, "<figcaption>Top symbols by self share of each core "
	    "type's busy (not idle) samples; kernel symbols darker"
	    "</figcaption>\n</figure>\n");
}
