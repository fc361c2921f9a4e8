/* The one list of renderers (-f NAME), and the lookup by name. */
#include <stddef.h>
#include <string.h>
#include "pathdoctor/diff.h"
#include "pathdoctor/report.h"

extern const struct pd_renderer pd_render_md;
extern const struct pd_renderer pd_render_json;
extern const struct pd_renderer pd_render_term;
extern const struct pd_renderer pd_render_html;

const struct pd_renderer *const pd_renderers[] = {
	&pd_render_md,
	&pd_render_json,
	&pd_render_term,
	&pd_render_html,
	NULL,
};

const struct pd_renderer *
pd_renderer_find(const char *name)
{
	for (const struct pd_renderer *const *r = pd_renderers; *r; r++)
		if (strcmp((*r)->name, name) == 0)
			return *r;
	return NULL;
}

extern const struct pd_diff_renderer pd_diff_render_md, pd_diff_render_json,
    pd_diff_render_term;

const struct pd_diff_renderer *const pd_diff_renderers[] = {
	&pd_diff_render_md,
	&pd_diff_render_json,
	&pd_diff_render_term,
	NULL,
};

const struct pd_diff_renderer *
pd_diff_renderer_find(const char *name)
{
	for (const struct pd_diff_renderer *const *r = pd_diff_renderers; *r;
	    r++)
		if (strcmp((*r)->name, name) == 0)
			return *r;
	return NULL;
}
