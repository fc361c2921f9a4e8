/* perf.data's facts beside the samples: the feature sections (host,
 * perf version, CPU count, build ids, event names), and at the end one
 * profile per event, each named and given the file's facts. */
#include <stdio.h>
#include <string.h>
#include "decode/profile.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/cursor.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "perf_data.h"

/* perf's name of a generic event, for files without EVENT_DESC. */
static const char *
attr_name(struct reader *r, const struct attr *at)
{
	static const char *const hw[] = { "cycles", "instructions",
		"cache-references", "cache-misses", "branches",
		"branch-misses", "bus-cycles", "stalled-cycles-frontend",
		"stalled-cycles-backend", "ref-cycles" };
	static const char *const sw[] = { "cpu-clock", "task-clock",
		"page-faults", "context-switches", "cpu-migrations",
		"minor-faults", "major-faults", "alignment-faults",
		"emulation-faults", "dummy" };

	if (at->type == 0 && at->config < PD_ARRAY_SIZE(hw))
		return hw[at->config];
	if (at->type == 1 && at->config < PD_ARRAY_SIZE(sw))
		return sw[at->config];
	return pd_arena_printf(r->d->arena, "%s 0x%llx", at->type == 2 ?
	    "tracepoint" : at->type == 4 ? "raw event" : "event of type",
	    (unsigned long long)at->config);
}

/* perf_header_string: u32 length, then the string padded. */
static const char *
header_string(struct reader *r, struct pd_cursor *c)
{
	uint32_t n = pd_cursor_u32(c);
	const unsigned char *s = pd_cursor_bytes(c, n);

	if (!s || !n)
		return NULL;
	return pd_arena_strndup(r->d->arena, (const char *)s,
	    strnlen((const char *)s, n));
}

/* EVENT_DESC: nr, attr size, then per attribute, in the file's order:
 * the attribute, nr_ids, the name (a header string), the ids. */
static void
event_desc(struct reader *r, struct pd_cursor *c)
{
	uint32_t nr = pd_cursor_u32(c), asz = pd_cursor_u32(c);

	for (uint32_t i = 0; i < nr && i < ATTRS_MAX && pd_cursor_ok(c);
	    i++) {
		pd_cursor_skip(c, asz);
		uint32_t n_ids = pd_cursor_u32(c);
		const char *name = header_string(r, c);

		if (!pd_cursor_ok(c) || n_ids > pd_cursor_left(c) / 8)
			break;
		pd_cursor_skip(c, (size_t)n_ids * 8);
		if (name)
			r->desc[i] = name;
	}
}

void
pd_perf_feature(struct reader *r, unsigned id, const unsigned char *p, size_t len)
{
	struct pd_cursor c;
	struct pd_profile *pr = r->p;

	pd_cursor_init(&c, p, len, r->le);
	switch (id) {
	case FEAT_HOSTNAME: pr->hostname = header_string(r, &c); break;
	case FEAT_OSRELEASE: pr->os_release = header_string(r, &c); break;
	case FEAT_VERSION: pr->perf_version = header_string(r, &c); break;
	case FEAT_ARCH: pr->arch = header_string(r, &c); break;
	case FEAT_NRCPUS:
		(void)pd_cursor_u32(&c);
		pr->nr_cpus = pd_cursor_u32(&c);
		break;
	case FEAT_BUILD_ID:
		/* build_id_event records: header, pid, build id (20 bytes,
		 * its size in byte 20 when misc says so), file name */
		while (pd_cursor_left(&c) >= 8 + 4 + 24) {
			struct pd_cursor e = c;

			(void)pd_cursor_u32(&e);
			uint16_t misc = pd_cursor_u16(&e);
			uint16_t size = pd_cursor_u16(&e);

			if (size < 8 + 4 + 24 || size > pd_cursor_left(&c))
				break;
			pd_cursor_init(&e, pd_cursor_bytes(&c, size), size,
			    r->le);
			pd_cursor_skip(&e, 8 + 4);
			const unsigned char *bid = pd_cursor_bytes(&e, 24);
			size_t fl = pd_cursor_left(&e);
			const unsigned char *fn = pd_cursor_bytes(&e, fl);

			if (!bid || !fn)
				break;
			char *name = pd_arena_strndup(r->d->arena,
			    (const char *)fn, strnlen((const char *)fn, fl));

			pd_profile_buildid(pr, r->d->arena, name, bid,
			    (misc & MISC_BUILD_ID_SIZE) && bid[20] <= 20 ?
			    bid[20] : 20);
		}
		break;
	case FEAT_EVENT_DESC:
		event_desc(r, &c);
		break;
	default:
		break;
	}
}
/* Another event of the file: a profile with the file's header facts. */
static struct pd_profile *
event_profile(struct reader *r)
{
	struct pd_profile *q = pd_host_profile(r->h, r->d->arena, r->m->path,
	    "perf.data");
	struct pd_profile *next = q->next;
	struct pd_prof_raw *raw = q->raw;

	*q = *r->p;
	q->next = next;
	q->raw = raw;
	return q;
}

static void
name_profile(struct reader *r, struct pd_profile *p, unsigned i)
{
	const struct attr *at = &r->attrs[i];

	p->event = r->desc[i] ? r->desc[i] : attr_name(r, at);
	p->has_callchain = at->sample_type & ST_CALLCHAIN;
	p->has_cpu = at->sample_type & ST_CPU;
}

/* One profile per attribute with samples, in the file's order (perf
 * report's); the file's own when none has any. */
void
pd_perf_finish_profiles(struct reader *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->n_attrs; i++) {
		struct attr *at = &r->attrs[i];

		if (!at->raw)
			continue;
		struct pd_profile *p = n++ ? event_profile(r) : r->p;

		pd_prof_raw_free(p->raw);
		p->raw = at->raw;
		at->raw = NULL;
		pd_prof_raw_copy_maps(p->raw, r->maps);
		name_profile(r, p, i);
	}
	if (!n) {
		pd_prof_raw_copy_maps(r->p->raw, r->maps);
		if (r->n_attrs)
			name_profile(r, r->p, 0);
	}
	for (struct pd_profile *p = r->p; p && p->member == r->p->member;
	    p = p->next)
		pd_profile_end(p, r->d);
}
