/* pcie.mrrs-low: MaxReadReq below 512 bytes on a device that reads bulk
 * data from host memory; its descriptor sits in src/rules/pcie.c's
 * table. */
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"
#include "rules/pcie.h"

/* pcie.mrrs-low.  A device reading host memory asks for at most
 * MaxReadReq bytes per read request; the root complex answers with
 * completions of at most MaxPayload bytes each (or in pieces split at
 * the Read Completion Boundary, 64 or 128 bytes), every completion a
 * TLP with its ~20 bytes of header and framing.  Requests below
 * MaxPayload thus cut the completions short: efficiency
 * min(MRRS, MPS)/(min+20).  Each request is a TLP of its own in the
 * other direction, and the tags a device may keep open bound the bytes
 * in flight to tags x MRRS. */
#define MRRS_MIN 512		/* the spec's reset default */
#define MRRS_BULK 10e6		/* bytes/s: a direction that carries bulk */
#define MRRS_SHARE 0.10		/* tx below 10 % of rx: receives only */

enum reads { READS_UNKNOWN, READS_BULK, READS_NONE };

static bool
is_nic(const struct pd_pcidev *d)
{
	const char *c = d->class_name ? d->class_name : "";

	return strstr(c, "Ethernet") || strstr(c, "Network") ||
	    strstr(c, "Infiniband");
}

static bool
is_nvme(const struct pd_pcidev *d)
{
	const char *c = d->class_name ? d->class_name : "";

	return strstr(c, "Non-Volatile memory") != NULL;
}

static bool
mrrs_candidate(const struct pd_host *h, const struct pd_pcidev *d)
{
	(void)h;
	return pd_pcie_link_end(d) && !d->is_vf && d->mrrs > 0 &&
	    d->mrrs < MRRS_MIN &&
	    (is_nic(d) || is_nvme(d) || pd_pcie_is_gpu(d));
}

/* Whether the group reads host memory in bulk: a NIC's own counters
 * (bytes sent against received between snapshots), else the workload's
 * direction (fio or spdk_nvme_perf writes: the NIC sends and the drive
 * reads memory; iperf3's sender). */
static enum reads
group_reads(struct pd_arena *a, const struct pd_host *h,
    const struct pd_pcidev **grp, unsigned n, const char **why)
{
	double tx = 0, rx = 0;
	bool rates = false;

	for (unsigned i = 0; i < n; i++) {
		const struct pd_pf_path *p = &grp[i]->path;

		if (!is_nic(grp[i]) || p->tx_rate < 0 || !p->rx_known ||
		    !p->rx_is_rate)
			continue;	/* no rates: the others tell */
		rates = true;
		tx += p->tx_rate;
		rx += p->rx;
	}
	if (rates && (tx >= MRRS_BULK || rx >= MRRS_BULK)) {
		*why = pd_arena_printf(a, "between the counter snapshots it "
		    "sent %s and received %s", pd_rate_str(a, tx),
		    pd_rate_str(a, rx));
		return tx >= MRRS_BULK && tx >= MRRS_SHARE * rx ? READS_BULK :
		    READS_NONE;
	}
	for (const struct pd_workload *w = h->workloads; w; w = w->next) {
		const struct pd_wl_job *j = w->total ? w->total : w->jobs;
		bool net = strcmp(w->tool, "iperf3") == 0;

		if (!j || (net && !is_nic(grp[0])) || pd_pcie_is_gpu(grp[0]))
			continue;
		bool sends = net ? (j->net.role && strcmp(j->net.role,
		    "client") == 0) == (j->net.reverse != PD_YES) :
		    j->wr.bytes_per_s > j->rd.bytes_per_s;
		*why = pd_arena_printf(a, "the %s output %s", w->tool, net ?
		    (sends ? "shows this host sending" : "shows this host "
		    "receiving") : sends ? "writes more than it reads" :
		    "reads more than it writes");
		return sends ? READS_BULK : READS_NONE;
	}
	*why = NULL;
	return READS_UNKNOWN;
}

static void
mrrs_fix(struct pd_findings *out, struct pd_finding *f,
    const struct pd_host *h, const struct pd_pcidev **grp, unsigned n,
    int to)
{
	/* Device Control bits 14:12: 128 << value; 512 is 010b */
	unsigned v = 0;

	while ((128 << v) < to && v < 5)
		v++;
	pd_finding_fix(out, f, "# MaxReadReq is bits 14:12 of Device Control "
	    "(PCIe capability + 8): 0x%04x sets %d bytes; lost at reboot and "
	    "at a function reset", v << 12, 128 << v);
	for (unsigned i = 0; i < n; i++)
		pd_finding_fix(out, f, "sudo setpci -s %s CAP_EXP+8.w=%04x:7000",
		    grp[i]->bdf, v << 12);
	pd_finding_fix(out, f, "# persistent: the firmware's PCIe Max Read "
	    "Request option, or pci=pcie_bus_perf, which sets MaxReadReq to "
	    "MaxPayload%s", pd_host_cmdline_pci_opt(h, "pcie_bus_perf") ?
	    " (already on this command line: a driver or the firmware "
	    "lowered it afterwards)" : "");
	f->verify = pd_arena_printf(out->arena, "DevCtl shows MaxReadReq %d "
	    "bytes.\nsudo lspci -vv -s %s | grep -A2 DevCtl:", 128 << v,
	    grp[0]->bdf);
}

static void
mrrs_gain(struct pd_findings *out, struct pd_finding *f,
    const struct pd_pcidev **grp, unsigned n, int mrrs, int mps, int to)
{
	int c_now = mrrs < mps ? mrrs : mps, c_to = to < mps ? to : mps;
	double model = pd_pcie_tlp_eff(c_to) / pd_pcie_tlp_eff(c_now);
	double old_cap, new_cap, ports = pd_pcie_ports_gbs(grp, n);

	pd_pcie_group_links(grp, n, c_now, c_to, &old_cap, &new_cap);
	f->gain_lo = 0;
	f->gain_hi = ports > 0 ? pd_gain_tenths(new_cap / old_cap) :
	    pd_gain_tenths(model);
	f->gain_basis = pd_arena_printf(out->arena, "model: completions of at "
	    "most min(MaxReadReq, MaxPayload) bytes, each with ~20 bytes of "
	    "header and framing: %d/(%d+20) = %.1f %% -> %d/(%d+20) = %.1f "
	    "%% of the link toward the device (+%.1f %%), realised where "
	    "that link binds; the low end 0: a root complex that splits "
	    "completions at its 64- or 128-byte Read Completion Boundary "
	    "gains nothing from larger requests; read requests (one %d-byte "
	    "header per request instead of per %d bytes) load the other "
	    "direction", c_now, c_now, 100 * pd_pcie_tlp_eff(c_now), c_to,
	    c_to, 100 * pd_pcie_tlp_eff(c_to), (model - 1) * 100,
	    PD_TLP_OVERHEAD, c_to);
	if (ports > 0)
		f->gain_basis = pd_arena_printf(out->arena, "%s; the ports "
		    "behind the link deliver %.1f GB/s, %s", f->gain_basis,
		    ports, f->gain_hi <= 0 ? "below the link's ceiling even "
		    "now: no gain" : f->gain_hi < pd_gain_tenths(model) ?
		    "which caps the gain" : "more than the link carries");
	if (c_to <= c_now)
		f->gain_basis = pd_arena_printf(out->arena, "%s; MaxPayload "
		    "%d caps completions at %d bytes already: the larger "
		    "requests save only request headers and tags", f->gain_basis,
		    mps, mps);
}

static void
emit_mrrs_on(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_pcidev **grp, unsigned n,
    const struct pd_card *card)
{
	const char *why, *what = is_nic(grp[0]) ? "NIC" : is_nvme(grp[0]) ?
	    "NVMe drive" : "GPU";
	char subject[160];
	int mrrs = grp[0]->mrrs, mps = grp[0]->mps > 0 ? grp[0]->mps : 128;
	int to = mps > MRRS_MIN ? mps : MRRS_MIN;
	enum reads r = group_reads(out->arena, h, grp, n, &why);

	for (unsigned i = 1; i < n; i++)
		mrrs = grp[i]->mrrs < mrrs ? grp[i]->mrrs : mrrs;
	pd_pcie_subject_list(subject, sizeof(subject), grp, n);
	struct pd_finding *f = pd_finding_new(out, self, h, subject);

	pd_finding_summary(out, f, "%s (%s) request%s at most %d bytes per "
	    "read of host memory (MaxReadReq, below %d) with MaxPayload %d.",
	    subject, what, n > 1 ? "" : "s", mrrs, MRRS_MIN, mps);
	mrrs_gain(out, f, grp, n, mrrs, mps, to);
	f->confidence = r == READS_BULK ? 60 : r == READS_NONE ? 70 : 35;
	if (r == READS_NONE) {
		f->gain_lo = f->gain_hi = 0;
		f->summary = pd_arena_printf(out->arena, "%s It does not read "
		    "bulk data from memory here: %s, and a %s's %s arrive as "
		    "posted writes to memory, which MaxReadReq does not "
		    "touch; it reads only descriptors and what little it "
		    "sends.", f->summary, why, what, is_nic(grp[0]) ?
		    "received packets" : "reads from the drive");
		f->gain_basis = pd_arena_printf(out->arena, "none on this "
		    "workload (%s); where the %s reads memory in bulk: %s",
		    why, what, f->gain_basis);
	} else if (r == READS_BULK) {
		f->summary = pd_arena_printf(out->arena, "%s It reads bulk data "
		    "from memory: %s.", f->summary, why);
		if (card && is_nic(grp[0]))
			f->lever = (struct pd_lever){ .kind = PD_LEVER_MRRS,
				.card = card, .dev = grp[0], .mrrs_to = to };
	} else {
		f->confidence_note = "nothing in the bundle shows whether the "
		    "device reads host memory in bulk (NIC transmit, writes "
		    "to a drive, GPU uploads): add two ethtool -S snapshots "
		    "or the workload's output";
	}
	f->risk = PD_RISK_LOW;
	f->risk_note = "a larger MaxReadReq lets one device hold the link "
	    "longer per request, raising other devices' latency on a shared "
	    "switch; firmware may have lowered it for an erratum of this "
	    "device or platform; setpci bypasses the kernel, which may set it "
	    "again (hot-plug, reset, pci=pcie_bus_perf)";
	for (unsigned i = 0; i < n; i++)
		pd_finding_evidence(f, &grp[i]->ev_devctl);
	mrrs_fix(out, f, h, grp, n, to);
}

static void
emit_mrrs(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_pcidev **grp, unsigned n)
{
	emit_mrrs_on(self, h, out, grp, n, NULL);
}

static bool
mrrs_lone(const struct pd_host *h, const struct pd_pcidev *d)
{
	return mrrs_candidate(h, d) && !pd_pcie_in_card(h, d, NULL);
}

void
pd_check_mrrs(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_card *c = h->cards; c; c = c->next) {
		const struct pd_pcidev *grp[PD_PCIE_GROUP];
		unsigned n = 0;

		for (unsigned i = 0; i < c->n_pfs && n < PD_PCIE_GROUP; i++)
			if (mrrs_candidate(h, c->pfs[i]))
				grp[n++] = c->pfs[i];
		if (n)
			emit_mrrs_on(self, h, out, grp, n, c);
	}
	pd_pcie_per_device(self, h, out, mrrs_lone, emit_mrrs);
}
