/* PCIe rules: MaxPayload below what the whole path supports, and links
 * trained below what both ends can do.  Numbers come from gain.c:
 * payload efficiency MPS/(MPS+20) and raw rates with line encoding. */
#include <stdio.h>
#include <string.h>
#include "base/gain.h"
#include "finalize/cardlink.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/rule.h"
#include "rules/pcie.h"

#define BOTTLENECK_UNKNOWN_CONF 60	/* cap while nothing says the link
					 * is what limits throughput */

bool
pd_pcie_link_end(const struct pd_pcidev *d)
{
	return !d->is_vf && d->has_express && d->caps_readable != PD_NO &&
	    d->port != PD_PORT_ROOT && d->port != PD_PORT_DOWNSTREAM &&
	    d->port != PD_PORT_RCIEP && d->port != PD_PORT_RC_EC;
}

/* The smallest DevCap MaxPayload from d up to its root port; *complete is
 * false when a port on the way is unknown or the chain is not known. */
static int
path_mps_cap(const struct pd_pcidev *d, bool *complete,
    const struct pd_pcidev **root)
{
	int cap = d->mps_cap;

	*complete = d->parent != NULL;
	*root = NULL;
	for (const struct pd_pcidev *p = d->parent; p; p = p->parent) {
		if (p->mps_cap <= 0)
			*complete = false;
		else if (p->mps_cap < cap)
			cap = p->mps_cap;
		*root = p;
		if (p->port == PD_PORT_ROOT)
			break;
	}
	return cap;
}

/* What the ports behind a link's functions can deliver, in GB/s of TCP
 * payload; 0 when a function's port speed is not known. */
double
pd_pcie_ports_gbs(const struct pd_pcidev **grp, unsigned n)
{
	double sum = 0;

	for (unsigned i = 0; i < n; i++) {
		if (grp[i]->path.port_gbs <= 0)
			return 0;
		sum += grp[i]->path.port_gbs;
	}
	return sum;
}

static double
min_d(double a, double b)
{
	return a < b ? a : b;
}

static void
link_rate(const struct pd_pcidev *d, int *mts, int *width)
{
	bool live = !d->lnk_down && d->lnksta_mts > 0 && d->lnksta_width > 0;

	*mts = live ? d->lnksta_mts : d->lnkcap_mts;
	*width = live ? d->lnksta_width : d->lnkcap_width;
}

static void
mps_fix(struct pd_findings *out, struct pd_finding *f,
    const struct pd_host *h, const char *bdf)
{
	const struct pd_kv *perf = pd_host_cmdline_pci_opt(h, "pcie_bus_perf");
	const struct pd_kv *p2p = pd_host_cmdline_pci_opt(h,
	    "pcie_bus_peer2peer");

	if (p2p) {
		pd_finding_evidence(f, &p2p->ev);
		pd_finding_fix(out, f, "# pci=pcie_bus_peer2peer forces "
		    "MaxPayload 128 on every device: replace it with "
		    "pci=pcie_bus_perf unless devices do peer-to-peer DMA");
	} else if (perf) {
		pd_finding_evidence(f, &perf->ev);
		pd_finding_fix(out, f, "# pci=pcie_bus_perf is already on the "
		    "command line, so firmware sets this MaxPayload: look for "
		    "a 'PCIe Max Payload Size' option in the firmware setup or "
		    "update the firmware");
	} else {
		pd_finding_fix(out, f, "# Fedora, RHEL and derivatives:");
		pd_finding_fix(out, f, "sudo grubby --update-kernel=ALL "
		    "--args=pci=pcie_bus_perf");
		pd_finding_fix(out, f, "# Debian, Ubuntu: add pci=pcie_bus_perf "
		    "to GRUB_CMDLINE_LINUX in /etc/default/grub, then");
		pd_finding_fix(out, f, "sudo update-grub");
	}
	pd_finding_fix(out, f, "sudo reboot");
	f->verify = pd_arena_printf(out->arena, "After the reboot DevCtl shows "
	    "the new MaxPayload.\nsudo lspci -vv -s %s | grep -A2 DevCtl:",
	    bdf);
}

void
pd_pcie_subject_list(char *buf, size_t n, const struct pd_pcidev **grp,
    unsigned k)
{
	buf[0] = '\0';
	for (unsigned i = 0; i < k; i++) {
		size_t len = strlen(buf);

		snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
		    grp[i]->bdf);
	}
}

/* The group's current MaxPayload (the smallest), the largest every
 * path to the root supports, whether every port on the way was
 * readable, and the root port. */
static void
group_mps(const struct pd_pcidev **grp, unsigned n, int *cur, int *best,
    bool *complete, const struct pd_pcidev **root)
{
	*cur = grp[0]->mps;
	*best = 1 << 30;
	*complete = true;
	for (unsigned i = 0; i < n; i++) {
		bool c;
		const struct pd_pcidev *r;
		int cap = path_mps_cap(grp[i], &c, &r);

		if (cap < *best)
			*best = cap;
		if (grp[i]->mps < *cur)
			*cur = grp[i]->mps;
		*complete = *complete && c;
		if (r)
			*root = r;
	}
}

static void
mps_confidence_risk(struct pd_finding *f, bool complete,
    const struct pd_pcidev *root, double ports)
{
	f->confidence = complete ? 80 : root ? 50 : 40;
	f->confidence_note = !root ? "the ports above the device are not in "
	    "the bundle (add lspci -tv and the bridges' lspci -vv): their "
	    "MaxPayload capability is assumed" : !complete ? "a port on the "
	    "way to the root port has no readable DevCap" : NULL;
	if (ports <= 0 && f->confidence > BOTTLENECK_UNKNOWN_CONF) {
		f->confidence = BOTTLENECK_UNKNOWN_CONF;
		f->confidence_note = "nothing in the bundle tells whether this "
		    "link is the bottleneck (no port speed or observed "
		    "traffic): the gain applies only if it is";
	}
	f->risk = PD_RISK_MEDIUM;
	f->risk_note = "pci=pcie_bus_perf gives each device the largest "
	    "MaxPayload its parent allows instead of the smallest in the "
	    "fabric: peer-to-peer DMA between devices with different sizes "
	    "(GPUDirect, NVMe CMB, RDMA peer memory) and hot-plugged devices "
	    "that support less can fail; keep the default on such systems";
}

/* The links of the group (told apart by root port) and the card's
 * capacity with every function in use, at MaxPayload cur and best. */
unsigned
pd_pcie_group_links(const struct pd_pcidev **grp, unsigned n, int cur,
    int best, double *old_cap, double *new_cap)
{
	struct pd_pf_path p[PD_PCIE_GROUP];
	double lo[PD_PCIE_GROUP], hi[PD_PCIE_GROUP];
	bool all[PD_PCIE_GROUP];
	unsigned links = 0;

	for (unsigned i = 0; i < n; i++) {
		bool seen = false;

		p[i] = grp[i]->path;
		lo[i] = pd_pcie_ceiling_gbs(p[i].mts, p[i].width, cur);
		hi[i] = pd_pcie_ceiling_gbs(p[i].mts, p[i].width, best);
		all[i] = true;
		for (unsigned k = 0; k < i && !seen; k++)
			seen = pd_same_link(&p[k], &p[i]);
		links += !seen;
	}
	*old_cap = pd_card_capacity(p, lo, all, n, NULL);
	*new_cap = pd_card_capacity(p, hi, all, n, NULL);
	return links;
}

static void
emit_mps_on(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_pcidev **grp, unsigned n,
    const struct pd_card *card)
{
	const struct pd_pcidev *first = grp[0], *root = NULL;
	int cur, best;
	bool complete;
	char subject[160];

	group_mps(grp, n, &cur, &best, &complete, &root);
	pd_pcie_subject_list(subject, sizeof(subject), grp, n);
	if (best > 4096)
		best = 4096;
	if (cur >= best)
		return;
	int mts, width;

	link_rate(first, &mts, &width);
	double old_c = pd_pcie_ceiling_gbs(mts, width, cur);
	double new_c = pd_pcie_ceiling_gbs(mts, width, best);
	double ports = pd_pcie_ports_gbs(grp, n), old_cap, new_cap;
	unsigned links = pd_pcie_group_links(grp, n, cur, best, &old_cap, &new_cap);
	int model = pd_gain_tenths(pd_pcie_tlp_eff(best) /
	    pd_pcie_tlp_eff(cur));
	int hi = ports > 0 ? pd_gain_tenths(new_cap / old_cap) : model;
	struct pd_finding *f = pd_finding_new(out, self, h, subject);

	f->lever = (struct pd_lever){ .kind = PD_LEVER_MPS, .card = card,
		.dev = first, .mps_to = best };
	if (links > 1)
		ports = new_cap;	/* what the ports let the links carry */

	f->gain_hi = hi;
	f->gain_lo = (hi * 76 + 50) / 100;
	if (root && links > 1)
		pd_finding_summary(out, f, "%s run MaxPayload %d bytes although "
		    "they and every port up to their %u root ports support %d "
		    "bytes: each %s x%d link's payload ceiling is %.1f GB/s "
		    "instead of %.1f GB/s.", subject, cur, links, best,
		    pd_pcie_speed_name(mts), width, old_c, new_c);
	else if (root)
		pd_finding_summary(out, f, "%s run%s MaxPayload %d bytes "
		    "although %s and every port up to root port %s support "
		    "%d bytes: the %s x%d link's payload ceiling is %.1f GB/s "
		    "instead of %.1f GB/s.", subject, n > 1 ? "" : "s", cur,
		    n > 1 ? "they" : "it", root->bdf, best,
		    pd_pcie_speed_name(mts), width, old_c, new_c);
	else
		pd_finding_summary(out, f, "%s run%s MaxPayload %d bytes "
		    "although %s support%s %d bytes: the %s x%d link's payload "
		    "ceiling is %.1f GB/s instead of %.1f GB/s.", subject,
		    n > 1 ? "" : "s", cur, n > 1 ? "they" : "it",
		    n > 1 ? "" : "s", best, pd_pcie_speed_name(mts), width,
		    old_c, new_c);
	f->gain_basis = pd_arena_printf(out->arena, "model: TLP payload "
	    "efficiency %d/(%d+20) = %.1f %% -> %d/(%d+20) = %.1f %% raises the "
	    "link ceiling by %.1f %%, realised only where this link is the "
	    "bottleneck; measured in a comparable case: NVIDIA GB10 with "
	    "ConnectX-7 on Gen5 x4, pci=pcie_bus_perf (128 -> 512) took "
	    "NVMe/TCP reads from 24.4 to 26.5 GB/s (+8.6 %%, 76 %% of the "
	    "model), used as the low end", cur, cur,
	    100 * pd_pcie_tlp_eff(cur), best, best,
	    100 * pd_pcie_tlp_eff(best), hi / 10.0);
	if (ports > 0 && hi < model)
		f->summary = pd_arena_printf(out->arena, "%s Its ports deliver "
		    "at most %.1f GB/s of TCP payload, so %s.", f->summary,
		    ports, hi == 0 ? "the link is not the bottleneck and more "
		    "MaxPayload gains nothing" : "only part of that is usable");
	if (ports > 0 && hi < model)
		f->gain_basis = pd_arena_printf(out->arena, "%s; the ports "
		    "behind the link%s let %s carry at most %.1f GB/s, which "
		    "caps the gain at %.1f %%", f->gain_basis, links > 1 ? "s" :
		    "", links > 1 ? "them" : "it", ports, hi / 10.0);
	else if (ports > 0)
		f->gain_basis = pd_arena_printf(out->arena, "%s; the ports "
		    "behind the link%s deliver more than %s carr%s even at "
		    "MaxPayload %d", f->gain_basis, links > 1 ? "s" : "",
		    links > 1 ? "they" : "it", links > 1 ? "y" : "ies", best);
	mps_confidence_risk(f, complete, root, ports);
	for (unsigned i = 0; i < n; i++)
		pd_finding_evidence(f, &grp[i]->ev_devctl);
	pd_finding_evidence(f, &first->ev_devcap);
	if (root) {
		pd_finding_evidence(f, &root->ev_devcap);
		pd_finding_evidence(f, &root->ev_devctl);
	}
	mps_fix(out, f, h, first->bdf);
	pd_finding_evidence(f, &h->ev_cmdline);
}

static void
emit_mps(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_pcidev **grp, unsigned n)
{
	emit_mps_on(self, h, out, grp, n, NULL);
}

/* Functions of one device share its link: emit once per device with the
 * functions that pass pred (the list is sorted by bdf). */
void
pd_pcie_per_device(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out,
    bool (*pred)(const struct pd_host *, const struct pd_pcidev *),
    pd_pcie_emit_fn *emit)
{
	const struct pd_pcidev *grp[PD_PCIE_GROUP];
	unsigned n = 0;

	for (const struct pd_pcidev *d = h->pcidevs; d; d = d->next) {
		if (!pred(h, d))
			continue;
		if (n && (grp[0]->domain != d->domain ||
		    grp[0]->bus != d->bus || grp[0]->dev != d->dev ||
		    n == PD_PCIE_GROUP)) {
			emit(self, h, out, grp, n);
			n = 0;
		}
		grp[n++] = d;
	}
	if (n)
		emit(self, h, out, grp, n);
}

bool
pd_pcie_in_card(const struct pd_host *h, const struct pd_pcidev *d,
    const struct pd_card **card)
{
	for (const struct pd_card *c = h->cards; c; c = c->next)
		for (unsigned i = 0; i < c->n_pfs; i++)
			if (c->pfs[i] == d) {
				if (card)
					*card = c;
				return true;
			}
	return false;
}

static bool
mps_fixable(const struct pd_pcidev *d)
{
	bool complete;
	const struct pd_pcidev *root;

	return pd_pcie_link_end(d) && d->mps > 0 && d->mps_cap > 0 &&
	    d->mps < path_mps_cap(d, &complete, &root);
}

static bool
mps_candidate(const struct pd_host *h, const struct pd_pcidev *d)
{
	return mps_fixable(d) && !pd_pcie_in_card(h, d, NULL);
}

/* One finding per NIC (its links take one command line together), one
 * per device for everything else. */
static void
check_mps(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	for (const struct pd_card *c = h->cards; c; c = c->next) {
		const struct pd_pcidev *grp[PD_PCIE_GROUP];
		unsigned n = 0;

		for (unsigned i = 0; i < c->n_pfs && n < PD_PCIE_GROUP; i++)
			if (mps_fixable(c->pfs[i]))
				grp[n++] = c->pfs[i];
		if (n)
			emit_mps_on(self, h, out, grp, n, c);
	}
	pd_pcie_per_device(self, h, out, mps_candidate, emit_mps);
}

static bool
has_link_child(const struct pd_host *h, const struct pd_pcidev *port)
{
	for (const struct pd_pcidev *d = h->pcidevs; d; d = d->next)
		if (d->parent == port && d->has_express && d->lnksta_mts > 0)
			return true;
	return false;
}

bool
pd_pcie_is_gpu(const struct pd_pcidev *d)
{
	const char *c = d->class_name ? d->class_name : "";

	return strstr(c, "VGA") || strstr(c, "3D controller") ||
	    strstr(c, "Display controller");
}

/* The capability of the link d is on: both ends' LnkCap when the other
 * end is known (*partner), d's own otherwise. */
static void
link_capability(const struct pd_pcidev *d, int *mts, int *width,
    const struct pd_pcidev **partner)
{
	const struct pd_pcidev *p = NULL;

	*mts = d->lnkcap_mts;
	*width = d->lnkcap_width;
	if (pd_pcie_link_end(d)) {
		p = d->parent;
	} else {
		p = d->link_child;
	}
	*partner = p && p->lnkcap_mts > 0 ? p : NULL;
	if (!*partner)
		return;
	if (p->lnkcap_mts < *mts)
		*mts = p->lnkcap_mts;
	if (p->lnkcap_width > 0 && p->lnkcap_width < *width)
		*width = p->lnkcap_width;
}

static bool
link_candidate(const struct pd_host *h, const struct pd_pcidev *d)
{
	const struct pd_pcidev *partner;
	int mts, width;

	if (d->is_vf || !d->has_express || d->caps_readable == PD_NO ||
	    d->port == PD_PORT_RCIEP || d->port == PD_PORT_RC_EC ||
	    d->lnk_down || d->lnkcap_mts <= 0 || d->lnkcap_width <= 0 ||
	    d->lnksta_mts <= 0 || d->lnksta_width <= 0)
		return false;
	if ((d->port == PD_PORT_ROOT || d->port == PD_PORT_DOWNSTREAM) &&
	    has_link_child(h, d))
		return false;	/* the device below reports this link */
	link_capability(d, &mts, &width, &partner);
	return d->lnksta_mts < mts || d->lnksta_width < width;
}

static void
emit_link(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out, const struct pd_pcidev **grp, unsigned n)
{
	const struct pd_pcidev *d = grp[0], *partner;
	int cap_mts, cap_w;
	bool gpu = false;
	char subject[160];

	for (unsigned i = 0; i < n; i++)
		gpu = gpu || pd_pcie_is_gpu(grp[i]);
	link_capability(d, &cap_mts, &cap_w, &partner);
	pd_pcie_subject_list(subject, sizeof(subject), grp, n);
	double now = pd_pcie_raw_gbs(d->lnksta_mts, d->lnksta_width);
	double could = pd_pcie_raw_gbs(cap_mts, cap_w);
	struct pd_finding *f = pd_finding_new(out, self, h, subject);
	bool width = d->lnksta_width < cap_w;
	double ports = pd_pcie_ports_gbs(grp, n);
	double payload = pd_pcie_tlp_eff(d->mps > 0 ? d->mps : 128) *
	    (1 - PD_LINK_OVERHEAD);

	f->gain_lo = f->gain_hi = ports > 0 ?
	    pd_gain_tenths(min_d(could * payload, ports) /
	    min_d(now * payload, ports)) : pd_gain_tenths(could / now);
	pd_pcie_in_card(h, d, &f->lever.card);
	f->lever.kind = PD_LEVER_LINK_TRAIN;
	f->lever.dev = d;
	f->lever.mts_to = cap_mts;
	f->lever.width_to = cap_w;
	pd_finding_summary(out, f, "%s (%s) trained at %s x%d although %s "
	    "support%s %s x%d: %.2f GB/s raw instead of %.2f GB/s.", subject,
	    d->class_name ? d->class_name : "device",
	    pd_pcie_speed_name(d->lnksta_mts), d->lnksta_width,
	    partner ? "both ends of the link" : "it", partner ? "" : "s",
	    pd_pcie_speed_name(cap_mts), cap_w, now, could);
	f->gain_basis = pd_arena_printf(out->arena, "model: raw link rate "
	    "%.2f -> %.2f GB/s (transfer rate x lanes x line encoding), "
	    "realised only where this link is the bottleneck", now, could);
	if (ports > 0) {
		f->gain_basis = pd_arena_printf(out->arena, "%s; its ports "
		    "deliver at most %.1f GB/s of TCP payload", f->gain_basis,
		    ports);
		if (f->gain_hi == 0)
			f->summary = pd_arena_printf(out->arena, "%s Its ports "
			    "deliver at most %.1f GB/s, below even the trained "
			    "link's ceiling: no throughput gain.", f->summary,
			    ports);
	}
	f->confidence = 70;
	if (gpu && !width) {
		f->confidence = 25;
		f->confidence_note = "GPUs lower their link speed when idle: "
		    "read LnkSta again under load";
	} else if (!partner) {
		f->confidence = 35;
		f->confidence_note = "the other end of this link is not in the "
		    "bundle and may support only the trained speed and width";
	} else if (ports <= 0) {
		f->confidence = BOTTLENECK_UNKNOWN_CONF;
		f->confidence_note = "nothing in the bundle tells whether this "
		    "link is the bottleneck";
	}
	f->risk = PD_RISK_LOW;
	f->risk_note = "hardware work needs a maintenance window; nothing "
	    "changes in software";
	pd_finding_evidence(f, &d->ev_lnkcap);
	pd_finding_evidence(f, &d->ev_lnksta);
	if (partner)
		pd_finding_evidence(f, &partner->ev_lnkcap);
	if (width)
		pd_finding_fix(out, f, "# check that the slot is wired for x%d "
		    "(board manual: lanes shared with M.2 or other slots, "
		    "bifurcation), then reseat the card or its riser", cap_w);
	if (d->lnksta_mts < cap_mts)
		pd_finding_fix(out, f, "# check the firmware's PCIe speed "
		    "setting (Auto or Gen%d), risers and retimers; a link that "
		    "falls back in speed often has a signal integrity problem",
		    pd_pcie_gen(cap_mts));
	f->verify = pd_arena_printf(out->arena, "Under load LnkSta shows %s, "
	    "Width x%d.\nsudo lspci -vv -s %s | grep LnkSta:",
	    pd_pcie_speed_name(cap_mts), cap_w, d->bdf);
}

static void
check_link(const struct pd_rule *self, const struct pd_host *h,
    struct pd_findings *out)
{
	pd_pcie_per_device(self, h, out, link_candidate, emit_link);
}

/* The documentation each rule rests on (struct pd_rule .links). */
static const char *const mps_links[] = {
	/* pci=pcie_bus_perf */
	"https://docs.kernel.org/admin-guide/kernel-parameters.html",
	/* DevCap, DevCtl */
	"https://man7.org/linux/man-pages/man8/lspci.8.html",
	NULL,
};
static const char *const mrrs_links[] = {
	/* DevCtl MaxReadReq; setpci CAP_EXP+8.w */
	"https://man7.org/linux/man-pages/man8/lspci.8.html",
	"https://man7.org/linux/man-pages/man8/setpci.8.html",
	/* pci=pcie_bus_perf */
	"https://docs.kernel.org/admin-guide/kernel-parameters.html",
	NULL,
};
static const char *const link_links[] = {
	/* LnkCap, LnkSta */
	"https://man7.org/linux/man-pages/man8/lspci.8.html",
	NULL,
};

static const struct pd_rule rules[] = {
	{
		.id = "pcie.mps-below-capability",
		.title = "PCIe MaxPayload below what the whole path supports",
		.doc = "Every TLP carries about 20 bytes of header and "
		    "framing, so a link moves MPS/(MPS+20) of its rate as "
		    "payload: 86.5 % at 128 bytes, 96.2 % at 512.  Fires when "
		    "a device's DevCtl MaxPayload is below the smallest DevCap "
		    "MaxPayload of the device and every port up to its root "
		    "port (from lspci -tv or the bridges' bus ranges); SR-IOV "
		    "virtual functions are never subjects.  Gain: the ceiling "
		    "ratio (128 -> 512: +11.3 %) when the link is the "
		    "bottleneck; GB10 with ConnectX-7 measured +8.6 %.  "
		    "Confidence 80 with the full chain known, 50 with a port "
		    "unreadable, 40 without topology, and at most 60 while no "
		    "port speed tells whether the link limits throughput.",
		.physical = true,
		.links = mps_links,
		.needs = PD_HAVE_PCI | PD_HAVE_PCIE_LINK,
		.check = check_mps,
	},
	{
		.id = "pcie.mrrs-low",
		.title = "PCIe MaxReadReq below 512 bytes on a device that "
		    "reads host memory",
		.doc = "A device reading host memory (a NIC sending, an NVMe "
		    "drive being written, a GPU upload) asks for at most "
		    "MaxReadReq bytes per request; the root complex answers "
		    "with completions of at most MaxPayload bytes, each with "
		    "~20 bytes of header and framing, so requests below "
		    "MaxPayload cut the completions short: efficiency "
		    "min(MRRS, MPS)/(min+20), 86.5 % at 128 against 96.2 % at "
		    "512 (+11.3 %).  Each request is a TLP of its own, and the "
		    "tags a device keeps open bound the bytes in flight to "
		    "tags x MRRS.  Fires on NICs, NVMe drives and GPUs whose "
		    "DevCtl MaxReadReq is below 512 bytes (the spec's reset "
		    "default).  Direction: a NIC's own counters between two "
		    "snapshots (it sends 10 MB/s or more and at least 10 % of "
		    "what it receives), else the workload (fio or "
		    "spdk_nvme_perf writing, iperf3 sending).  Where the "
		    "device only receives (NVMe/TCP reads: the NIC writes to "
		    "memory; reads from a drive), it is info with gain 0 and "
		    "says why.  Gain: 0 (a root complex that splits "
		    "completions at its Read Completion Boundary) to the "
		    "completion efficiency ratio on the link's ceiling, "
		    "capped by the ports behind a NIC.  Fix: setpci -s BDF "
		    "CAP_EXP+8.w=2000:7000 (bits 14:12 of Device Control, "
		    "512 bytes), lost at reboot; persistent in firmware, or "
		    "pci=pcie_bus_perf, which sets MaxReadReq to MaxPayload.  "
		    "Confidence 60 when it reads in bulk, 70 when it does "
		    "not, 35 when nothing says.",
		.physical = true,
		.links = mrrs_links,
		.needs = PD_HAVE_PCI | PD_HAVE_PCIE_LINK,
		.check = pd_check_mrrs,
	},
	{
		.id = "pcie.link-degraded",
		.title = "PCIe link trained below its capability",
		.doc = "A link trains to the highest speed and width both ends "
		    "support; LnkSta below that (compared numerically, in "
		    "every lspci wording) means a slot wired narrower, a riser, "
		    "firmware limiting the speed, or signal problems.  Gain: "
		    "the raw-rate ratio (rate x lanes x encoding), realised "
		    "when the link is the bottleneck.  Confidence 70, at most "
		    "60 while no port speed tells whether the link limits "
		    "throughput, 25 for GPUs whose speed drops when idle; "
		    "virtual functions and links that are down are skipped, "
		    "and a port's downgrade is reported on the device below "
		    "it.",
		.physical = true,
		.links = link_links,
		.needs = PD_HAVE_PCI | PD_HAVE_PCIE_LINK,
		.check = check_link,
	},
};

const struct pd_rule_group pd_rules_pcie = {
	.name = "pcie",
	.rules = rules,
	.n_rules = sizeof(rules) / sizeof(rules[0]),
};
