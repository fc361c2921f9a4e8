/* --dump-model: every field the readers filled, in a fixed order. */
#include <inttypes.h>
#include <stdio.h>
#include "base/gain.h"
#include "base/sysval.h"
#include "decode/capture.h"
#include "finalize/counters.h"
#include "finalize/finalize.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "report/dump.h"
#include "report/escape.h"

/* Bundle-derived text, where the arena a is in scope (escape.h). */
#define D(s) pd_term_text(a, (s))

static const char *
tri(enum pd_tri t)
{
	return t == PD_YES ? "yes" : t == PD_NO ? "no" : "unknown";
}

static void
dump_ev(FILE *out, struct pd_arena *a, const char *indent, const char *what,
    const struct pd_evidence *ev)
{
	if (!ev->member)
		return;
	fprintf(out, "%s%s: %s:%u: %s\n", indent, what, D(ev->member),
	    ev->line, D(ev->text));
}

static void
dump_pcidev(FILE *out, struct pd_arena *a, const struct pd_pcidev *d)
{
	fprintf(out, "  pci %s\n", D(d->bdf));
	fprintf(out, "    class: %s", d->class_name ? D(d->class_name) : "?");
	if (d->class_code >= 0)
		fprintf(out, " [%04x]", (unsigned)d->class_code);
	fprintf(out, "\n    device: %s", d->desc ? D(d->desc) : "?");
	if (d->vendor_id >= 0)
		fprintf(out, " [%04x:%04x]", (unsigned)d->vendor_id,
		    (unsigned)d->device_id);
	fprintf(out, "\n");
	if (d->driver || d->modules)
		fprintf(out, "    driver: %s; modules: %s\n",
		    d->driver ? D(d->driver) : "-",
		    d->modules ? D(d->modules) : "-");
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
		    D(d->lnksta_mark));
	if (d->has_dsn)
		fprintf(out, "    serial: %s\n", D(pd_arena_printf(a,
		    "%016" PRIx64, d->dsn)));
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
		fprintf(out, "    parent: %s (from %s)\n", D(d->parent->bdf),
		    D(d->parent_source));
	dump_ev(out, a, "    ", "header", &d->ev_header);
	dump_ev(out, a, "    ", "devcap", &d->ev_devcap);
	dump_ev(out, a, "    ", "devctl", &d->ev_devctl);
	dump_ev(out, a, "    ", "lnkcap", &d->ev_lnkcap);
	dump_ev(out, a, "    ", "lnksta", &d->ev_lnksta);
}

static void
dump_long(FILE *out, const char *name, long v)
{
	if (v >= 0)
		fprintf(out, " %s %ld", name, v);
}

/* ethtool -g and -l: the values known in each block (-1 left out, as
 * in the limits line), or ethtool's reason for having none. */
static void
dump_rings_channels(FILE *out, struct pd_arena *a, const struct pd_netdev *nd)
{
	struct pd_queue_block q;

	for (unsigned b = 0; b < PD_QUEUE_BLOCKS; b++) {
		pd_netdev_queue_block(nd, b, &q);
		if (!q.ev)
			continue;
		if (q.error && !q.current)
			fprintf(out, "    %s: not read (%s)\n", q.what, D(q.error));
		if (!q.error) {
			fprintf(out, "    %s %s:", q.what, q.current ? "current" :
			    "max");
			for (unsigned i = 0; i < q.n; i++)
				if (q.v[i] >= 0)
					fprintf(out, " %s %" PRId64, q.names[i],
					    q.v[i]);
			for (unsigned i = 0; i < q.n_flags; i++)
				if (q.flag[i] != PD_UNKNOWN)
					fprintf(out, " %s %s", q.flag_names[i],
					    q.flag[i] == PD_YES ? "on" : "off");
			fprintf(out, "\n");
		}
		if (q.current)
			dump_ev(out, a, "    ", b < 2 ? "rings from" :
			    "channels from", q.ev);
	}
}

/* ethtool -S drop classes and per-queue receive rates (finalize). */
static void
dump_drops_rxq(FILE *out, const struct pd_netdev *nd)
{
	const struct pd_rxq *r = nd->rxq;

	for (int c = 0; c < PD_DROP_COUNT; c++) {
		const struct pd_ctr_value *v = &nd->drop[c];

		if (!v->known)
			continue;
		fprintf(out, "    drop class %s: total %llu from %u counter%s",
		    pd_drop_name((enum pd_drop)c),
		    (unsigned long long)v->total, v->n_names,
		    v->n_names == 1 ? "" : "s");
		if (v->is_rate)
			fprintf(out, "; rate %.1f/s", v->per_s);
		fprintf(out, "\n");
	}
	if (!r)
		return;
	fprintf(out, "    rx queues: %u with a rate over %.0f s, %.0f bytes/s "
	    "in all, busiest %u, %u beyond %d:", r->n_counted, r->seconds,
	    r->total_per_s, r->busiest, r->n_beyond, PD_RXQ_MAX);
	for (unsigned i = 0; i < r->n; i++)
		if (r->per_s[i] >= 0)
			fprintf(out, " %u:%.0f", i, r->per_s[i]);
	fprintf(out, "\n");
}

static void
dump_modes(FILE *out, const char *what, const struct pd_link_modes *l)
{
	fprintf(out, "%s", what);
	if (!l->read)
		fprintf(out, " -");
	else if (l->not_reported)
		fprintf(out, " not reported");
	else if (l->n == 0)
		fprintf(out, " none");
	for (unsigned i = 0; i < l->n; i++)
		fprintf(out, " %d%s", l->m[i].speed_mbps, l->m[i].full ? "" :
		    "/half");
}

static void
dump_link_modes(FILE *out, const struct pd_netdev *nd)
{
	const struct pd_link_settings *ls = &nd->ls;

	if (!ls->supported.read && !ls->advertised.read && !ls->partner.read &&
	    ls->autoneg == PD_UNKNOWN)
		return;
	dump_modes(out, "    link modes (Mb/s): supported", &ls->supported);
	dump_modes(out, "; advertised", &ls->advertised);
	dump_modes(out, "; partner", &ls->partner);
	fprintf(out, "\n    autoneg: %s (supported %s, advertised %s, partner "
	    "%s); full duplex: %s\n", tri(ls->autoneg), tri(ls->an_supported),
	    tri(ls->an_advertised), tri(ls->an_partner), tri(ls->full_duplex));
}

static void
dump_netdev(FILE *out, struct pd_arena *a, const struct pd_netdev *nd)
{
	fprintf(out, "  netdev %s\n", D(nd->name));
	if (nd->driver || nd->bus_info)
		fprintf(out, "    driver: %s %s; firmware: %s; bus: %s%s\n",
		    nd->driver ? D(nd->driver) : "?", D(nd->driver_version),
		    nd->firmware ? D(nd->firmware) : "?",
		    nd->bus_info ? D(nd->bus_info) : "-",
		    nd->pci ? " (joined)" : "");
	if (nd->speed_mbps >= 0 || nd->link != PD_UNKNOWN)
		fprintf(out, "    speed: %d Mb/s; duplex: %s; link: %s\n",
		    nd->speed_mbps, nd->duplex ? D(nd->duplex) : "?",
		    tri(nd->link));
	dump_link_modes(out, nd);
	if (nd->ev_pause.member && nd->pause_error)
		fprintf(out, "    pause: unknown (%s)\n",
		    D(nd->pause_error));
	else if (nd->ev_pause.member)
		fprintf(out, "    pause: autoneg %s, rx %s, tx %s\n",
		    tri(nd->pause_autoneg), tri(nd->pause_rx),
		    tri(nd->pause_tx));
	dump_rings_channels(out, a, nd);
	if (nd->ifindex >= 0) {
		fprintf(out, "    link: index %d, mtu %d, state %s, kind %s%s%s, "
		    "master %s, parent %s, flags <%s>\n", nd->ifindex, nd->mtu,
		    nd->state ? D(nd->state) : "?",
		    nd->kind ? D(nd->kind) : "-",
		    nd->tun_type ? " type " : "", D(nd->tun_type),
		    nd->master ? D(nd->master) : "-",
		    nd->link_parent ? D(nd->link_parent) : "-",
		    D(nd->flags));
		fprintf(out, "    limits:");
		dump_long(out, "gso_max_size", nd->gso_max_size);
		dump_long(out, "gso_max_segs", nd->gso_max_segs);
		dump_long(out, "gso_ipv4_max_size", nd->gso_ipv4_max_size);
		dump_long(out, "gro_max_size", nd->gro_max_size);
		dump_long(out, "tso_max_size", nd->tso_max_size);
		dump_long(out, "tso_max_segs", nd->tso_max_segs);
		dump_long(out, "txq", nd->n_txq);
		dump_long(out, "rxq", nd->n_rxq);
		fprintf(out, "\n");
	}
	for (const struct pd_feature *f = nd->features; f; f = f->next)
		fprintf(out, "    feature %s: %s%s%s\n", D(f->name),
		    f->on == PD_YES ? "on" : f->on == PD_NO ? "off" : "?",
		    f->fixed ? " fixed" : "", f->requested == PD_YES ?
		    " requested-on" : f->requested == PD_NO ?
		    " requested-off" : "");
	for (const struct pd_snapshot *sn = nd->snaps; sn; sn = sn->next)
		fprintf(out, "    snapshot %s at %lld ms: %u counters\n",
		    D(sn->member), (long long)sn->time_ms, sn->n_counters);
	for (int c = 0; c < PD_CTR_COUNT; c++) {
		const struct pd_ctr_value *v = &nd->ctr[c];

		if (!v->known)
			continue;
		fprintf(out, "    %s: total %llu from %u counter%s",
		    pd_ctr_name((enum pd_ctr)c),
		    (unsigned long long)v->total, v->n_names,
		    v->n_names == 1 ? "" : "s");
		if (v->is_rate)
			fprintf(out, "; rate %.0f/s", v->per_s);
		fprintf(out, "\n");
	}
	dump_drops_rxq(out, nd);
}

static void
dump_sizes(FILE *out, const char *indent, const struct pd_size_count *v,
    unsigned n, unsigned max)
{
	fprintf(out, "%ssizes:", indent);
	for (unsigned i = 0; i < n && i < max; i++)
		fprintf(out, " %u:%llu", v[i].bytes,
		    (unsigned long long)v[i].count);
	fprintf(out, "\n");
}

/* Every symbol with its self and inclusive shares (percent of all
 * samples' periods), for tests that compare with perf report. */
static void
dump_profile(FILE *out, struct pd_arena *a, const struct pd_profile *p)
{
	fprintf(out, "  profile %s (%s): event %s, samples %llu, lost %llu, "
	    "period %.0f, call chains %s, cpus %s, symbols %u from %s\n",
	    D(p->member), p->reader, p->event ? D(p->event) : "-",
	    (unsigned long long)p->samples, (unsigned long long)p->lost,
	    p->period, p->has_callchain ? "yes" : "no",
	    p->has_cpu ? "yes" : "no", p->n_syms,
	    p->symbols ? D(p->symbols) : "-");
	if (p->hostname || p->arch || p->nr_cpus)
		fprintf(out, "    recorded on %s (%s, %u CPUs, %s), perf %s\n",
		    p->hostname ? D(p->hostname) : "?",
		    p->arch ? D(p->arch) : "?", p->nr_cpus,
		    p->os_release ? D(p->os_release) : "?",
		    p->perf_version ? D(p->perf_version) : "?");
	for (unsigned g = 0; g < p->n_groups; g++)
		fprintf(out, "    group %s: %u cpus, period %.0f, idle %.0f\n",
		    D(p->groups[g].name), p->groups[g].n_cpus,
		    p->groups[g].total, p->groups[g].idle);
	for (unsigned c = 0; c < p->n_cpu_slots; c++)
		if (p->cpu_total[c])
			fprintf(out, "    cpu %u: period %.0f, idle %.0f\n", c,
			    p->cpu_total[c], p->cpu_idle[c]);
	for (unsigned i = 0; i < p->n_syms; i++) {
		const struct pd_prof_sym *s = &p->syms[i];

		fprintf(out, "    sym %.4f %.4f %s %s%s\n", p->period > 0 ?
		    100 * s->self / p->period : 0, p->period > 0 ?
		    100 * s->inclusive / p->period : 0, D(s->dso), D(s->name),
		    s->idle ? " (idle)" : "");
	}
}

static void
dump_capture(FILE *out, struct pd_arena *a, const struct pd_capture *c)
{
	static const char *const sides[] = { "unknown", "virtual", "physical" };
	char key[128];

	fprintf(out, "  capture %s interface %s\n", D(c->member),
	    D(c->ifname));
	fprintf(out, "    link type %d, snap length %u%s; side %s%s%s%s\n",
	    c->linktype, c->snaplen, c->truncated ? ", truncated" : "",
	    sides[c->side], c->side_why ? " (" : "",
	    D(c->side_why), c->side_why ? ")" : "");
	if (c->filter)
		fprintf(out, "    filter '%s': %llu of %llu packets matched\n",
		    D(c->filter), (unsigned long long)c->packets,
		    (unsigned long long)c->packets_read);
	fprintf(out, "    packets %llu, tcp %llu, payload %llu, undecoded %llu, "
	    "%.6f..%.6f s\n", (unsigned long long)c->packets,
	    (unsigned long long)c->tcp_segments,
	    (unsigned long long)c->tcp_payload_bytes,
	    (unsigned long long)c->undecoded, c->first_ts, c->last_ts);
	fprintf(out, "    retransmitted %llu (%llu bytes), duplicates %llu, "
	    "out of order %llu, unseen %llu, keep-alives %llu, window "
	    "probes %llu, super-packets %llu\n",
	    (unsigned long long)c->retrans_segs,
	    (unsigned long long)c->retrans_bytes,
	    (unsigned long long)c->dup_segs,
	    (unsigned long long)c->ooo_segs,
	    (unsigned long long)c->unseen_segs,
	    (unsigned long long)c->keepalives,
	    (unsigned long long)c->window_probes,
	    (unsigned long long)c->super_segs);
	fprintf(out, "    stalls %llu, %.3f s:", (unsigned long long)
	    c->n_stall_events, c->stall_time);
	for (unsigned i = 0; i < c->n_stalls; i++)
		fprintf(out, " %.3f@%.3f", c->stalls[i].gap, c->stalls[i].ts);
	fprintf(out, "\n");
	dump_sizes(out, "    ", c->sizes.top, c->sizes.n, 16);
	fprintf(out, "    flows seen %llu, evicted %llu\n",
	    (unsigned long long)c->flows_seen,
	    (unsigned long long)c->flows_evicted);
	for (unsigned i = 0; i < c->n_flows && i < 4; i++) {
		const struct pd_flow *f = &c->flows[i];

		pd_flow_key_fmt(key, sizeof(key), &f->key);
		fprintf(out, "    flow %s\n", D(key));
		for (int d = 0; d < 2; d++) {
			const struct pd_flow_dir *fd = &f->dir[d];

			fprintf(out, "      %s: bytes %llu, segments %llu, "
			    "retransmitted %llu, super %llu, max %u, mss %u\n",
			    d ? "b->a" : "a->b", (unsigned long long)fd->bytes,
			    (unsigned long long)fd->segs,
			    (unsigned long long)fd->retrans_segs,
			    (unsigned long long)fd->super_segs, fd->max_payload,
			    fd->mss);
			dump_sizes(out, "        ", fd->sizes, fd->n_sizes, 6);
		}
	}
}

static void
dump_wl_side(FILE *out, const char *what, const struct pd_wl_side *s)
{
	fprintf(out, "      %s: bytes %lld, %.0f B/s, iops %.2f, clat us mean "
	    "%.3f p50 %.3f p99 %.3f p99.9 %.3f\n", what, (long long)s->bytes,
	    s->bytes_per_s, s->iops, s->lat_mean_us, s->lat_p50_us,
	    s->lat_p99_us, s->lat_p999_us);
}

static void
dump_wl_job(FILE *out, struct pd_arena *a, const struct pd_wl_job *j)
{
	const struct pd_wl_net *n = &j->net;

	fprintf(out, "    job %s: group %d%s, %.3f s\n", D(j->name), j->groupid,
	    j->group_reporting ? " (group reporting)" : "", j->seconds);
	/* a network test has no storage side, a storage job no net */
	if (j->rw || j->bs || j->ioengine || j->filename || j->iodepth >= 0)
		fprintf(out, "      options: rw %s, bs %s, iodepth %d, "
		    "numjobs %d, ioengine %s, filename %s (%d devices)\n",
		    j->rw ? D(j->rw) : "-", j->bs ? D(j->bs) : "-", j->iodepth,
		    j->numjobs, j->ioengine ? D(j->ioengine) : "-",
		    j->filename ? D(j->filename) : "-", j->n_devices);
	if (j->rd.bytes >= 0 || j->wr.bytes >= 0 || j->rd.bytes_per_s >= 0 ||
	    j->wr.bytes_per_s >= 0) {
		dump_wl_side(out, "read", &j->rd);
		dump_wl_side(out, "write", &j->wr);
	}
	if (n->streams >= 0 || n->sent_bytes >= 0 || n->recv_bytes >= 0)
		fprintf(out, "      net: sent %lld (%.0f B/s), received %lld "
		    "(%.0f B/s), retransmits %lld, streams %d, role %s, "
		    "reverse %s\n", (long long)n->sent_bytes,
		    n->sent_bytes_per_s, (long long)n->recv_bytes,
		    n->recv_bytes_per_s, (long long)n->retransmits,
		    n->streams, n->role ? D(n->role) : "-", tri(n->reverse));
	dump_ev(out, a, "      ", "evidence", &j->ev);
}

/* Every workload output's jobs, then its total (-1: unknown). */
static void
dump_workload(FILE *out, struct pd_arena *a, const struct pd_workload *w)
{
	fprintf(out, "  workload %s (%s %s): %u jobs, %u errors\n", D(w->member),
	    D(w->tool), w->version ? D(w->version) : "?", w->n_jobs, w->n_errors);
	dump_ev(out, a, "    ", "first error", &w->first_error);
	for (const struct pd_wl_job *j = w->jobs; j; j = j->next)
		dump_wl_job(out, a, j);
	if (w->total)
		dump_wl_job(out, a, w->total);
}

#define OR_DASH(s) ((s) ? D(s) : "-")

static void
dump_nvme(FILE *out, struct pd_arena *a, const struct pd_host *h)
{
	for (const struct pd_nvme_subsys *s = h->nvme; s; s = s->next) {
		fprintf(out, "  nvme %s: nqn %s, hostnqn %s, iopolicy %s%s, "
		    "%u paths\n", D(s->name), OR_DASH(s->nqn),
		    OR_DASH(s->hostnqn), OR_DASH(s->iopolicy),
		    s->iopolicy_sysfs ? " (sysfs)" : "", s->n_paths);
		dump_ev(out, a, "    ", "iopolicy from", &s->ev_iopolicy);
		for (const struct pd_nvme_path *p = s->paths; p; p = p->next) {
			fprintf(out, "    path %s %s traddr %s trsvcid %s "
			    "host_traddr %s src_addr %s host_iface %s state %s "
			    "ana %s", D(p->ctrl), OR_DASH(p->transport),
			    OR_DASH(p->traddr), OR_DASH(p->trsvcid),
			    OR_DASH(p->host_traddr), OR_DASH(p->src_addr),
			    OR_DASH(p->host_iface), OR_DASH(p->state),
			    OR_DASH(p->ana));
			fprintf(out, "; netdev %s by %s%s%s\n", p->nd ?
			    D(p->nd->name) : "-", pd_nvme_join_name(p->join) ?
			    pd_nvme_join_name(p->join) : "none",
			    p->join_what ? " " : "", p->join_what ?
			    D(p->join_what) : "");
		}
	}
	for (const struct pd_ipaddr *x = h->ipaddrs; x; x = x->next)
		fprintf(out, "  ipaddr %s: %s\n", D(x->ifname), D(x->text));
}

/* Interrupt snapshots (the rows of PCI devices), affinities, cpufreq
 * policies, powercap and thermal zones. */
static void
dump_irq_freq(FILE *out, struct pd_arena *a, const struct pd_host *h)
{
	char l1[128], l2[128];

	for (unsigned i = 0; i < h->irqs.n; i++) {
		const struct pd_irq_snap *s = &h->irqs.snap[i];

		fprintf(out, "  interrupts %s %s", i == 0 ? "first" : "last",
		    D(s->member));
		if (s->time >= 0)
			fprintf(out, " at %" PRId64, s->time);
		fprintf(out, ": %u CPU columns, %u rows\n", s->n_col, s->n_rows);
		for (unsigned r = 0; r < s->n_rows && i == h->irqs.n - 1; r++)
			if (s->rows[r].bdf[0])
				fprintf(out, "    irq %u %s (%s) total %" PRIu64
				    "\n", s->rows[r].irq, s->rows[r].name ?
				    D(s->rows[r].name) : "-", s->rows[r].bdf,
				    s->rows[r].total);
	}
	for (const struct pd_irq_aff *f = h->irqs.aff; f; f = f->next) {
		l1[0] = l2[0] = '\0';
		if (f->smp)
			pd_cpulist_format(f->smp, PD_MAX_CPUS, l1, sizeof(l1));
		if (f->eff)
			pd_cpulist_format(f->eff, PD_MAX_CPUS, l2, sizeof(l2));
		fprintf(out, "  irq %u affinity %s effective %s\n", f->irq,
		    f->smp ? l1 : "-", f->eff ? l2 : "-");
	}
	for (const struct pd_cpufreq *f = h->freq.list; f; f = f->next) {
		l1[0] = '\0';
		if (f->cpus)
			pd_cpulist_format(f->cpus, PD_MAX_CPUS, l1, sizeof(l1));
		fprintf(out, "  cpufreq %s%u: scaling_max %" PRId64 " kHz, "
		    "cpuinfo_max %" PRId64 ", cur %" PRId64 ", governor %s, "
		    "driver %s, cpus %s\n", f->policy ? "policy" : "cpu",
		    f->num, f->scaling_max, f->cpuinfo_max, f->cur,
		    f->governor ? D(f->governor) : "-",
		    f->driver ? D(f->driver) : "-", f->cpus ? l1 : "-");
	}
	if (h->freq.max_perf_pct > 0)
		fprintf(out, "  intel_pstate max_perf_pct %d\n",
		    h->freq.max_perf_pct);
	for (const struct pd_powercap *z = h->freq.zones; z; z = z->next) {
		fprintf(out, "  %s %s (%s)", z->thermal ? "thermal" :
		    "powercap", D(z->zone), z->name ? D(z->name) : "-");
		if (z->thermal && z->temp_mc != INT64_MIN)
			fprintf(out, " temp %" PRId64 " millidegrees C", z->temp_mc);
		if (!z->thermal)
			fprintf(out, " enabled %d", z->enabled);
		for (unsigned k = 0; k < PD_POWERCAP_CONSTRAINTS; k++)
			if (z->c[k].limit_uw >= 0 || z->c[k].max_uw >= 0)
				fprintf(out, ", constraint %u %s limit %"
				    PRId64 " uW max %" PRId64, k, z->c[k].name ?
				    D(z->c[k].name) : "-", z->c[k].limit_uw,
				    z->c[k].max_uw);
		fputc('\n', out);
	}
}

static void
dump_host(FILE *out, struct pd_arena *a, const struct pd_host *h)
{
	fprintf(out, "host %s\n", h->name ? D(h->name) : "?");
	fprintf(out, "  key: \"%s\"\n  members: %u\n", D(h->key), h->n_members);
	fprintf(out, "  arch: %s", pd_arch_name(h->arch));
	if (h->arch_name)
		fprintf(out, " (%s)", D(h->arch_name));
	fprintf(out, "\n");
	dump_ev(out, a, "  ", "arch evidence", &h->ev_arch);
	if (h->nodename || h->kernel_release)
		fprintf(out, "  nodename: %s; kernel: %s\n",
		    h->nodename ? D(h->nodename) : "?",
		    h->kernel_release ? D(h->kernel_release) : "?");
	if (h->n_cpus || h->cpu_types) {
		fprintf(out, "  cpus: %u\n", h->n_cpus);
		for (const struct pd_cpu_type *t = h->cpu_types; t; t = t->next)
			fprintf(out, "  cpu type: %s x%u\n", D(t->name),
			    t->count);
	}
	if (h->n_numa_nodes)
		fprintf(out, "  numa nodes: %u\n", h->n_numa_nodes);
	if (h->numa_of_cpu) {
		static const unsigned max_nodes = 4096;
		unsigned *per = pd_arena_alloc(a, max_nodes * sizeof(*per));

		for (unsigned c = 0; c < PD_MAX_CPUS; c++)
			if (h->numa_of_cpu[c] >= 0 &&
			    (unsigned)h->numa_of_cpu[c] < max_nodes)
				per[h->numa_of_cpu[c]]++;
		for (unsigned node = 0; node < max_nodes; node++)
			if (per[node])
				fprintf(out, "  numa node %u: %u cpus\n", node,
				    per[node]);
	}
	if (h->cmdline) {
		fprintf(out, "  cmdline: %s\n", D(h->cmdline));
		for (const struct pd_kv *kv = h->cmdline_kv; kv; kv = kv->next)
			fprintf(out, "    param %s%s%s\n", D(kv->key),
			    kv->val ? "=" : "", D(kv->val));
	}
	fprintf(out, "  iommu: %s (%s)\n", pd_iommu_mode_name(h->iommu.mode),
	    h->iommu.reason ? D(h->iommu.reason) : "-");
	dump_ev(out, a, "  ", "iommu evidence", &h->iommu.ev);
	fprintf(out, "  have:");
	for (unsigned b = 1; b; b <<= 1)
		if (h->have & b)
			fprintf(out, " %s", pd_input_name(b));
	fprintf(out, "\n");
	if (h->workload_run)
		fprintf(out, "  workload run: exit %d, %u s, stopped %s: %s\n",
		    h->workload_run->exit, h->workload_run->seconds,
		    h->workload_run->stopped ? "yes" : "no",
		    D(h->workload_run->command));
	for (unsigned i = 0; i < h->n_tcpstat; i++) {
		const struct pd_tcpstat *t = &h->tcpstat[i];

		fprintf(out, "  tcp counters %s: time %lld, OutSegs %llu, "
		    "RetransSegs %llu (%s)\n", i ? "last" : "first",
		    (long long)t->time, (unsigned long long)t->out_segs,
		    (unsigned long long)t->retrans_segs, D(t->member));
	}
	fprintf(out, "  pci devices: %u\n", h->n_pcidevs);
	for (const struct pd_pcidev *d = h->pcidevs; d; d = d->next)
		dump_pcidev(out, a, d);
	for (const struct pd_pci_edge *e = h->pci_edges; e; e = e->next) {
		fprintf(out, "  tree %s under %s", D(e->bdf),
		    e->parent[0] ? D(e->parent) : "root bus");
		if (e->secondary >= 0)
			fprintf(out, "; buses %02x-%02x",
			    (unsigned)e->secondary, (unsigned)e->subordinate);
		fprintf(out, "\n");
	}
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next)
		dump_netdev(out, a, nd);
	for (const struct pd_card *c = h->cards; c; c = c->next) {
		fprintf(out, "  card %s", c->desc ? D(c->desc) : "?");
		if (c->has_dsn)
			fprintf(out, " serial %s", D(pd_arena_printf(a,
			    "%016" PRIx64, c->dsn)));
		fprintf(out, ":");
		for (unsigned i = 0; i < c->n_pfs; i++)
			fprintf(out, " %s%s%s%s", D(c->pfs[i]->bdf),
			    c->pfs[i]->netdev ? "=" : "",
			    c->pfs[i]->netdev ? D(c->pfs[i]->netdev->name) : "",
			    c->pfs[i]->root_port ? "" : "(no root port)");
		fprintf(out, "\n");
	}
	for (const struct pd_capture *c = h->captures; c; c = c->next)
		dump_capture(out, a, c);
	for (const struct pd_profile *p = h->profiles; p; p = p->next)
		dump_profile(out, a, p);
	for (const struct pd_workload *w = h->workloads; w; w = w->next)
		dump_workload(out, a, w);
	if (h->n_ksyms)
		fprintf(out, "  kallsyms: %u text symbols from %s\n", h->n_ksyms,
		    D(h->ksyms_member));
	for (const struct pd_elf *e = h->elfs; e; e = e->next)
		fprintf(out, "  elf %s: build id %s, %u symbols (%s)%s\n",
		    D(e->member), e->build_id[0] ? D(e->build_id) : "-",
		    e->n_syms,
		    e->from_symtab ? "symtab" : "dynsym",
		    e->debug_only ? ", debug file" : "");
	for (unsigned i = 0; i < h->softnet.n; i++) {
		const struct pd_softnet_snap *s = &h->softnet.snap[i];
		uint64_t sum[3] = { 0, 0, 0 };
		unsigned n = 0;

		for (unsigned c = 0; c < s->n_cpu; c++) {
			if (!s->cpu[c].seen)
				continue;
			n++;
			sum[0] += s->cpu[c].processed;
			sum[1] += s->cpu[c].dropped;
			sum[2] += s->cpu[c].time_squeeze;
		}
		fprintf(out, "  softnet %s %s", i == 0 ? "first" : "last",
		    D(s->member));
		if (s->time >= 0)
			fprintf(out, " at %" PRId64, s->time);
		fprintf(out, ": %u CPUs, processed %" PRIu64 ", dropped %"
		    PRIu64 ", time_squeeze %" PRIu64 "\n", n, sum[0], sum[1],
		    sum[2]);
	}
	dump_nvme(out, a, h);
	dump_irq_freq(out, a, h);
	for (const struct pd_kv *kv = h->sysctl; kv; kv = kv->next)
		fprintf(out, "  sysctl %s = %s\n", D(kv->key),
		    D(kv->val));
	for (const struct pd_model_note *n = h->notes; n; n = n->next)
		fprintf(out, "  note: %s\n", D(n->msg));
}

void
pd_model_dump(const struct pd_model *m, FILE *out)
{
	fprintf(out, "hosts: %u\n", m->n_hosts);
	for (const struct pd_host *h = m->hosts; h; h = h->next)
		dump_host(out, pd_model_arena(m), h);
}
