/* After the walk: topology joins, SR-IOV virtual functions, the IOMMU
 * mode from the command line and architecture, display names and the
 * PD_HAVE_* bits the rules' preconditions test. */
#include <stdint.h>
#include <string.h>
#include "finalize/finalize.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/text.h"

static struct pd_pcidev *
find_dev(struct pd_host *h, const char *bdf)
{
	return (struct pd_pcidev *)(uintptr_t)pd_host_find_pcidev(h, bdf);
}

/* Routing id arithmetic of SR-IOV: VF i = PF + offset + i * stride. */
static void
mark_vfs(struct pd_host *h)
{
	for (struct pd_pcidev *pf = h->pcidevs; pf; pf = pf->next) {
		if (pf->sriov_num <= 0 || pf->sriov_offset < 0 ||
		    pf->sriov_stride < 0)
			continue;
		unsigned rid = pf->bus << 8 | pf->dev << 3 | pf->fn;

		for (int i = 0; i < pf->sriov_num && i < 4096; i++) {
			unsigned v = rid + (unsigned)pf->sriov_offset +
			    (unsigned)(i * pf->sriov_stride);
			char bdf[16];

			if (v > 0xffff)
				break;
			pd_bdf_format(bdf, pf->domain, v >> 8, (v >> 3) & 0x1f,
			    v & 7);
			struct pd_pcidev *vf = find_dev(h, bdf);

			if (vf)
				vf->is_vf = true;
		}
	}
}

static int
bus_width(const struct pd_pcidev *b)
{
	return b->bus_subordinate - b->bus_secondary;
}

/* Without a tree, the narrowest bridge whose bus range holds the
 * device's bus is its parent (the first in bdf order of the narrowest).
 * Per domain (a run of the bdf-sorted list) a table of the 256 buses
 * holds each bus's bridge, so the work is the devices plus 256 per
 * bridge, not devices times bridges. */
static void
parents_by_bus_range(struct pd_host *h)
{
	struct pd_pcidev *best[256], *start = h->pcidevs, *end;

	for (; start; start = end) {
		memset(best, 0, sizeof(best));
		for (end = start; end && end->domain == start->domain;
		    end = end->next) {
			/* a bridge's secondary bus lies below its own bus */
			if (end->bus_secondary <= (int)end->bus)
				continue;
			int hi = end->bus_subordinate < 255 ?
			    end->bus_subordinate : 255;

			for (int bus = end->bus_secondary; bus <= hi; bus++)
				if (!best[bus] ||
				    bus_width(end) < bus_width(best[bus]))
					best[bus] = end;
		}
		for (struct pd_pcidev *d = start; d != end; d = d->next) {
			/* never d itself: its range lies above its bus */
			if (d->parent || !best[d->bus])
				continue;
			d->parent = best[d->bus];
			d->parent_source = "bus ranges";
		}
	}
}

static void
link_parents(struct pd_host *h)
{
	for (const struct pd_pci_edge *e = h->pci_edges; e; e = e->next) {
		struct pd_pcidev *d = find_dev(h, e->bdf);

		if (!d)
			continue;
		if (e->parent[0]) {
			d->parent = find_dev(h, e->parent);
			if (d->parent)
				d->parent_source = "lspci-tv";
		}
		if (e->secondary >= 0 && d->bus_secondary < 0) {
			d->bus_secondary = e->secondary;
			d->bus_subordinate = e->subordinate;
			d->is_bridge = true;
		}
	}
	parents_by_bus_range(h);
}

/* Damaged input can describe a loop (a tree line and a bus range that
 * disagree); rules walk parent chains, so every loop is cut. */
static void
cut_cycles(struct pd_host *h)
{
	for (struct pd_pcidev *d = h->pcidevs; d; d = d->next) {
		unsigned steps = 0;

		for (struct pd_pcidev *p = d->parent; p; p = p->parent) {
			if (p == d || ++steps > 256) {
				d->parent = NULL;
				d->parent_source = NULL;
				break;
			}
		}
	}
}

/* Once, so a rule asking for a port's far end walks no device list. */
static void
link_children(struct pd_host *h)
{
	for (struct pd_pcidev *d = h->pcidevs; d; d = d->next)
		if (d->parent && d->has_express && d->lnkcap_mts > 0 &&
		    !d->parent->link_child)
			d->parent->link_child = d;
}

static bool
truthy(const char *v)
{
	return !v || strcmp(v, "1") == 0 || strcmp(v, "y") == 0 ||
	    strcmp(v, "Y") == 0 || strcmp(v, "on") == 0 ||
	    strcmp(v, "true") == 0;
}

static bool
val_is(const struct pd_kv *kv, const char *v)
{
	/* intel_iommu=on,sm_on and the like */
	return kv && pd_list_has(kv->val, v, strlen(v));
}

static void
set_iommu(struct pd_iommu *io, enum pd_iommu_mode mode, const char *why,
    const struct pd_kv *kv)
{
	io->mode = mode;
	io->reason = why;
	if (kv)
		io->ev = kv->ev;
}

/* Precedence: off, then passthrough, then the invalidation policy
 * (explicit, then the architecture's default). */
static void
derive_iommu(struct pd_host *h)
{
	struct pd_iommu *io = &h->iommu;
	const struct pd_kv *iommu = pd_host_cmdline_last(h, "iommu");
	const struct pd_kv *intel = pd_host_cmdline_last(h, "intel_iommu");
	const struct pd_kv *amd = pd_host_cmdline_last(h, "amd_iommu");
	const struct pd_kv *pt = pd_host_cmdline_last(h, "iommu.passthrough");
	const struct pd_kv *strict = pd_host_cmdline_last(h, "iommu.strict");

	if (val_is(iommu, "off")) {
		set_iommu(io, PD_IOMMU_OFF, "iommu=off", iommu);
	} else if (val_is(intel, "off") && h->arch != PD_ARCH_ARM64) {
		set_iommu(io, PD_IOMMU_OFF, "intel_iommu=off", intel);
	} else if (val_is(amd, "off") && h->arch != PD_ARCH_ARM64) {
		set_iommu(io, PD_IOMMU_OFF, "amd_iommu=off", amd);
	} else if (pt && truthy(pt->val)) {
		set_iommu(io, PD_IOMMU_PASSTHROUGH, "iommu.passthrough=1", pt);
	} else if (val_is(iommu, "pt") && !pt) {
		set_iommu(io, PD_IOMMU_PASSTHROUGH, "iommu=pt", iommu);
	} else if (strict) {
		bool on = truthy(strict->val);

		set_iommu(io, on ? PD_IOMMU_STRICT : PD_IOMMU_LAZY,
		    on ? "iommu.strict=1 on the command line" :
		    "iommu.strict=0 on the command line", strict);
	} else if (val_is(intel, "strict")) {
		set_iommu(io, PD_IOMMU_STRICT, "intel_iommu=strict", intel);
	} else if (val_is(amd, "fullflush")) {
		set_iommu(io, PD_IOMMU_STRICT, "amd_iommu=fullflush", amd);
	} else if (h->arch == PD_ARCH_ARM64) {
		set_iommu(io, PD_IOMMU_STRICT, "arm64 default: no iommu.strict "
		    "on the command line and arm64 kernels are built with "
		    "CONFIG_IOMMU_DEFAULT_DMA_STRICT", NULL);
		io->ev = h->cmdline ? h->ev_cmdline : h->ev_arch;
	} else if (h->arch == PD_ARCH_X86_64) {
		set_iommu(io, PD_IOMMU_LAZY, "x86 default: no iommu.strict on "
		    "the command line and x86 kernels default to lazy "
		    "invalidation (CONFIG_IOMMU_DEFAULT_DMA_LAZY); whether "
		    "translation is on at all depends on intel_iommu=/amd_iommu= "
		    "and the distribution", NULL);
		io->ev = h->cmdline ? h->ev_cmdline : h->ev_arch;
	} else {
		set_iommu(io, PD_IOMMU_UNKNOWN, h->cmdline ?
		    "no IOMMU parameter on the command line and the "
		    "architecture is unknown (add uname -a)" :
		    "no kernel command line in the bundle", NULL);
	}
}

/* Kernel image names often carry the architecture (Fedora's
 * vmlinuz-5.2.13-200.fc30.aarch64); used only when nothing better. */
static void
arch_from_cmdline(struct pd_host *h)
{
	const struct pd_kv *img = pd_host_cmdline_last(h, "BOOT_IMAGE");

	if (h->arch != PD_ARCH_UNKNOWN || !img || !img->val)
		return;
	if (strstr(img->val, "aarch64") || strstr(img->val, "arm64")) {
		h->arch = PD_ARCH_ARM64;
		h->arch_name = "aarch64 (from the kernel image name)";
	} else if (strstr(img->val, "x86_64") || strstr(img->val, "amd64")) {
		h->arch = PD_ARCH_X86_64;
		h->arch_name = "x86_64 (from the kernel image name)";
	} else {
		return;
	}
	h->ev_arch = img->ev;
}

/* perf.data records uname -m and the host name of where it ran. */
static void
facts_from_profiles(struct pd_host *h)
{
	for (const struct pd_profile *p = h->profiles; p; p = p->next) {
		if (h->arch == PD_ARCH_UNKNOWN && p->arch) {
			if (strcmp(p->arch, "aarch64") == 0 ||
			    strcmp(p->arch, "arm64") == 0)
				h->arch = PD_ARCH_ARM64;
			else if (strcmp(p->arch, "x86_64") == 0)
				h->arch = PD_ARCH_X86_64;
			if (h->arch != PD_ARCH_UNKNOWN) {
				h->arch_name = p->arch;
				h->ev_arch = (struct pd_evidence){ p->member, 0,
				    "perf.data arch feature" };
			}
		}
		if (!h->nodename && p->hostname)
			h->nodename = p->hostname;
		if (!h->kernel_release && p->os_release)
			h->kernel_release = p->os_release;
	}
}

/* Display names: the part of each key after what all keys share; the
 * node name or "host" when nothing is left. */
static void
name_hosts(struct pd_model *m)
{
	size_t common = 0;
	const char *first = m->hosts ? m->hosts->key : "";

	if (m->n_hosts > 1) {
		common = strlen(first);
		for (struct pd_host *h = m->hosts; h; h = h->next) {
			size_t i = 0;

			while (i < common && h->key[i] == first[i])
				i++;
			common = i;
		}
		while (common > 0 && first[common - 1] != '/')
			common--;	/* whole components only */
	}
	for (struct pd_host *h = m->hosts; h; h = h->next) {
		const char *rest = h->key + common;

		if (m->n_hosts > 1 && rest[0])
			h->name = rest;
		else if (h->nodename)
			h->name = h->nodename;
		else if (h->key[0])
			h->name = strrchr(h->key, '/') ?
			    strrchr(h->key, '/') + 1 : h->key;
		else
			h->name = "host";
	}
}

void
pd_model_finalize(struct pd_model *m)
{
	pd_model_sort(m);
	for (struct pd_host *h = m->hosts; h; h = h->next) {
		mark_vfs(h);
		link_parents(h);
		cut_cycles(h);
		link_children(h);
		arch_from_cmdline(h);
		facts_from_profiles(h);
		derive_iommu(h);
		pd_profile_symbolise(h, m->arena);
		pd_finalize_nic(h, m->arena);
		pd_finalize_captures(h, m->arena);
		pd_finalize_nvme(h, m->arena);
		for (const struct pd_collect_gap *g = h->gaps; g; g = g->next)
			h->n_gaps++;
		h->have = pd_host_inputs(h);
	}
	name_hosts(m);
}
