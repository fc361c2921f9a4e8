/* --filter: libpcap's pcap_compile for each capture's link type and snap
 * length (pcap_open_dead), pcap_offline_filter on every packet. */
#define _DEFAULT_SOURCE	/* libpcap's headers use u_int, u_char */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode/filter.h"
#include "decode/pcaplib.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"

#define SNAPLEN_MAX 262144	/* libpcap's MAXIMUM_SNAPLEN */

static char *expr_held;

/* One cleanup path: the dead handle goes whatever the outcome. */
static bool
compile(int linktype, uint32_t snaplen, const char *expr,
    struct bpf_program *prog, char *err, size_t n)
{
	bool ok = false;
	pcap_t *p;

	if (snaplen == 0 || snaplen > SNAPLEN_MAX)
		snaplen = SNAPLEN_MAX;
	p = pd_pcap.pcap_open_dead(linktype, (int)snaplen);
	if (!p) {
		snprintf(err, n, "libpcap cannot open link type %d", linktype);
		goto out;
	}
	if (pd_pcap.pcap_compile(p, prog, expr, 1,
	    PCAP_NETMASK_UNKNOWN) != 0) {
		snprintf(err, n, "%s", pd_pcap.pcap_geterr(p));
		goto out;
	}
	ok = true;
out:
	if (p)
		pd_pcap.pcap_close(p);
	return ok;
}

bool
pd_filter_set(const char *expr, char *err, size_t n)
{
	struct bpf_program prog;

	free(expr_held);
	expr_held = NULL;
	if (!expr)
		return true;
	if (!pd_pcap_load(err, n))
		return false;
	if (!compile(DLT_EN10MB, SNAPLEN_MAX, expr, &prog, err, n))
		return false;
	pd_pcap.pcap_freecode(&prog);
	expr_held = strdup(expr);
	if (!expr_held) {
		snprintf(err, n, "out of memory");
		return false;
	}
	return true;
}

const char *
pd_filter_expr(void)
{
	return expr_held;
}

bool
pd_filter_open(struct pd_filter *f, int linktype, uint32_t snaplen,
    char *err, size_t n)
{
	struct bpf_program *prog;

	f->prog = NULL;
	if (!expr_held)
		return true;
	prog = calloc(1, sizeof(*prog));
	if (!prog) {
		snprintf(err, n, "out of memory");
		return false;
	}
	if (!compile(linktype, snaplen, expr_held, prog, err, n)) {
		free(prog);
		return false;
	}
	f->prog = prog;
	return true;
}

bool
pd_filter_match(const struct pd_filter *f, const uint8_t *data,
    uint32_t caplen, uint32_t len)
{
	struct pcap_pkthdr h = { .caplen = caplen, .len = len };

	return !f->prog ||
	    pd_pcap.pcap_offline_filter(f->prog, &h, data) != 0;
}

void
pd_filter_close(struct pd_filter *f)
{
	if (!f->prog)
		return;
	pd_pcap.pcap_freecode(f->prog);
	free(f->prog);
	f->prog = NULL;
}

void
pd_filter_skip_note(const struct pd_member *m, struct pd_diag *d,
    int linktype, const char *iface, const char *why)
{
	const char *name = pd_pcap_linktype_name(linktype);

	pd_diag_note(d, PD_WARN, "capture.filter", 0, "%s%s%s%s: --filter "
	    "'%s' cannot apply to link type %d (%s): %s; the capture was "
	    "skipped, not analysed unfiltered", m->path,
	    iface ? " interface '" : "", iface ? iface : "", iface ? "'" : "",
	    expr_held, linktype, name ? name : "?", why);
}
