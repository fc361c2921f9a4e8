/* JSON report (schema in formats/report.schema.json), built with jansson
 * in a fixed key order. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include "base/version.h"
#include "bundle/bundle.h"
#include "decode/capture.h"
#include "finalize/cardlink.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "report/chart.h"
#include "report/escape.h"
#include "report/json_parts.h"
#include "report/ladder_json.h"

json_t *
pd_json_str_or_null(const char *s)
{
	return s ? pd_json_str(s) : json_null();
}

json_t *
pd_json_evidence(const struct pd_evidence *ev)
{
	json_t *o = json_object();

	json_object_set_new(o, "member", pd_json_str(ev->member));
	json_object_set_new(o, "line", json_integer(ev->line));
	json_object_set_new(o, "text", pd_json_str(ev->text ? ev->text : ""));
	return o;
}

/* The rule's documentation: its URLs, [] when it names none. */
static json_t *
links_json(const struct pd_rule *r)
{
	json_t *a = json_array();

	for (const char *const *l = r->links; l && *l; l++)
		json_array_append_new(a, pd_json_str(*l));
	return a;
}

json_t *
pd_json_finding(const struct pd_finding *f, struct pd_arena *a)
{
	json_t *o = json_object(), *gain = json_object(), *risk = json_object();
	json_t *fix = json_array(), *ev = json_array();

	json_object_set_new(o, "rule", pd_json_str(f->rule->id));
	json_object_set_new(o, "title", pd_json_str(f->rule->title));
	json_object_set_new(o, "host", pd_json_str(f->host->name));
	json_object_set_new(o, "subject", pd_json_str(f->subject));
	json_object_set_new(o, "summary", pd_json_str(f->summary));
	json_object_set_new(o, "level",
	    pd_json_str(pd_level_name(pd_finding_level(f))));
	json_object_set_new(o, "confidence", json_integer(f->confidence));
	json_object_set_new(o, "confidence_note",
	    pd_json_str_or_null(f->confidence_note));
	json_object_set_new(gain, "low_pct", json_real(f->gain_lo / 10.0));
	json_object_set_new(gain, "high_pct", json_real(f->gain_hi / 10.0));
	json_object_set_new(gain, "basis", pd_json_str(f->gain_basis));
	json_object_set_new(o, "gain", gain);
	json_object_set_new(o, "ladder_step", f->ladder_step ?
	    json_integer(f->ladder_step) : json_null());
	json_object_set_new(risk, "level", pd_json_str(pd_risk_name(f->risk)));
	json_object_set_new(risk, "note", pd_json_str(f->risk_note));
	json_object_set_new(o, "risk", risk);
	for (unsigned i = 0; i < f->n_fix; i++)
		json_array_append_new(fix, pd_json_str(f->fix[i]));
	json_object_set_new(o, "fix", fix);
	json_object_set_new(o, "verify", pd_json_str_or_null(f->verify));
	json_object_set_new(o, "chart", pd_json_str_or_null(pd_chart_draw(a,
	    f->chart)));
	for (unsigned i = 0; i < f->n_ev; i++)
		json_array_append_new(ev, pd_json_evidence(&f->ev[i]));
	json_object_set_new(o, "evidence", ev);
	json_object_set_new(o, "links", links_json(f->rule));
	return o;
}

static json_t *
member(const struct pd_member_result *mr)
{
	json_t *o = json_object(), *notes = json_array();

	json_object_set_new(o, "path", pd_json_str(mr->path));
	json_object_set_new(o, "format", pd_json_str(mr->format));
	json_object_set_new(o, "status",
	    pd_json_str(pd_status_name(mr->diag.worst)));
	for (const struct pd_note *n = mr->diag.notes; n; n = n->next) {
		json_t *j = json_object();

		json_object_set_new(j, "level",
		    pd_json_str(pd_status_name(n->level)));
		json_object_set_new(j, "id", pd_json_str(n->id));
		json_object_set_new(j, "line", json_integer(n->line));
		json_object_set_new(j, "message", pd_json_str(n->msg));
		json_array_append_new(notes, j);
	}
	json_object_set_new(o, "notes", notes);
	return o;
}

static json_t *
tri_json(enum pd_tri t)
{
	return t == PD_UNKNOWN ? json_null() : json_boolean(t == PD_YES);
}

static json_t *
card(const struct pd_card *c)
{
	json_t *o = json_object(), *pfs = json_array();
	char serial[24];

	snprintf(serial, sizeof(serial), "%016llx", (unsigned long long)c->dsn);
	json_object_set_new(o, "description", pd_json_str_or_null(c->desc));
	json_object_set_new(o, "serial", c->has_dsn ? pd_json_str(serial) :
	    json_null());
	for (unsigned i = 0; i < c->n_pfs; i++) {
		struct pd_pf_path p = c->pfs[i]->path;
		json_t *j = json_object();
		char link[16];

		pd_link_name(link, sizeof(link), p.mts, p.width);
		json_object_set_new(j, "pf", pd_json_str(p.pf->bdf));
		json_object_set_new(j, "netdev", p.nd ? pd_json_str(p.nd->name) :
		    json_null());
		json_object_set_new(j, "root_port", p.root ?
		    pd_json_str(p.root->bdf) : json_null());
		json_object_set_new(j, "link", pd_json_str(link));
		json_object_set_new(j, "link_ceiling_gbs",
		    json_real(round(p.ceiling_gbs * 100) / 100));
		json_object_set_new(j, "port_speed_mbps", p.nd &&
		    p.nd->speed_mbps >= 0 ? json_integer(p.nd->speed_mbps) :
		    json_null());
		json_object_set_new(j, "rx_bytes_per_s", p.rx_known &&
		    p.rx_is_rate ? json_integer((json_int_t)llround(p.rx)) :
		    json_null());
		json_object_set_new(j, "rx_bytes_total", p.nd &&
		    p.nd->ctr[PD_CTR_RX_BYTES].known ? json_integer((json_int_t)
		    p.nd->ctr[PD_CTR_RX_BYTES].total) : json_null());
		const struct pd_feature *lro = p.nd ? pd_netdev_feature(p.nd,
		    "large-receive-offload") : NULL;

		json_object_set_new(j, "lro", lro ? tri_json(lro->on) :
		    json_null());
		json_object_set_new(j, "pause_rx", p.nd ?
		    tri_json(p.nd->pause_rx) : json_null());
		json_object_set_new(j, "pause_tx", p.nd ?
		    tri_json(p.nd->pause_tx) : json_null());
		json_array_append_new(pfs, j);
	}
	json_object_set_new(o, "pfs", pfs);
	return o;
}

#define PD_JSON_SYMBOLS 30	/* hottest symbols by self share */

json_t *
pd_json_sizes(const struct pd_size_count *v, unsigned n)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < n; i++) {
		json_t *j = json_object();

		json_object_set_new(j, "bytes", json_integer(v[i].bytes));
		json_object_set_new(j, "count", json_integer((json_int_t)
		    v[i].count));
		json_array_append_new(a, j);
	}
	return a;
}

static json_t *
capture(const struct pd_host *h, const struct pd_capture *c)
{
	static const char *const sides[] = { "unknown", "virtual", "physical" };
	json_t *o = json_object(), *flows = json_array(), *stalls = json_array();
	char key[128];

	json_object_set_new(o, "member", pd_json_str(c->member));
	json_object_set_new(o, "interface", pd_json_str(c->ifname));
	json_object_set_new(o, "host", pd_json_str(h->name));
	json_object_set_new(o, "side", pd_json_str(sides[c->side]));
	json_object_set_new(o, "linktype", json_integer(c->linktype));
	json_object_set_new(o, "truncated", json_boolean(c->truncated));
	json_object_set_new(o, "packets", json_integer((json_int_t)c->packets));
	if (c->filter) {	/* only with --filter: else as before */
		json_object_set_new(o, "filter", pd_json_str(c->filter));
		json_object_set_new(o, "packets_read",
		    json_integer((json_int_t)c->packets_read));
	}
	json_object_set_new(o, "tcp_segments",
	    json_integer((json_int_t)c->tcp_segments));
	json_object_set_new(o, "tcp_payload_bytes",
	    json_integer((json_int_t)c->tcp_payload_bytes));
	json_object_set_new(o, "retransmissions",
	    json_integer((json_int_t)c->retrans_segs));
	json_object_set_new(o, "retransmitted_bytes",
	    json_integer((json_int_t)c->retrans_bytes));
	json_object_set_new(o, "capture_duplicates",
	    json_integer((json_int_t)c->dup_segs));
	json_object_set_new(o, "out_of_order",
	    json_integer((json_int_t)c->ooo_segs));
	json_object_set_new(o, "unseen_segments",
	    json_integer((json_int_t)c->unseen_segs));
	json_object_set_new(o, "super_packets",
	    json_integer((json_int_t)c->super_segs));
	json_object_set_new(o, "duration_s",
	    json_real(round(c->duration * 1e6) / 1e6));
	json_object_set_new(o, "stall_time_s",
	    json_real(round(c->stall_time * 1e6) / 1e6));
	for (unsigned i = 0; i < c->n_stalls; i++)
		json_array_append_new(stalls,
		    json_real(round(c->stalls[i].gap * 1e6) / 1e6));
	json_object_set_new(o, "longest_stalls_s", stalls);
	json_object_set_new(o, "payload_sizes", pd_json_sizes(c->sizes.top,
	    c->sizes.n));
	json_object_set_new(o, "payload_sizes_other",
	    json_integer((json_int_t)c->sizes.other));
	for (unsigned i = 0; i < c->n_flows; i++) {
		const struct pd_flow *f = &c->flows[i];
		json_t *j = json_object();
		int d = f->dir[1].bytes > f->dir[0].bytes;

		pd_flow_key_fmt(key, sizeof(key), &f->key);
		json_object_set_new(j, "flow", pd_json_str(key));
		json_object_set_new(j, "data_direction", pd_json_str(d ?
		    "b->a" : "a->b"));
		json_object_set_new(j, "bytes",
		    json_integer((json_int_t)f->dir[d].bytes));
		json_object_set_new(j, "segments",
		    json_integer((json_int_t)f->dir[d].segs));
		json_object_set_new(j, "retransmissions",
		    json_integer((json_int_t)f->dir[d].retrans_segs));
		json_object_set_new(j, "max_payload",
		    json_integer(f->dir[d].max_payload));
		json_object_set_new(j, "payload_sizes",
		    pd_json_sizes(f->dir[d].sizes, f->dir[d].n_sizes));
		json_array_append_new(flows, j);
	}
	json_object_set_new(o, "flows", flows);
	return o;
}

/* "netdev_queues": ethtool -g and -l of each interface that has either,
 * each block's values (null when unknown), or ethtool's reason for none.
 * A host without any has no such key, so other reports keep their bytes. */
static void
netdev_queues(json_t *host, const struct pd_host *h)
{
	json_t *arr = json_array();

	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		json_t *part[2] = { json_null(), json_null() }, *j, *o;
		struct pd_queue_block q;

		for (unsigned b = 0; b < PD_QUEUE_BLOCKS; b++) {
			pd_netdev_queue_block(nd, b, &q);
			if (!q.ev)
				continue;
			if (!q.current)
				part[b / 2] = json_object();
			o = q.error ? json_null() : json_object();
			for (unsigned i = 0; !q.error && i < q.n; i++)
				json_object_set_new(o, q.names[i], q.v[i] >= 0 ?
				    json_integer(q.v[i]) : json_null());
			json_object_set_new(part[b / 2], q.current ? "current" :
			    "max", o);
			for (unsigned i = 0; i < q.n_flags; i++)
				json_object_set_new(part[b / 2], q.flag_names[i],
				    tri_json(q.flag[i]));
			if (q.current)
				json_object_set_new(part[b / 2], "error",
				    pd_json_str_or_null(q.error));
		}
		if (json_is_null(part[0]) && json_is_null(part[1]))
			continue;
		j = json_object();
		json_object_set_new(j, "name", pd_json_str(nd->name));
		json_object_set_new(j, "rings", part[0]);
		json_object_set_new(j, "channels", part[1]);
		json_array_append_new(arr, j);
	}
	if (json_array_size(arr))
		json_object_set_new(host, "netdev_queues", arr);
	else
		json_decref(arr);
}

static json_t *
host(const struct pd_host *h)
{
	json_t *o = json_object(), *io = json_object(), *types = json_array();

	json_object_set_new(o, "name", pd_json_str(h->name));
	json_object_set_new(o, "path", pd_json_str(h->key));
	json_object_set_new(o, "arch", pd_json_str(pd_arch_name(h->arch)));
	json_object_set_new(o, "kernel", pd_json_str_or_null(h->kernel_release));
	json_object_set_new(o, "cpus", json_integer(h->n_cpus));
	for (const struct pd_cpu_type *t = h->cpu_types; t; t = t->next) {
		json_t *j = json_object();

		json_object_set_new(j, "name", pd_json_str(t->name));
		json_object_set_new(j, "count", json_integer(t->count));
		json_array_append_new(types, j);
	}
	json_object_set_new(o, "cpu_types", types);
	json_object_set_new(o, "cmdline", pd_json_str_or_null(h->cmdline));
	json_object_set_new(io, "mode",
	    pd_json_str(pd_iommu_mode_name(h->iommu.mode)));
	json_object_set_new(io, "reason", pd_json_str_or_null(h->iommu.reason));
	json_object_set_new(o, "iommu", io);
	json_object_set_new(o, "pci_devices", json_integer(h->n_pcidevs));
	json_object_set_new(o, "netdevs", json_integer(h->n_netdevs));
	pd_json_host_facts(o, h);
	json_t *rates = json_array();

	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next) {
		const struct pd_kstat_rate *k = &nd->kstat_rate;
		json_t *j;

		if (!k->known)
			continue;
		j = json_object();
		json_object_set_new(j, "name", pd_json_str(nd->name));
		json_object_set_new(j, "rx_bytes_per_s",
		    json_real(round(k->rx_per_s)));
		json_object_set_new(j, "tx_bytes_per_s",
		    json_real(round(k->tx_per_s)));
		json_object_set_new(j, "seconds", json_real(k->seconds));
		json_array_append_new(rates, j);
	}
	json_object_set_new(o, "kernel_counter_rates", rates);
	netdev_queues(o, h);
	pd_json_stack_counters(o, h);
	json_object_set_new(o, "collector", pd_json_str_or_null(h->collector));
	if (h->workload_run) {	/* only then, as "workloads" */
		const struct pd_workload_run *w = h->workload_run;
		json_t *j = json_object();

		json_object_set_new(j, "command", pd_json_str(w->command));
		json_object_set_new(j, "exit", w->stopped ? json_null() :
		    json_integer(w->exit));
		json_object_set_new(j, "stopped", json_boolean(w->stopped));
		json_object_set_new(j, "seconds", json_integer(w->seconds));
		json_object_set_new(o, "workload_run", j);
	}
	json_t *cs = json_array(), *notes = json_array();

	for (const struct pd_card *c = h->cards; c; c = c->next)
		json_array_append_new(cs, card(c));
	json_object_set_new(o, "cards", cs);
	for (const struct pd_model_note *n = h->notes; n; n = n->next)
		json_array_append_new(notes, pd_json_str(n->msg));
	json_object_set_new(o, "notes", notes);
	return o;
}

static double
pct(double part, double whole)
{
	return whole > 0 ? round(part / whole * 1e6) / 1e4 : 0;
}

/* One core type of a profile: its share and its top symbols. */
static json_t *
group(const struct pd_profile *p, unsigned g)
{
	const struct pd_prof_group *pg = &p->groups[g];
	json_t *j = json_object();

	json_object_set_new(j, "name", pd_json_str(pg->name));
	json_object_set_new(j, "cpus", json_integer(pg->n_cpus));
	json_object_set_new(j, "share_pct", json_real(pct(pg->total,
	    p->period)));
	json_object_set_new(j, "idle_pct", json_real(pct(pg->idle,
	    pg->total)));
	for (int incl = 0; incl < 2; incl++) {
		const unsigned *top = p->top[g][incl];
		unsigned n = p->n_top[g][incl];
		json_t *arr = json_array();

		for (unsigned k = 0; k < n; k++) {
			json_t *e = json_object();

			json_object_set_new(e, "name",
			    pd_json_str(p->syms[top[k]].name));
			json_object_set_new(e, "dso",
			    pd_json_str(p->syms[top[k]].dso));
			json_object_set_new(e, "busy_pct", json_real(pct(
			    pd_prof_sym_group(p, incl, top[k], g),
			    pg->total - pg->idle)));
			json_array_append_new(arr, e);
		}
		json_object_set_new(j, incl ? "top_inclusive" :
		    "top_self", arr);
	}
	return j;
}

static json_t *
profile(const struct pd_host *h, const struct pd_profile *p)
{
	json_t *o = json_object(), *syms = json_array(), *gs = json_array();

	json_object_set_new(o, "member", pd_json_str(p->member));
	json_object_set_new(o, "host", pd_json_str(h->name));
	json_object_set_new(o, "reader", pd_json_str(p->reader));
	json_object_set_new(o, "event", p->event ? pd_json_str(p->event) :
	    json_null());
	json_object_set_new(o, "samples", json_integer((json_int_t)p->samples));
	json_object_set_new(o, "lost", json_integer((json_int_t)p->lost));
	json_object_set_new(o, "callchains", json_boolean(p->has_callchain));
	json_object_set_new(o, "symbols_from", pd_json_str(p->symbols ?
	    p->symbols : "none"));
	for (unsigned g = 0; g < p->n_groups; g++)
		json_array_append_new(gs, group(p, g));
	json_object_set_new(o, "groups", gs);
	json_t *cpus = json_array();

	for (unsigned c = 0; c < p->n_cpu_slots; c++) {
		json_t *j;

		if (!p->cpu_total[c])
			continue;
		j = json_object();
		json_object_set_new(j, "cpu", json_integer(c));
		json_object_set_new(j, "type", h->cpu_type_of &&
		    h->cpu_type_of[c] ? pd_json_str(h->cpu_type_of[c]) :
		    json_null());
		json_object_set_new(j, "share_pct", json_real(pct(
		    p->cpu_total[c], p->period)));
		json_object_set_new(j, "idle_pct", json_real(pct(p->cpu_idle[c],
		    p->cpu_total[c])));
		json_array_append_new(cpus, j);
	}
	json_object_set_new(o, "cpus", cpus);
	for (unsigned i = 0; i < p->n_syms && i < PD_JSON_SYMBOLS; i++) {
		const struct pd_prof_sym *s = &p->syms[i];
		json_t *j = json_object();

		json_object_set_new(j, "name", pd_json_str(s->name));
		json_object_set_new(j, "dso", pd_json_str(s->dso));
		json_object_set_new(j, "self_pct", json_real(pct(s->self,
		    p->period)));
		json_object_set_new(j, "inclusive_pct", p->has_callchain ?
		    json_real(pct(s->inclusive, p->period)) : json_null());
		json_object_set_new(j, "samples", json_integer((json_int_t)
		    s->samples));
		json_array_append_new(syms, j);
	}
	json_object_set_new(o, "symbols", syms);
	return o;
}

/* A number, or null for the model's unknown (-1). */
static json_t *
num_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static json_t *
int_or_null(int64_t v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *
wl_side(const struct pd_wl_side *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "bytes", int_or_null(s->bytes));
	json_object_set_new(o, "bytes_per_s", num_or_null(s->bytes_per_s));
	json_object_set_new(o, "iops", num_or_null(s->iops));
	json_object_set_new(o, "clat_mean_us", num_or_null(s->lat_mean_us));
	json_object_set_new(o, "clat_p50_us", num_or_null(s->lat_p50_us));
	json_object_set_new(o, "clat_p99_us", num_or_null(s->lat_p99_us));
	json_object_set_new(o, "clat_p99_9_us", num_or_null(s->lat_p999_us));
	return o;
}

/* iperf3's sides; null for a storage job */
static json_t *
wl_net(const struct pd_wl_net *n)
{
	json_t *o;

	if (!n->role && n->streams < 0 && n->sent_bytes < 0 &&
	    n->recv_bytes < 0)
		return json_null();
	o = json_object();
	json_object_set_new(o, "role", pd_json_str_or_null(n->role));
	json_object_set_new(o, "reverse", n->reverse == PD_UNKNOWN ?
	    json_null() : json_boolean(n->reverse == PD_YES));
	json_object_set_new(o, "streams", int_or_null(n->streams));
	json_object_set_new(o, "sent_bytes", int_or_null(n->sent_bytes));
	json_object_set_new(o, "sent_bytes_per_s",
	    num_or_null(n->sent_bytes_per_s));
	json_object_set_new(o, "received_bytes", int_or_null(n->recv_bytes));
	json_object_set_new(o, "received_bytes_per_s",
	    num_or_null(n->recv_bytes_per_s));
	json_object_set_new(o, "retransmits", int_or_null(n->retransmits));
	return o;
}

static json_t *
wl_job(const struct pd_wl_job *j)
{
	json_t *o = json_object(), *op = json_object();

	json_object_set_new(o, "name", pd_json_str(j->name));
	json_object_set_new(o, "groupid", int_or_null(j->groupid));
	json_object_set_new(o, "group_reporting",
	    json_boolean(j->group_reporting));
	json_object_set_new(o, "seconds", num_or_null(j->seconds));
	json_object_set_new(o, "read", wl_side(&j->rd));
	json_object_set_new(o, "write", wl_side(&j->wr));
	json_object_set_new(op, "rw", pd_json_str_or_null(j->rw));
	json_object_set_new(op, "bs", pd_json_str_or_null(j->bs));
	json_object_set_new(op, "iodepth", int_or_null(j->iodepth));
	json_object_set_new(op, "numjobs", int_or_null(j->numjobs));
	json_object_set_new(op, "ioengine", pd_json_str_or_null(j->ioengine));
	json_object_set_new(op, "filename", pd_json_str_or_null(j->filename));
	json_object_set_new(op, "devices", int_or_null(j->n_devices));
	json_object_set_new(o, "options", op);
	json_object_set_new(o, "net", wl_net(&j->net));
	json_object_set_new(o, "evidence", j->ev.member ? pd_json_evidence(&j->ev) :
	    json_null());
	return o;
}

/* One workload output. */
static json_t *
workload(const struct pd_host *h, const struct pd_workload *w)
{
	json_t *o = json_object(), *jobs = json_array();

	json_object_set_new(o, "host", pd_json_str(h->name));
	json_object_set_new(o, "member", pd_json_str(w->member));
	json_object_set_new(o, "tool", pd_json_str(w->tool));
	json_object_set_new(o, "version", pd_json_str_or_null(w->version));
	for (const struct pd_wl_job *j = w->jobs; j; j = j->next)
		json_array_append_new(jobs, wl_job(j));
	json_object_set_new(o, "jobs", jobs);
	json_object_set_new(o, "total", w->total ? wl_job(w->total) :
	    json_null());
	json_object_set_new(o, "errors", json_integer(w->n_errors));
	json_object_set_new(o, "first_error", w->first_error.member ?
	    pd_json_evidence(&w->first_error) : json_null());
	return o;
}

/* "workloads" only when a host has one, so that the reports of bundles
 * without workload output stay as they were. */
static void
workloads(json_t *root, const struct pd_model *m)
{
	json_t *ws = json_array();

	for (const struct pd_host *h = m->hosts; h; h = h->next)
		for (const struct pd_workload *w = h->workloads; w; w = w->next)
			json_array_append_new(ws, workload(h, w));
	if (json_array_size(ws))
		json_object_set_new(root, "workloads", ws);
	else
		json_decref(ws);
}

/* jansson escapes C0 controls but leaves DEL raw, as JSON allows; a
 * report from a stranger's bundle carries no raw control byte at all,
 * so DEL, which can only stand inside a string, is written \u007f. */
static int
dump_escaping_del(const char *buf, size_t n, void *ctx)
{
	FILE *out = ctx;
	size_t from = 0;

	for (size_t i = 0; i < n; i++)
		if (buf[i] == 0x7f) {
			fwrite(buf + from, 1, i - from, out);
			fputs("\\u007f", out);
			from = i + 1;
		}
	fwrite(buf + from, 1, n - from, out);
	return ferror(out) ? -1 : 0;
}

/* --min-level: the level and how many findings it left out; null
 * without the option. */
static json_t *
hidden_json(const struct pd_report *r)
{
	json_t *o;

	if (!r->min_level)
		return json_null();
	o = json_object();
	json_object_set_new(o, "level", pd_json_str(r->min_level));
	json_object_set_new(o, "count", json_integer(r->n_hidden));
	return o;
}

json_t *
pd_json_report(const struct pd_report *r)
{
	json_t *root = json_object(), *fs = json_array(), *ne = json_array();
	json_t *ms = json_array(), *hs = json_array(), *bn = json_array();

	json_object_set_new(root, "schema", json_integer(PD_JSON_SCHEMA));
	json_object_set_new(root, "generator",
	    pd_json_str("pathdoctor " PD_VERSION));
	json_object_set_new(root, "bundle", pd_json_str(r->bundle));
	json_object_set_new(root, "nothing_read", r->nothing_read ?
	    pd_json_str(r->nothing_read) : json_null());
	for (size_t i = 0; i < r->findings->n; i++)
		json_array_append_new(fs, pd_json_finding(r->findings->v[i],
		    pd_model_arena(r->model)));
	json_object_set_new(root, "findings", fs);
	json_object_set_new(root, "hidden_below_level", hidden_json(r));
	json_object_set_new(root, "ladders", pd_ladders_json(r->ladders));
	json_object_set_new(root, "ladders_missing",
	    pd_ladder_gaps_json(r->ladder_gaps));
	for (const struct pd_not_evaluated *n = r->not_evaluated; n;
	    n = n->next) {
		json_t *o = json_object(), *needs = json_array();

		json_object_set_new(o, "rule", pd_json_str(n->rule->id));
		json_object_set_new(o, "host", pd_json_str(n->host->name));
		for (unsigned k = 0; k < n->n_needs; k++)
			json_array_append_new(needs, pd_json_str(n->needs[k]));
		json_object_set_new(o, "needs", needs);
		json_t *gaps = json_array();

		for (unsigned k = 0; k < n->n_gaps; k++) {
			json_t *j = json_object();

			json_object_set_new(j, "format",
			    pd_json_str(n->gaps[k]->format));
			json_object_set_new(j, "path",
			    pd_json_str(n->gaps[k]->path));
			json_object_set_new(j, "reason",
			    pd_json_str(n->gaps[k]->reason));
			json_array_append_new(gaps, j);
		}
		json_object_set_new(o, "collector_gaps", gaps);
		json_array_append_new(ne, o);
	}
	json_object_set_new(root, "not_evaluated", ne);
	json_t *na = json_array();

	for (const struct pd_not_evaluated *n = r->not_applicable; n;
	    n = n->next) {
		json_t *o = json_object();

		json_object_set_new(o, "rule", pd_json_str(n->rule->id));
		json_object_set_new(o, "host", pd_json_str(n->host->name));
		json_object_set_new(o, "why", pd_json_str(n->inapplicable));
		json_array_append_new(na, o);
	}
	json_object_set_new(root, "not_applicable", na);
	json_t *un = json_array();

	for (const struct pd_unused_view *v = r->unused; v; v = v->next) {
		json_t *o = json_object();

		json_object_set_new(o, "host", pd_json_str(v->host->name));
		json_object_set_new(o, "member", pd_json_str(v->u->member));
		json_object_set_new(o, "format", pd_json_str(v->u->format));
		json_object_set_new(o, "reason", pd_json_str(v->u->reason));
		json_object_set_new(o, "rules", pd_json_str(v->rules));
		json_array_append_new(un, o);
	}
	json_object_set_new(root, "unused_members", un);
	for (const struct pd_member_result *m = r->coverage->members; m;
	    m = m->next)
		json_array_append_new(ms, member(m));
	json_object_set_new(root, "members", ms);
	for (const struct pd_note *n = r->coverage->bundle.notes; n;
	    n = n->next)
		json_array_append_new(bn, pd_json_str(n->msg));
	json_object_set_new(root, "bundle_notes", bn);
	for (const struct pd_host *h = r->model->hosts; h; h = h->next)
		json_array_append_new(hs, host(h));
	json_object_set_new(root, "hosts", hs);
	json_t *caps = json_array();

	for (const struct pd_host *h = r->model->hosts; h; h = h->next)
		for (const struct pd_capture *c = h->captures; c; c = c->next)
			json_array_append_new(caps, capture(h, c));
	json_object_set_new(root, "captures", caps);
	json_t *profs = json_array();

	for (const struct pd_host *h = r->model->hosts; h; h = h->next)
		for (const struct pd_profile *p = h->profiles; p; p = p->next)
			json_array_append_new(profs, profile(h, p));
	json_object_set_new(root, "profiles", profs);
	workloads(root, r->model);
	return root;
}

static int
render_json(const struct pd_report *r, FILE *out)
{
	return pd_json_write(pd_json_report(r), out);
}

static int
json_write_flags(json_t *root, FILE *out, size_t flags)
{
	int rc = json_dump_callback(root, dump_escaping_del, out,
	    flags | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));

	fputc('\n', out);
	json_decref(root);
	return rc == 0 && !ferror(out) ? 0 : -1;
}

int
pd_json_write(json_t *root, FILE *out)
{
	return json_write_flags(root, out, JSON_INDENT(2));
}

int
pd_json_write_line(json_t *root, FILE *out)
{
	return json_write_flags(root, out, JSON_COMPACT);
}

const struct pd_renderer pd_render_json = { .name = "json",
	.render = render_json };
