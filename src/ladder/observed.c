/* The observed throughput of a path and its direction: from the
 * workload's own output where the bundle has one (on the host, or on a
 * guest whose traffic the host carries), else from the card's counter
 * rates, else from the captures through it. */
#include <string.h>
#include "finalize/cardlink.h"
#include "ladder/path.h"
#include "pathdoctor/arena.h"

#define MIN_OBSERVED 1e6	/* bytes/s: less is no traffic to model */

/* The workload figure: fio and spdk_nvme_perf read or write bandwidth
 * (the larger), iperf3 what the receiver counted. */
static bool
from_job(struct path *p, const struct pd_workload *w,
    const struct pd_wl_job *j, const char *whose)
{
	double rd = j->rd.bytes_per_s, wr = j->wr.bytes_per_s;
	const struct pd_wl_net *n = &j->net;

	if (strcmp(w->tool, "iperf3") == 0) {
		double v = n->recv_bytes_per_s > 0 ? n->recv_bytes_per_s :
		    n->sent_bytes_per_s;
		bool sends = (n->role && strcmp(n->role, "client") == 0) ==
		    (n->reverse != PD_YES);

		if (v < MIN_OBSERVED)
			return false;
		p->observed = v / 1e9;
		p->dir = sends ? PD_LADDER_TRANSMIT : PD_LADDER_RECEIVE;
		p->what = pd_arena_printf(p->a, "%s TCP throughput%s, as the "
		    "receiver counted it", sends ? "sent" : "received", whose);
	} else {
		if (rd < MIN_OBSERVED && wr < MIN_OBSERVED)
			return false;
		/* an initiator's reads arrive through its NIC */
		p->dir = rd >= wr ? PD_LADDER_RECEIVE : PD_LADDER_TRANSMIT;
		p->observed = (rd >= wr ? rd : wr) / 1e9;
		p->what = pd_arena_printf(p->a, "%s bandwidth%s%s",
		    rd >= wr ? "read" : "write", w->total != j ? "" :
		    strcmp(w->tool, "spdk_nvme_perf") == 0 ? " on its Total "
		    "line" : w->n_jobs > 1 ? " of every job together" : "",
		    whose);
	}
	p->source = w->tool;
	p->ev = j->ev.member ? j->ev : (struct pd_evidence){ w->member, 0,
		NULL };
	return true;
}

static bool
from_workloads(struct path *p, const struct pd_host *h, const char *whose)
{
	for (const struct pd_workload *w = h->workloads; w; w = w->next) {
		const struct pd_wl_job *j = w->total ? w->total : w->jobs;

		if (j && from_job(p, w, j, whose))
			return true;
	}
	return false;
}

/* A guest of h: another host of the bundle with a virtio NIC, when h
 * has a tap or bridge to carry it. */
static bool
carries_guests(const struct pd_host *h)
{
	for (const struct pd_netdev *nd = h->netdevs; nd; nd = nd->next)
		if (nd->kind && (strcmp(nd->kind, "tun") == 0 ||
		    strcmp(nd->kind, "bridge") == 0))
			return true;
	return false;
}

static bool
from_guests(struct path *p)
{
	if (!carries_guests(p->h))
		return false;
	for (const struct pd_host *g = p->h->model->hosts; g; g = g->next) {
		bool virtio = false;

		for (const struct pd_netdev *nd = g->netdevs; nd; nd = nd->next)
			virtio = virtio || (nd->driver &&
			    strcmp(nd->driver, "virtio_net") == 0);
		if (g != p->h && virtio && from_workloads(p, g,
		    pd_arena_printf(p->a, " of guest %s", g->name)))
			return true;
	}
	return false;
}

/* The card's PFs: per-PF byte counters between two snapshots. */
static bool
from_counters(struct path *p)
{
	double rx = 0, tx = 0;
	const struct pd_evidence *ev = NULL;

	for (unsigned i = 0; i < p->n_pf; i++) {
		const struct pd_netdev *nd = p->pf[i].nd;

		if (!nd)
			continue;
		if (p->pf[i].rx_known && p->pf[i].rx_is_rate) {
			rx += p->pf[i].rx;
			if (!ev)
				ev = &nd->ctr[PD_CTR_RX_BYTES].ev_last;
		} else if (nd->kstat_rate.known) {
			rx += nd->kstat_rate.rx_per_s;
		}
		if (p->pf[i].tx_rate > 0)
			tx += p->pf[i].tx_rate;
	}
	if (rx < MIN_OBSERVED && tx < MIN_OBSERVED)
		return false;
	p->dir = rx >= tx ? PD_LADDER_RECEIVE : PD_LADDER_TRANSMIT;
	p->observed = (rx >= tx ? rx : tx) / 1e9;
	p->source = "NIC counters";
	p->what = pd_arena_printf(p->a, "%s bytes of the card's PFs between "
	    "two counter snapshots", rx >= tx ? "received" : "sent");
	if (ev && rx >= tx)
		p->ev = *ev;
	return true;
}

static bool
from_captures(struct path *p)
{
	double bytes = 0, seconds = 0;
	const struct pd_capture *first = NULL;

	for (const struct pd_capture *c = p->h->captures; c; c = c->next)
		for (unsigned i = 0; i < p->n_pf; i++)
			if (c->netdev && c->netdev == p->pf[i].nd &&
			    c->duration > 0) {
				bytes += (double)c->tcp_payload_bytes;
				if (c->duration > seconds)
					seconds = c->duration;
				if (!first)
					first = c;
			}
	if (!first || bytes / seconds < MIN_OBSERVED)
		return false;
	p->observed = bytes / seconds / 1e9;
	p->dir = PD_LADDER_RECEIVE;
	p->source = "captures";
	p->what = "TCP payload of the captures through the card over their "
	    "duration";
	p->ev = first->ev;
	return true;
}

/* A benchmark whose throughput the card's own counters do not carry
 * (a local disk, another NIC) does not measure this path: below half of
 * it on the counters, the counters are the better measure. */
#define ELSEWHERE 0.5

bool
pd_path_observed(struct path *p)
{
	struct path c = *p;

	if (from_workloads(p, p->h, "") || from_guests(p)) {
		if (!from_counters(&c) || c.observed >= ELSEWHERE * p->observed)
			return true;
		c.what = pd_arena_printf(p->a, "%s (the %s output, %s, is not "
		    "this card's traffic: its counters carry under half of it)",
		    c.what, p->source, pd_rate_str(p->a, p->observed * 1e9));
		*p = c;
		return true;
	}
	return from_counters(p) || from_captures(p);
}
