/* --dump-model: every field the readers filled, in a fixed order. */
#include <inttypes.h>
#include <stdio.h>
#include "pathdoctor/gain.h"
#include "pathdoctor/model.h"

static const char *
tri(enum pd_tri t)
{
	return t == PD_YES ? "yes" : t == PD_NO ? "no" : "unknown";
}

static void
dump_ev(FILE *out, const char *indent, const char *what,
    const struct pd_evidence *ev)
{
	if (!ev->member)
		return;
	fprintf(out, "%s%s: %s:%u: %s\n", indent, what, ev->member, ev->line,
	    ev->text ? ev->text : "");
}

static void
dump_pcidev(FILE *out, const struct pd_pcidev *d)
{
	fprintf(out, "  pci %s\n", d->bdf);
	fprintf(out, "    class: %s", d->class_name ? d->class_name : "?");
	if (d->class_code >= 0)
		fprintf(out, " [%04x]", (unsigned)d->class_code);
	fprintf(out, "\n    device: %s", d->desc ? d->desc : "?");
	if (d->vendor_id >= 0)
		fprintf(out, " [%04x:%04x]", (unsigned)d->vendor_id,
		    (unsigned)d->device_id);
	fprintf(out, "\n");
	if (d->driver || d->modules)
		fprintf(out, "    driver: %s; modules: %s\n",
		    d->driver ? d->driver : "-", d->modules ? d->modules : "-");
	if (d->numa_node >= 0 || d->iommu_group >= 0)
		fprintf(out, "    numa node: %d; iommu group: %d\n",
		    d->numa_node, d->iommu_group);
	fprintf(out, "    capabilities readable: %s; virtual function: %s\n",
	    tri(d->caps_readable), d->is_vf ? "yes" : "no");
	if (d->has_express)
		fprintf(out, "    express: %s\n", pd_port_type_name(d->port));
	if (d->mps_cap || d->mps || d->mrrs)
		fprintf(out, "    maxpayload: cap %d, ctl %d; maxreadreq %d\n",
		    d->mps_cap, d->mps, d->mrrs);
	if (d->lnkcap_width || d->lnkcap_mts)
		fprintf(out, "    link cap: %s x%d\n",
		    pd_pcie_speed_name(d->lnkcap_mts), d->lnkcap_width);
	if (d->ev_lnksta.member)
		fprintf(out, "    link status: %s x%d%s%s%s\n",
		    pd_pcie_speed_name(d->lnksta_mts), d->lnksta_width,
		    d->lnk_down ? " (down)" : "",
		    d->lnksta_mark ? " marked " : "",
		    d->lnksta_mark ? d->lnksta_mark : "");
	if (d->has_dsn)
		fprintf(out, "    serial: %016" PRIx64 "\n", d->dsn);
	if (d->sriov_total >= 0)
		fprintf(out, "    sr-iov: total %d, enabled %d, offset %d, "
		    "stride %d\n", d->sriov_total, d->sriov_num,
		    d->sriov_offset, d->sriov_stride);
	if (d->is_bridge && d->bus_secondary >= 0)
		fprintf(out, "    bridge buses: primary %02x, secondary %02x, "
		    "subordinate %02x\n", (unsigned)d->bus_primary & 0xff,
		    (unsigned)d->bus_secondary, (unsigned)d->bus_subordinate);
	else if (d->is_bridge)
		fprintf(out, "    bridge buses: unknown\n");
	if (d->parent)
		fprintf(out, "    parent: %s (from %s)\n", d->parent->bdf,
		    d->parent_source);
	dump_ev(out, "    ", "header", &d->ev_header);
	dump_ev(out, "    ", "devcap", &d->ev_devcap);
	dump_ev(out, "    ", "devctl", &d->ev_devctl);
	dump_ev(out, "    ", "lnkcap", &d->ev_lnkcap);
	dump_ev(out, "    ", "lnksta", &d->ev_lnksta);
}

static void
dump_host(FILE *out, const struct pd_host *h)
{
	fprintf(out, "host %s\n", h->name ? h->name : "?");
	fprintf(out, "  key: \"%s\"\n  members: %u\n", h->key, h->n_members);
	fprintf(out, "  arch: %s", pd_arch_name(h->arch));
	if (h->arch_name)
		fprintf(out, " (%s)", h->arch_name);
	fprintf(out, "\n");
	dump_ev(out, "  ", "arch evidence", &h->ev_arch);
	if (h->nodename || h->kernel_release)
		fprintf(out, "  nodename: %s; kernel: %s\n",
		    h->nodename ? h->nodename : "?",
		    h->kernel_release ? h->kernel_release : "?");
	if (h->n_cpus || h->cpu_types) {
		fprintf(out, "  cpus: %u\n", h->n_cpus);
		for (const struct pd_cpu_type *t = h->cpu_types; t; t = t->next)
			fprintf(out, "  cpu type: %s x%u\n", t->name, t->count);
	}
	if (h->cmdline) {
		fprintf(out, "  cmdline: %s\n", h->cmdline);
		for (const struct pd_kv *kv = h->cmdline_kv; kv; kv = kv->next)
			fprintf(out, "    param %s%s%s\n", kv->key,
			    kv->val ? "=" : "", kv->val ? kv->val : "");
	}
	fprintf(out, "  iommu: %s (%s)\n", pd_iommu_mode_name(h->iommu.mode),
	    h->iommu.reason ? h->iommu.reason : "-");
	dump_ev(out, "  ", "iommu evidence", &h->iommu.ev);
	fprintf(out, "  have:");
	static const char *const bits[] = { "pci", "pcie-link",
		"pci-topology", "cmdline", "arch", "profile", "port-speed" };
	for (unsigned i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (h->have & (1u << i))
			fprintf(out, " %s", bits[i]);
	fprintf(out, "\n  pci devices: %u\n", h->n_pcidevs);
	for (const struct pd_pcidev *d = h->pcidevs; d; d = d->next)
		dump_pcidev(out, d);
	for (const struct pd_pci_edge *e = h->pci_edges; e; e = e->next) {
		fprintf(out, "  tree %s under %s", e->bdf,
		    e->parent[0] ? e->parent : "root bus");
		if (e->secondary >= 0)
			fprintf(out, "; buses %02x-%02x",
			    (unsigned)e->secondary, (unsigned)e->subordinate);
		fprintf(out, "\n");
	}
}

void
pd_model_dump(const struct pd_model *m, FILE *out)
{
	fprintf(out, "hosts: %u\n", m->n_hosts);
	for (const struct pd_host *h = m->hosts; h; h = h->next)
		dump_host(out, h);
}
