/* ethtool -g / -l outputs: the bid and the reading both readers share
 * (the shapes are in ethtool_params.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "base/ifpath.h"
#include "decode/ethtool_params.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

#define NETLINK_ERROR "netlink error:"
#define BLOCK_MAX "Pre-set maximums:"
#define BLOCK_CUR "Current hardware settings:"
#define NOT_SUPPORTED "Operation not supported"
/* Outputs read from one member; a loop over every interface of a host
 * stays far below, and a crafted member cannot grow the host without
 * end. */
#define MAX_OUTPUTS 4096

/* An error line, copied (cut to fit): ethtool's reason, and where. */
struct ep_error {
	char text[256], reason[128];
	uint32_t line;			/* 0: none */
};

/* The reading of one member. */
struct ep_read {
	const struct pd_eparams *k;
	const struct pd_member *m;
	struct pd_host *h;
	struct pd_diag *d;
	struct pd_arena *a;
	struct pd_netdev *nd;	/* the interface of the last header */
	unsigned values;	/* values read since that header */
	bool failed;		/* it has ethtool's reason already */
	int block;		/* -1 before the first, 0 maximums, 1 current */
	uint32_t seen;		/* labels read in this block */
	bool by_order;		/* blocks told apart by order (ethtool 6.15) */
	unsigned headers;
	struct ep_error split;		/* an error line waiting for ": REASON" */
	struct ep_error pending;	/* an ioctl error before its header */
	struct ep_error netlink;	/* the last netlink error */
	unsigned n_netlink;
};

static void
note(struct ep_read *r, const char *id, uint32_t line, const char *fmt, ...)
    PD_PRINTF(4, 5);

static void
note(struct ep_read *r, const char *id, uint32_t line, const char *fmt, ...)
{
	va_list ap;

	if (r->d->n_notes >= PD_DIAG_MAX_NOTES) {	/* counted, not kept */
		pd_diag_note(r->d, PD_WARN, id, line, "%s", id);
		return;
	}
	va_start(ap, fmt);
	const char *msg = pd_arena_vprintf(r->a, fmt, ap);

	va_end(ap);
	pd_diag_note(r->d, PD_WARN, pd_arena_printf(r->a, "%s.%s",
	    r->k->format->name, id), line, "%s", msg);
}

static void
error_set(struct ep_error *e, const char *text, const char *reason,
    uint32_t line)
{
	snprintf(e->text, sizeof(e->text), "%s", text);
	snprintf(e->reason, sizeof(e->reason), "%s", reason ? reason : "");
	e->line = line;
}

/* "Cannot get device ring settings: REASON": true, with *reason NULL
 * when the reason follows on the next line (ethtool before 5.14). */
static bool
own_error(const struct pd_eparams *k, const char *t, const char **reason)
{
	if (!pd_starts_with(t, k->error))
		return false;
	t += strlen(k->error);
	if (*t != ':' && *t != '\0')
		return false;
	*reason = *t == ':' && *pd_skip_space(t + 1) ? pd_skip_space(t + 1) :
	    NULL;
	return true;
}

static void
parse_value(const char *v, struct pd_ep_value *out)
{
	size_t n = strlen(v);
	uint64_t num;
	const char *end;

	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	out->kind = PD_EPV_OTHER;
	out->num = -1;
	if (n == 3 && memcmp(v, "n/a", 3) == 0)
		out->kind = PD_EPV_NA;
	else if (n == 2 && memcmp(v, "on", 2) == 0)
		out->kind = PD_EPV_ON;
	else if (n == 3 && memcmp(v, "off", 3) == 0)
		out->kind = PD_EPV_OFF;
	else if (v[0] >= '0' && v[0] <= '9' && n <= 10 &&
	    pd_parse_u64(v, 10, &num, &end) && end == v + n &&
	    num <= UINT32_MAX) {
		out->kind = PD_EPV_NUMBER;
		out->num = (int64_t)num;
	}
}

/* Ethtool's reason goes to nd.  The evidence is its header; an
 * interface named by the path has none, so there it is the error. */
static void
fail(struct ep_read *r, struct pd_netdev *nd, const struct ep_error *e)
{
	const char *why = e->reason[0] ? e->reason : "no reason given";

	*r->k->reason(nd) = pd_arena_strdup(r->a, why);
	if (nd != r->nd)
		pd_evidence_set(r->k->ev(nd), r->a, r->m->path, e->line,
		    e->text, strlen(e->text));
	if (strcmp(why, NOT_SUPPORTED) == 0)
		note(r, "unsupported", e->line, "ethtool could not read the %s "
		    "of %s: %s (the driver does not report them)", r->k->what,
		    nd->name, why);
	else
		note(r, "error", e->line, "ethtool could not read the %s of "
		    "%s: %s", r->k->what, nd->name, why);
}

/* An ioctl error belongs to the header just read when that has nothing
 * yet (the terminal's order), else to the next one (stderr written
 * before stdout, as in a file). */
static void
on_error(struct ep_read *r, const struct ep_error *e)
{
	if (r->nd && r->values == 0 && !r->failed) {
		fail(r, r->nd, e);
		r->failed = true;
	} else {
		r->pending = *e;
	}
}

/* The previous header's output is over: say so if it held nothing. */
static void
end_output(struct ep_read *r)
{
	if (r->nd && r->values == 0 && !r->failed)
		note(r, "empty", 0, "'%s%s:' without any values", r->k->header,
		    r->nd->name);
}

static void
on_header(struct ep_read *r, const char *t, const char *line, size_t len,
    uint32_t no)
{
	const char *name;

	end_output(r);
	r->nd = NULL;
	if (++r->headers > MAX_OUTPUTS) {
		if (r->headers == MAX_OUTPUTS + 1)
			note(r, "too-many", no, "more than %u outputs: '%s' and "
			    "the rest were not read", MAX_OUTPUTS, t);
		return;
	}
	if (!(name = pd_ifname_from_header(r->a, t, r->k->header)))
		return;		/* "Ring parameters for :" */
	r->nd = pd_host_netdev(r->h, r->a, name);
	pd_evidence_set(r->k->ev(r->nd), r->a, r->m->path, no, line, len);
	r->values = 0;
	r->failed = false;
	r->block = -1;
	r->seen = 0;
	if (r->pending.line) {
		fail(r, r->nd, &r->pending);
		r->failed = true;
		r->pending.line = 0;
	}
}

static int
label_of(const struct pd_eparams *k, const char *key, size_t klen)
{
	for (int i = 0; i < PD_EP_LABELS_MAX && k->labels[i]; i++)
		if (strlen(k->labels[i]) == klen &&
		    memcmp(k->labels[i], key, klen) == 0)
			return i;
	return -1;
}

/* "LABEL: VALUE" under the current header.  Without block lines the
 * first of each label is a maximum and its repeat a current setting. */
static void
on_value(struct ep_read *r, int label, const char *val, const char *line,
    uint32_t no)
{
	struct pd_ep_value v;

	if (r->block < 0) {
		r->block = 0;
		r->by_order = true;
	}
	if (r->seen & (1u << label)) {
		if (r->block == 1) {
			note(r, "bad-line", no, "'%s' repeats a current "
			    "setting", line);
			return;
		}
		r->block = 1;
		r->seen = 0;
	}
	r->seen |= 1u << label;
	parse_value(val, &v);
	if (!r->k->store(r->nd, r->block, (unsigned)label, &v))
		note(r, "bad-value", no, "value not understood: '%s'", line);
	r->values++;
}

/* ethtool before 5.14: "Cannot get device channel parameters" and, on
 * the next line, ": Operation not supported".  True when t was that
 * reason. */
static bool
read_split_reason(struct ep_read *r, const char *t)
{
	struct ep_error e = r->split;
	bool reason = *t == ':' && *pd_skip_space(t + 1);

	r->split.line = 0;
	if (reason)
		snprintf(e.reason, sizeof(e.reason), "%s", pd_skip_space(t + 1));
	on_error(r, &e);
	return reason;
}

/* Headers, errors, block lines and values; the rest is left alone
 * (labels of a newer ethtool, blank lines, other text). */
static void
read_line(struct ep_read *r, const char *line, size_t len, uint32_t no)
{
	const char *t = pd_skip_space(line), *key, *val, *reason;
	struct ep_error e;
	size_t klen;
	int label;

	if (r->split.line && read_split_reason(r, t))
		return;
	if (pd_starts_with(t, r->k->header)) {
		on_header(r, t, line, len, no);
	} else if (own_error(r->k, t, &reason)) {
		error_set(reason ? &e : &r->split, t, reason, no);
		if (reason)
			on_error(r, &e);
	} else if (pd_starts_with(t, NETLINK_ERROR)) {
		error_set(&r->netlink, t,
		    pd_skip_space(t + strlen(NETLINK_ERROR)), no);
		r->n_netlink++;
	} else if (r->nd && (strcmp(t, BLOCK_MAX) == 0 ||
	    strcmp(t, BLOCK_CUR) == 0)) {
		r->block = strcmp(t, BLOCK_CUR) == 0;
		r->seen = 0;
	} else if (r->nd && pd_split_colon(t, &key, &klen, &val) &&
	    (label = label_of(r->k, key, klen)) >= 0) {
		on_value(r, label, val, t, no);
	}
}

/* An error with no header for it: the interface the path names, when
 * the member named none itself; else it is some other interface's. */
static void
unnamed_error(struct ep_read *r, const struct ep_error *e, unsigned n)
{
	const char *name = pd_ifname_from_path(r->a, r->m->hint_path,
	    r->k->format);

	r->nd = NULL;
	if (r->headers) {
		note(r, "unnamed-error", e->line, "'%s'%s: ethtool could not "
		    "read the %s of an interface this output does not name",
		    e->text, n > 1 ? pd_arena_printf(r->a, " and %u more",
		    n - 1) : "", r->k->what);
	} else if (!name || !pd_ifname_valid(name)) {
		note(r, "no-ifname", e->line, "'%s': '%s' does not name an "
		    "interface: name the file %s/IF.txt", e->text,
		    name ? name : r->m->path, r->k->format->name);
	} else {
		fail(r, pd_host_netdev(r->h, r->a, name), e);
	}
}

static void
finish(struct ep_read *r)
{
	if (r->split.line)
		read_split_reason(r, "");
	end_output(r);
	if (r->pending.line)
		unnamed_error(r, &r->pending, 1);
	if (r->n_netlink)
		unnamed_error(r, &r->netlink, r->n_netlink);
	if (!r->headers && !r->pending.line && !r->n_netlink)
		note(r, "no-header", 0, "no '%sIF:' line", r->k->header);
	if (r->by_order)
		note(r, "no-blocks", 0, "no '" BLOCK_MAX "' or '" BLOCK_CUR
		    "' lines (ethtool 6.15): the first of each label is taken "
		    "as the maximum, the second as the current setting");
}

enum pd_status
pd_eparams_parse(const struct pd_eparams *k, const struct pd_member *m,
    struct pd_input *in, struct pd_host *h, struct pd_diag *d)
{
	struct ep_read r = { .k = k, .m = m, .h = h, .d = d, .a = d->arena,
		.block = -1 };
	const char *line;
	size_t len;

	while (pd_input_getline(in, &line, &len))
		read_line(&r, line, len, in->line_no);
	finish(&r);
	return PD_OK;
}

/* The lines ethtool's errors may put before the header: stderr is not
 * buffered, stdout is when it goes to a file. */
static bool
head_error(const struct pd_eparams *k, const char *t, bool *own, bool *nl)
{
	const char *reason;

	if (own_error(k, t, &reason) || (*own && t[0] == ':'))
		*own = true;
	else if (pd_starts_with(t, NETLINK_ERROR))
		*nl = true;
	else
		return false;
	return true;
}

/* A structural line after the header: a block line, a known label, or
 * this command's error (on a terminal it follows the header). */
static bool
head_line(const struct pd_eparams *k, const char *t)
{
	const char *key, *val, *reason;
	size_t klen;

	return strcmp(t, BLOCK_MAX) == 0 || strcmp(t, BLOCK_CUR) == 0 ||
	    own_error(k, t, &reason) || (pd_split_colon(t, &key, &klen,
	    &val) && label_of(k, key, klen) >= 0);
}

int
pd_eparams_bid(const struct pd_eparams *k, const struct pd_member *m)
{
	char line[256];
	bool own = false, nl = false;
	unsigned i = 0;
	int bid;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	while (i < 4 && pd_text_content_line(m->head, m->head_len, i, line,
	    sizeof(line)) && head_error(k, pd_skip_space(line), &own, &nl))
		i++;
	if (!pd_text_content_line(m->head, m->head_len, i, line,
	    sizeof(line)))
		return own ? 112 : nl ? PD_EP_BID_NETLINK : 0;
	if (!pd_starts_with(pd_skip_space(line), k->header))
		return 0;
	bid = own ? 120 : 112;
	for (unsigned j = i + 1; j < i + 4; j++)
		if (pd_text_content_line(m->head, m->head_len, j, line,
		    sizeof(line)) && head_line(k, pd_skip_space(line)))
			bid += 8;
	return bid;
}
