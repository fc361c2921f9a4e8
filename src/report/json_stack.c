/* The host's network-stack counters and NVMe paths in the JSON report:
 * the per-CPU
 * receive backlog (/proc/net/softnet_stat) and TCP's sent and
 * retransmitted segments (/proc/net/snmp, nstat), as the rules read
 * them, so a machine reading the report sees the numbers behind
 * net.softnet and tcp.retrans-rate whether or not they fired.  A host
 * without such snapshots has neither key, so other reports keep their
 * bytes. */
#include <math.h>
#include "report/json_parts.h"

/* Rates need two snapshots whose times say which came first. */
static double
span_seconds(int64_t first, int64_t last)
{
	return first >= 0 && last > first ? (double)(last - first) : 0;
}

/* The kernel prints softnet's counters as 32-bit values: a difference
 * is taken modulo 2^32, as net.softnet does. */
static json_t *
rate32(uint32_t a, uint32_t b, double secs)
{
	return secs > 0 ? json_real(round((double)(uint32_t)(b - a) / secs *
	    100) / 100) : json_null();
}

static json_t *
softnet_cpu(unsigned c, const struct pd_softnet_cpu *x,
    const struct pd_softnet_cpu *y, double secs)
{
	json_t *j = json_object();

	json_object_set_new(j, "cpu", json_integer(c));
	json_object_set_new(j, "processed", json_integer(y->processed));
	json_object_set_new(j, "dropped", json_integer(y->dropped));
	json_object_set_new(j, "time_squeeze", json_integer(y->time_squeeze));
	json_object_set_new(j, "processed_per_s",
	    x ? rate32(x->processed, y->processed, secs) : json_null());
	json_object_set_new(j, "dropped_per_s",
	    x ? rate32(x->dropped, y->dropped, secs) : json_null());
	json_object_set_new(j, "time_squeeze_per_s",
	    x ? rate32(x->time_squeeze, y->time_squeeze, secs) : json_null());
	return j;
}

static void
softnet(json_t *host, const struct pd_host *h)
{
	const struct pd_softnet *s = &h->softnet;

	if (s->n == 0 || !s->snap[s->n - 1].cpu)
		return;
	const struct pd_softnet_snap *a = &s->snap[0], *b = &s->snap[s->n - 1];
	double secs = s->n == 2 ? span_seconds(a->time, b->time) : 0;
	json_t *o = json_object(), *cpus = json_array();

	json_object_set_new(o, "snapshots", json_integer(s->n));
	json_object_set_new(o, "first", pd_json_str_or_null(a->member));
	json_object_set_new(o, "last", pd_json_str_or_null(b->member));
	json_object_set_new(o, "seconds", secs > 0 ? json_real(secs) :
	    json_null());
	for (unsigned c = 0; c < b->n_cpu; c++) {
		const struct pd_softnet_cpu *y = &b->cpu[c];
		const struct pd_softnet_cpu *x = secs > 0 && a->cpu &&
		    c < a->n_cpu && a->cpu[c].seen ? &a->cpu[c] : NULL;

		if (y->seen)
			json_array_append_new(cpus, softnet_cpu(c, x, y, secs));
	}
	json_object_set_new(o, "cpus", cpus);
	json_object_set_new(host, "softnet", o);
}

/* A since-boot total's rate; null when the counter went backwards (a
 * reboot between the snapshots) or either side lacks it. */
static json_t *
rate64(bool known, uint64_t a, uint64_t b, double secs)
{
	return known && secs > 0 && b >= a ?
	    json_real(round((double)(b - a) / secs * 100) / 100) : json_null();
}

static void
tcp_counters(json_t *host, const struct pd_host *h)
{
	if (h->n_tcpstat == 0)
		return;
	const struct pd_tcpstat *a = &h->tcpstat[0],
	    *b = &h->tcpstat[h->n_tcpstat - 1];
	double secs = h->n_tcpstat == 2 ? span_seconds(a->time, b->time) : 0;
	bool out = a->has_out && b->has_out, re = a->has_retrans &&
	    b->has_retrans;
	json_t *o = json_object(), *pct = json_null();

	json_object_set_new(o, "snapshots", json_integer(h->n_tcpstat));
	json_object_set_new(o, "first", pd_json_str_or_null(a->member));
	json_object_set_new(o, "last", pd_json_str_or_null(b->member));
	json_object_set_new(o, "seconds", secs > 0 ? json_real(secs) :
	    json_null());
	json_object_set_new(o, "out_segs", b->has_out ?
	    json_integer((json_int_t)b->out_segs) : json_null());
	json_object_set_new(o, "retrans_segs", b->has_retrans ?
	    json_integer((json_int_t)b->retrans_segs) : json_null());
	json_object_set_new(o, "out_segs_per_s",
	    rate64(out, a->out_segs, b->out_segs, secs));
	json_object_set_new(o, "retrans_segs_per_s",
	    rate64(re, a->retrans_segs, b->retrans_segs, secs));
	/* the share tcp.retrans-rate compares with its 1 % */
	if (out && re && secs > 0 && b->out_segs > a->out_segs &&
	    b->retrans_segs >= a->retrans_segs)
		pct = json_real(round((double)(b->retrans_segs -
		    a->retrans_segs) / (double)(b->out_segs - a->out_segs) *
		    1e6) / 1e4);
	json_object_set_new(o, "retrans_pct", pct);
	json_object_set_new(host, "tcp_counters", o);
}

static json_t *
nvme_path(const struct pd_nvme_path *p)
{
	json_t *j = json_object();

	json_object_set_new(j, "controller", pd_json_str_or_null(p->ctrl));
	json_object_set_new(j, "transport", pd_json_str_or_null(p->transport));
	json_object_set_new(j, "traddr", pd_json_str_or_null(p->traddr));
	json_object_set_new(j, "trsvcid", pd_json_str_or_null(p->trsvcid));
	json_object_set_new(j, "host_traddr",
	    pd_json_str_or_null(p->host_traddr ? p->host_traddr : p->src_addr));
	json_object_set_new(j, "host_iface", pd_json_str_or_null(p->host_iface));
	json_object_set_new(j, "state", pd_json_str_or_null(p->state));
	json_object_set_new(j, "ana", pd_json_str_or_null(p->ana));
	json_object_set_new(j, "netdev", pd_json_str_or_null(p->nd ?
	    p->nd->name : NULL));
	json_object_set_new(j, "joined_by", pd_json_str_or_null(
	    pd_nvme_join_name(p->join)));
	return j;
}

/* "nvme_subsystems": nvme list-subsys with the iopolicy the kernel
 * uses, each path with the interface finalize joined it to (and how),
 * which nvme.multipath-iopolicy and nvme.paths-per-pf read. */
static void
nvme(json_t *host, const struct pd_host *h)
{
	json_t *arr;

	if (!h->nvme)
		return;
	arr = json_array();
	for (const struct pd_nvme_subsys *s = h->nvme; s; s = s->next) {
		json_t *j = json_object(), *paths = json_array();

		json_object_set_new(j, "name", pd_json_str_or_null(s->name));
		json_object_set_new(j, "nqn", pd_json_str_or_null(s->nqn));
		json_object_set_new(j, "iopolicy",
		    pd_json_str_or_null(s->iopolicy));
		for (const struct pd_nvme_path *p = s->paths; p; p = p->next)
			json_array_append_new(paths, nvme_path(p));
		json_object_set_new(j, "paths", paths);
		json_array_append_new(arr, j);
	}
	json_object_set_new(host, "nvme_subsystems", arr);
}

void
pd_json_stack_counters(json_t *host, const struct pd_host *h)
{
	softnet(host, h);
	tcp_counters(host, h);
	nvme(host, h);
}
