/* "nvme-subsys": nvme list-subsys (nvme-cli), the NVMe subsystems and
 * the controllers (paths) through which the host reaches each:
 *
 *   nvme-subsys0 - NQN=nqn.2014-08.org.example:target1
 *                  hostnqn=nqn.2014-08.org.nvmexpress:uuid:...   (2.x)
 *                  iopolicy=numa                                 (2.x)
 *   \
 *    +- nvme0 tcp traddr=10.0.1.1,trsvcid=4420,src_addr=10.0.1.2 live
 *    +- nvme1 tcp traddr=10.0.2.1,trsvcid=4420,host_iface=nic6 live optimized
 *
 * nvme-cli 1.x prints the controller's sysfs address, whose fields the
 * kernel joins with commas (traddr=,trsvcid=, host_traddr=, and from
 * 5.x src_addr=, host_iface=), older ones with blanks; a state ("live",
 * "connecting", "resetting", "deleting") follows from 1.9 on, and 2.x
 * adds the ANA state of the path ("optimized", "non-optimized",
 * "inaccessible") and the hostnqn= and iopolicy= lines.  Some builds
 * leave "NQN=" out ("nvme-subsys0 - nqn...."); a PCIe controller's
 * address is its bus address.  Several outputs of one host merge by
 * subsystem and controller name. */
#include <stddef.h>
#include <string.h>
#include "nvme_address.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define TOK_MAX 24	/* blank-separated fields of a path line kept */

/* "nvme-subsysN - " at the start of s; the name's length, 0 if not. */
static size_t
subsys_name(const char *s)
{
	size_t n = strlen("nvme-subsys"), i;

	if (strncmp(s, "nvme-subsys", n) != 0)
		return 0;
	for (i = n; s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == n || strncmp(s + i, " - ", 3) != 0)
		return 0;
	return i;
}

/* " +- nvmeN " at the start of s (after blanks); where the name is. */
static const char *
path_line(const char *s)
{
	s = pd_skip_space(s);
	if (strncmp(s, "+- nvme", 7) != 0)
		return NULL;
	return s + 3;
}

static int
bid_nvme_subsys(const struct pd_member *m)
{
	char line[512];
	int bits = 0;

	if (!pd_text_plausible(m->head, m->head_len) ||
	    !pd_text_content_line(m->head, m->head_len, 0, line, sizeof(line)))
		return 0;
	size_t n = subsys_name(line);

	if (!n)
		return 0;
	bits = 8 * (int)(n + 3);
	for (unsigned i = 1; i < 4; i++) {
		if (!pd_text_content_line(m->head, m->head_len, i, line,
		    sizeof(line)))
			break;
		const char *t = pd_skip_space(line);

		if (path_line(line) || strcmp(t, "\\") == 0 ||
		    pd_starts_with(t, "hostnqn=") ||
		    pd_starts_with(t, "iopolicy=") || subsys_name(line))
			bits += 8;
		else
			return 0;
	}
	return bits;
}

static const char *
dup_span(struct pd_arena *a, const char *s, size_t n)
{
	return pd_arena_strndup(a, s, n);
}

/* One "key=value" of the address: fields the reader keeps. */
static void
addr_field(struct pd_nvme_path *p, struct pd_arena *a, const char *s,
    size_t n)
{
	static const struct { const char *key; size_t off; } keys[] = {
		{ "traddr=", offsetof(struct pd_nvme_path, traddr) },
		{ "trsvcid=", offsetof(struct pd_nvme_path, trsvcid) },
		{ "host_traddr=", offsetof(struct pd_nvme_path, host_traddr) },
		{ "src_addr=", offsetof(struct pd_nvme_path, src_addr) },
		{ "host_iface=", offsetof(struct pd_nvme_path, host_iface) },
	};

	for (size_t k = 0; k < PD_ARRAY_SIZE(keys); k++) {
		size_t kl = strlen(keys[k].key);

		if (n > kl && strncmp(s, keys[k].key, kl) == 0) {
			*(const char **)((char *)p + keys[k].off) =
			    dup_span(a, s + kl, n - kl);
			return;
		}
	}
}

void
pd_nvme_address(struct pd_nvme_path *p, struct pd_arena *a, const char *s,
    size_t n)
{
	while (n) {
		const char *e = memchr(s, ',', n);
		size_t k = e ? (size_t)(e - s) : n;

		while (k && s[0] == ' ') {
			s++;
			k--;
			n--;
		}
		size_t f = 0;

		/* a blank inside a field ends it: "traddr=a trsvcid=b" */
		while (f < k && s[f] != ' ')
			f++;
		addr_field(p, a, s, f);
		if (f < k) {
			s += f;
			n -= f;
			continue;
		}
		s += k;
		n -= k;
		if (n) {
			s++;
			n--;
		}
	}
}

static bool
is_ana(const char *s, size_t n)
{
	static const char *const st[] = { "optimized", "non-optimized",
		"inaccessible", "persistent-loss", "change", NULL };

	for (unsigned i = 0; st[i]; i++)
		if (strlen(st[i]) == n && strncmp(s, st[i], n) == 0)
			return true;
	return false;
}

static void
parse_path(struct pd_nvme_subsys *s, struct pd_arena *a, const char *t,
    const struct pd_member *m, uint32_t line_no, const char *line,
    size_t len)
{
	const char *tok[TOK_MAX];
	size_t tl[TOK_MAX];
	unsigned n = 0;

	for (t = pd_skip_space(t); *t && n < TOK_MAX; t = pd_skip_space(t)) {
		const char *e = t;

		while (*e && *e != ' ' && *e != '\t')
			e++;
		tok[n] = t;
		tl[n++] = (size_t)(e - t);
		t = e;
	}
	if (n < 2)
		return;
	char ctrl[64];

	if (tl[0] >= sizeof(ctrl))
		return;
	memcpy(ctrl, tok[0], tl[0]);
	ctrl[tl[0]] = '\0';
	struct pd_nvme_path *p = pd_nvme_subsys_path(s, a, ctrl);

	if (!p)
		return;
	p->transport = dup_span(a, tok[1], tl[1]);
	for (unsigned i = 2; i < n; i++) {
		if (memchr(tok[i], '=', tl[i]))
			pd_nvme_address(p, a, tok[i], tl[i]);
		else if (is_ana(tok[i], tl[i]))
			p->ana = dup_span(a, tok[i], tl[i]);
		else if (i == 2 && !p->traddr && strcmp(p->transport, "pcie")
		    == 0)
			p->traddr = dup_span(a, tok[i], tl[i]);
		else if (!p->state)
			p->state = dup_span(a, tok[i], tl[i]);
	}
	pd_evidence_set(&p->ev, a, m->path, line_no, line, len);
}

static enum pd_status
parse_nvme_subsys(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct pd_nvme_subsys *s = NULL;
	const char *line;
	size_t len;
	unsigned bad = 0, n_sub = 0;

	while (pd_input_getline(in, &line, &len)) {
		const char *t = pd_skip_space(line), *p;
		size_t n;

		if ((n = subsys_name(line))) {
			char name[64];

			if (n >= sizeof(name))
				continue;
			memcpy(name, line, n);
			name[n] = '\0';
			s = pd_host_nvme_subsys(h, a, name);
			if (!s) {
				pd_diag_note(d, PD_WARN, "nvme-subsys.many",
				    in->line_no, "more than %u subsystems: the "
				    "rest ignored", PD_NVME_MAX_SUBSYS);
				break;
			}
			n_sub++;
			const char *q = pd_skip_space(line + n + 3);

			if (pd_starts_with(q, "NQN="))
				q += 4;
			if (*q)
				s->nqn = pd_arena_strdup(a, q);
			pd_evidence_set(&s->ev, a, m->path, in->line_no, line,
			    len);
		} else if (s && pd_starts_with(t, "hostnqn=")) {
			s->hostnqn = pd_arena_strdup(a, t + 8);
		} else if (s && pd_starts_with(t, "iopolicy=")) {
			if (!s->iopolicy_sysfs) {
				s->iopolicy = pd_arena_strdup(a, t + 9);
				pd_evidence_set(&s->ev_iopolicy, a, m->path,
				    in->line_no, line, len);
			}
		} else if (s && (p = path_line(line))) {
			parse_path(s, a, p, m, in->line_no, line, len);
		} else if (*t && strcmp(t, "\\") != 0 && bad++ < 3) {
			pd_diag_note(d, PD_WARN, "nvme-subsys.bad-line",
			    in->line_no, "not a subsystem, hostnqn, iopolicy or "
			    "path line: '%.80s'", t);
		}
	}
	if (!n_sub) {
		pd_diag_note(d, PD_WARN, "nvme-subsys.empty", 0,
		    "no subsystem");
		return PD_WARN;
	}
	return bad ? PD_WARN : PD_OK;
}

static const char *const hints[] = { "list-subsys", "list_subsys", NULL };

const struct pd_format pd_format_nvme_subsys = {
	.name = "nvme-subsys",
	.summary = "NVMe subsystems and their paths (nvme list-subsys): "
	    "controller, transport, target and host addresses, state, "
	    "iopolicy",
	.command = "nvme list-subsys",
	.hints = hints,
	.gives = PD_HAVE_NVME,
	.collect = "nvme list-subsys (or nvme list-subsys -o json)",
	.bid = bid_nvme_subsys,
	.parse = parse_nvme_subsys,
};
