/* What the JSON workload readers share (see wl_json.h). */
#define _GNU_SOURCE	/* memmem */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "decode/wl_json.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

bool
pd_wl_json_load(struct pd_wl_json *j, const struct pd_format *f,
    struct pd_input *in, size_t cap, struct pd_diag *d)
{
	json_error_t err;
	long s;

	memset(j, 0, sizeof(*j));
	if (pd_input_slurp(in, cap, &j->buf, &j->len) != 0) {
		pd_diag_note(d, PD_FAILED, pd_arena_printf(d->arena,
		    "%s.too-large", f->name), 0, "not read: %s (read whole, "
		    "up to %zu MiB)", in->errmsg, cap >> 20);
		return false;
	}
	s = pd_text_json_start(j->buf, j->len);
	/* One JSON value; whatever follows it is not ours. */
	j->root = s < 0 ? NULL : json_loadb((const char *)j->buf + s,
	    j->len - (size_t)s, JSON_DISABLE_EOF_CHECK, &err);
	if (!json_is_object(j->root)) {
		pd_diag_note(d, PD_FAILED, pd_arena_printf(d->arena, "%s.bad",
		    f->name), s < 0 ? 0 : (uint32_t)err.line, "not JSON: %s",
		    s < 0 ? "no line opens with '{'" : err.text);
		return false;
	}
	return true;
}

void
pd_wl_json_release(struct pd_wl_json *j)
{
	json_decref(j->root);
	free(j->buf);
	memset(j, 0, sizeof(*j));
}

double
pd_wl_json_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) && json_number_value(v) >= 0 ?
	    json_number_value(v) : -1;
}

void
pd_wl_json_evidence(const struct pd_wl_json *j, struct pd_evidence *ev,
    struct pd_arena *a, const char *member, const char *key, unsigned nth)
{
	const char *buf = (const char *)j->buf, *end = buf + j->len;
	const char *p = buf, *hit = NULL, *ls, *le;
	uint32_t line = 1;

	for (unsigned k = 0; k <= nth; k++) {
		hit = memmem(p, (size_t)(end - p), key, strlen(key));
		if (!hit)
			return;
		p = hit + strlen(key);
	}
	for (const char *q = buf; q < hit; q++)
		line += *q == '\n';
	for (ls = hit; ls > buf && ls[-1] != '\n'; ls--)
		;
	ls = pd_skip_space(ls);
	le = memchr(hit, '\n', (size_t)(end - hit));
	pd_evidence_set(ev, a, member, line, ls,
	    (size_t)((le ? le : end) - ls));
}
