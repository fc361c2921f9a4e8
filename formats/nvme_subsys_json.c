#define _GNU_SOURCE	/* memmem */
/* "nvme-subsys-json": nvme list-subsys -o json, in both of nvme-cli's
 * shapes:
 *
 *   1.x  { "Subsystems" : [ { "Name" : "nvme-subsys0", "NQN" : "..." },
 *                           { "Paths" : [ { "Name" : "nvme0",
 *                               "Transport" : "tcp",
 *                               "Address" : "traddr=...,trsvcid=...",
 *                               "State" : "live" } ] }, ... ] }
 *        (a subsystem's paths in the object after it; some builds put
 *        "Paths" inside the subsystem's object instead)
 *   2.x  [ { "HostNQN" : "...", "HostID" : "...",
 *            "Subsystems" : [ { "Name", "NQN", "IOPolicy",
 *                               "Paths" : [ { "Name", "Transport",
 *                                 "Address", "State", "ANAState" } ] } ] } ]
 *
 * The member is parsed whole with jansson, up to NVME_JSON_MAX. */
#include <string.h>
#include "decode/wl_json.h"
#include "nvme_address.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

extern const struct pd_format pd_format_nvme_subsys_json;

/* 256 subsystems of 64 paths at ~200 bytes a path is some 3 MiB. */
#define NVME_JSON_MAX (8u << 20)

#define KEY "\"Subsystems\""

/* Where the JSON value begins: the member's first non-blank byte when
 * it opens an array or object (2.x prints "[" first, and -o json on one
 * line is possible), else the first line that opens with "{". */
static long
json_at(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
	    p[i] == '\r'))
		i++;
	if (i < n && (p[i] == '[' || p[i] == '{'))
		return (long)i;
	return pd_text_json_start(p, n);
}

static int
bid_nvme_subsys_json(const struct pd_member *m)
{
	long s = json_at(m->head, m->head_len);
	const unsigned char *k;

	if (s < 0 || memchr(m->head, '\0', m->head_len))
		return 0;
	k = memmem(m->head + s, m->head_len - (size_t)s, KEY, strlen(KEY));
	if (!k || !memmem(m->head, m->head_len, "\"NQN\"", 5))
		return 0;
	/* the key, "NQN", and the brace */
	return 8 * (int)(strlen(KEY) + 5) + 8;
}

static const char *
str(json_t *o, const char *key, struct pd_arena *a)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) && *json_string_value(v) ?
	    pd_arena_strdup(a, json_string_value(v)) : NULL;
}

struct ctx {
	const struct pd_wl_json *js;
	const struct pd_member *m;
	struct pd_host *h;
	struct pd_arena *a;
	struct pd_diag *d;
	unsigned n_sub, n_path;
	bool full;
	size_t pos;		/* evidence cursor: where the last key was */
	uint32_t line;		/* the line of pos */
};

/* The line of the next occurrence of key after the cursor, as nvme-cli
 * prints subsystems and paths in order: one pass over the member for
 * all of them (a key out of that order gets no evidence). */
static void
evidence(struct ctx *c, struct pd_evidence *ev, const char *key)
{
	const char *buf = (const char *)c->js->buf, *end = buf + c->js->len;
	const char *hit = memmem(buf + c->pos, c->js->len - c->pos, key,
	    strlen(key)), *ls, *le;

	if (!hit)
		return;
	for (const char *q = buf + c->pos; q < hit; q++)
		c->line += *q == '\n';
	c->pos = (size_t)(hit - buf) + strlen(key);
	for (ls = hit; ls > buf && ls[-1] != '\n'; ls--)
		;
	ls = pd_skip_space(ls);
	le = memchr(hit, '\n', (size_t)(end - hit));
	pd_evidence_set(ev, c->a, c->m->path, c->line, ls,
	    (size_t)((le ? le : end) - ls));
}

static void
paths(struct ctx *c, struct pd_nvme_subsys *s, json_t *arr)
{
	size_t i;
	json_t *p;

	json_array_foreach(arr, i, p) {
		const char *name = str(p, "Name", c->a);
		struct pd_nvme_path *np;

		if (!name || !(np = pd_nvme_subsys_path(s, c->a, name)))
			continue;
		np->transport = str(p, "Transport", c->a);
		const char *addr = str(p, "Address", c->a);

		if (addr)
			pd_nvme_address(np, c->a, addr, strlen(addr));
		np->state = str(p, "State", c->a);
		np->ana = str(p, "ANAState", c->a);
		evidence(c, &np->ev, pd_arena_printf(c->a, "\"%s\"", name));
		c->n_path++;
	}
}

static void
subsystems(struct ctx *c, json_t *arr, const char *hostnqn)
{
	struct pd_nvme_subsys *s = NULL;
	size_t i;
	json_t *o;

	json_array_foreach(arr, i, o) {
		const char *name = str(o, "Name", c->a);

		if (name) {
			s = pd_host_nvme_subsys(c->h, c->a, name);
			if (!s) {
				c->full = true;
				return;
			}
			c->n_sub++;
			s->nqn = str(o, "NQN", c->a);
			if (hostnqn)
				s->hostnqn = hostnqn;
			evidence(c, &s->ev, pd_arena_printf(c->a, "\"%s\"",
			    name));
			const char *pol = str(o, "IOPolicy", c->a);

			if (pol && !s->iopolicy_sysfs) {
				s->iopolicy = pol;
				evidence(c, &s->ev_iopolicy, "\"IOPolicy\"");
			}
		}
		/* 1.x: the paths in the next object, without a Name */
		if (s && json_is_array(json_object_get(o, "Paths")))
			paths(c, s, json_object_get(o, "Paths"));
	}
}

static enum pd_status
parse_nvme_subsys_json(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_wl_json js;
	struct ctx c = { .js = &js, .m = m, .h = h, .a = d->arena, .d = d,
		.line = 1 };

	json_error_t err;

	/* read here, not by pd_wl_json_load: 2.x's host list opens with "["
	 * (on a line of its own, or all on one line) */
	memset(&js, 0, sizeof(js));
	if (pd_input_slurp(in, NVME_JSON_MAX, &js.buf, &js.len) != 0) {
		pd_diag_note(d, PD_FAILED, "nvme-subsys-json.too-large", 0,
		    "not read: %s (read whole, up to %u MiB)", in->errmsg,
		    NVME_JSON_MAX >> 20);
		pd_wl_json_release(&js);
		return PD_FAILED;
	}
	long at = json_at(js.buf, js.len);

	js.root = at < 0 ? NULL : json_loadb((const char *)js.buf + at,
	    js.len - (size_t)at, JSON_DISABLE_EOF_CHECK, &err);
	if (!js.root) {
		pd_diag_note(d, PD_FAILED, "nvme-subsys-json.bad", at < 0 ? 0 :
		    (uint32_t)err.line, "not JSON: %s", at < 0 ? "no array or "
		    "object" : err.text);
		pd_wl_json_release(&js);
		return PD_FAILED;
	}
	if (json_is_object(js.root) &&
	    json_is_array(json_object_get(js.root, "Subsystems")))
		subsystems(&c, json_object_get(js.root, "Subsystems"), NULL);
	else if (json_is_array(js.root)) {
		size_t i;
		json_t *host;

		json_array_foreach(js.root, i, host) {
			json_t *sub = json_object_get(host, "Subsystems");

			if (json_is_array(sub))
				subsystems(&c, sub, str(host, "HostNQN",
				    c.a));
			else if (json_object_get(host, "NQN"))	/* bare list */
				subsystems(&c, js.root, NULL);
			if (c.full || !json_is_array(sub))
				break;
		}
	}
	pd_wl_json_release(&js);
	if (c.full)
		pd_diag_note(d, PD_WARN, "nvme-subsys-json.many", 0, "more than "
		    "%u subsystems: the rest ignored", PD_NVME_MAX_SUBSYS);
	if (!c.n_sub) {
		pd_diag_note(d, PD_WARN, "nvme-subsys-json.empty", 0,
		    "no subsystem with a \"Name\"");
		return PD_WARN;
	}
	return PD_OK;
}

static const char *const hints[] = { "list-subsys", "list_subsys", NULL };

const struct pd_format pd_format_nvme_subsys_json = {
	.name = "nvme-subsys-json",
	.summary = "NVMe subsystems and their paths (nvme list-subsys -o "
	    "json, nvme-cli 1.x and 2.x shapes)",
	.command = "nvme list-subsys -o json",
	.hints = hints,
	.gives = PD_HAVE_NVME,
	.collect = "nvme list-subsys (or nvme list-subsys -o json)",
	.bid = bid_nvme_subsys_json,
	.parse = parse_nvme_subsys_json,
};
