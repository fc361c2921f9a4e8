/* "nvme-iopolicy": the I/O policy of NVMe native multipath per
 * subsystem, /sys/class/nvme-subsystem/nvme-subsysN/iopolicy (kernel
 * 5.1 on; "numa", the default, or "round-robin"; "queue-depth" from
 * 6.11), in three layouts:
 *
 *   - a listing, one "PATH:VALUE" line per subsystem, as `grep -H .
 *     /sys/class/nvme-subsystem/nvme-subsys*\/iopolicy` prints it (the
 *     layout pathdoctor-collect should write, as nvme/iopolicy.txt);
 *   - the one-value file at its own path in a sosreport
 *     (sys/class/nvme-subsystem/nvme-subsys0/iopolicy, or its
 *     sys/devices/virtual/nvme-subsystem/ target);
 *   - the one-value copy today's pathdoctor-collect writes as
 *     nvme/nvme-subsysN-iopolicy.txt.
 *
 * A one-value file has no header: it bids only when its path names it
 * and its value is a policy.  The sysfs value overrides what nvme
 * list-subsys printed: it is what the kernel uses. */
#include <string.h>
#include "base/sysval.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

static const char *const paths[] = {
	"sys/class/nvme-subsystem/*/iopolicy",
	"sys/devices/virtual/nvme-subsystem/*/iopolicy",
	"nvme/*-iopolicy.txt",
	NULL,
};

static bool
policy(const char *s, size_t n)
{
	static const char *const v[] = { "numa", "round-robin",
		"queue-depth", NULL };

	for (unsigned i = 0; v[i]; i++)
		if (strlen(v[i]) == n && strncmp(s, v[i], n) == 0)
			return true;
	return false;
}

/* The subsystem a path names ("nvme-subsys0"), into name; false when
 * none of the patterns matches or the name is not a subsystem's. */
static bool
subsys_of(const char *path, size_t len, char *name, size_t cap)
{
	struct pd_span caps[PD_SYSVAL_CAPS];

	for (unsigned i = 0; paths[i]; i++) {
		if (!pd_sysval_match(path, len, paths[i], caps))
			continue;
		if (caps[0].n >= cap || caps[0].n <= strlen("nvme-subsys") ||
		    strncmp(caps[0].p, "nvme-subsys", 11) != 0)
			return false;
		memcpy(name, caps[0].p, caps[0].n);
		name[caps[0].n] = '\0';
		return true;
	}
	return false;
}

static int
bid_iopolicy(const struct pd_member *m)
{
	char line[512], name[64];
	struct pd_span p, v;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	/* a listing: every head line a PATH:VALUE of an iopolicy file */
	if (pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)) &&
	    pd_sysval_split(line, &p, &v)) {
		int bits = 0;

		for (unsigned i = 0; i < 3; i++) {
			if (i && !pd_text_content_line(m->head, m->head_len, i,
			    line, sizeof(line)))
				break;
			if (!pd_sysval_split(line, &p, &v) ||
			    !subsys_of(p.p, p.n, name, sizeof(name)) ||
			    !policy(v.p, v.n))
				return 0;
			bits += i ? 8 : 8 * (int)(p.n > 12 ? 12 : p.n);
		}
		return bits;
	}
	/* a one-value file: its path and its value's grammar */
	if (!subsys_of(m->hint_path, strlen(m->hint_path), name, sizeof(name)) ||
	    !pd_sysval_one_line(m, line, sizeof(line)) ||
	    !policy(line, strlen(line)))
		return 0;
	return 8 * (int)strlen(line) + 16;
}

static void
set(struct pd_host *h, struct pd_arena *a, const char *name,
    const char *val, size_t n, const struct pd_member *m, uint32_t line_no,
    const char *line, size_t len)
{
	struct pd_nvme_subsys *s = pd_host_nvme_subsys(h, a, name);

	if (!s)
		return;
	s->iopolicy = pd_arena_strndup(a, val, n);
	s->iopolicy_sysfs = true;
	pd_evidence_set(&s->ev_iopolicy, a, m->path, line_no, line, len);
}

static enum pd_status
parse_iopolicy(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	const char *line;
	size_t len;
	unsigned n = 0, bad = 0;
	char name[64];
	bool one = subsys_of(m->hint_path, strlen(m->hint_path), name,
	    sizeof(name));

	while (pd_input_getline(in, &line, &len)) {
		struct pd_span p, v;
		char sub[64];

		if (pd_sysval_split(line, &p, &v) &&
		    subsys_of(p.p, p.n, sub, sizeof(sub)) && policy(v.p, v.n)) {
			set(h, a, sub, v.p, v.n, m, in->line_no, line, len);
			n++;
		} else if (one && n == 0 && policy(line, strlen(line))) {
			set(h, a, name, line, strlen(line), m, in->line_no,
			    line, len);
			n++;
		} else if (*pd_skip_space(line) && bad++ < 3) {
			pd_diag_note(d, PD_WARN, "nvme-iopolicy.bad-line",
			    in->line_no, "not an iopolicy value: '%.80s'",
			    line);
		}
	}
	if (!n) {
		pd_diag_note(d, PD_WARN, "nvme-iopolicy.empty", 0,
		    "no iopolicy value");
		return PD_WARN;
	}
	return PD_OK;
}

static const char *const hints[] = { "iopolicy", NULL };

const struct pd_format pd_format_nvme_iopolicy = {
	.name = "nvme-iopolicy",
	.summary = "NVMe native multipath I/O policy per subsystem "
	    "(/sys/class/nvme-subsystem/*/iopolicy: listing or one-value "
	    "files)",
	.command = "grep -H . /sys/class/nvme-subsystem/nvme-subsys*/iopolicy",
	.hints = hints,
	.gives = 0,
	.collect = NULL,
	.bid = bid_iopolicy,
	.parse = parse_iopolicy,
};
