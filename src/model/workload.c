/* The host's workload outputs and their jobs (struct pd_workload). */
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/model.h"

struct pd_workload *
pd_host_workload(struct pd_host *h, struct pd_arena *a, const char *member,
    const char *tool)
{
	struct pd_workload *w = pd_arena_alloc(a, sizeof(*w)), **pp;

	w->member = member;
	w->tool = tool;
	pp = &h->workloads;
	PD_SORTED_SEEK(pp, member, member);
	w->next = *pp;
	*pp = w;
	return w;
}

static void
side_unknown(struct pd_wl_side *s)
{
	s->bytes = -1;
	s->bytes_per_s = s->iops = -1;
	s->lat_mean_us = s->lat_p50_us = s->lat_p99_us = s->lat_p999_us = -1;
}

struct pd_wl_job *
pd_wl_job_new(struct pd_arena *a, const char *name)
{
	struct pd_wl_job *j = pd_arena_alloc(a, sizeof(*j));

	j->name = name;
	j->groupid = -1;
	side_unknown(&j->rd);
	side_unknown(&j->wr);
	j->net.sent_bytes = j->net.recv_bytes = j->net.retransmits = -1;
	j->net.sent_bytes_per_s = j->net.recv_bytes_per_s = -1;
	j->net.streams = -1;
	j->n_devices = j->iodepth = j->numjobs = -1;
	j->seconds = -1;
	return j;
}

struct pd_wl_job *
pd_workload_job(struct pd_workload *w, struct pd_arena *a, const char *name)
{
	struct pd_wl_job *j = pd_wl_job_new(a, name), **pp = &w->jobs;

	while (*pp)
		pp = &(*pp)->next;
	*pp = j;
	w->n_jobs++;
	return j;
}

/* Adds v to *sum; an unknown on either side leaves the sum unknown, as a
 * total that silently missed a job would understate the throughput. */
static void
add_i(int64_t *sum, int64_t v)
{
	*sum = *sum < 0 || v < 0 ? -1 : *sum + v;
}

static void
add_d(double *sum, double v)
{
	*sum = *sum < 0 || v < 0 ? -1 : *sum + v;
}

static void
add_side(struct pd_wl_side *t, const struct pd_wl_side *s)
{
	add_i(&t->bytes, s->bytes);
	add_d(&t->bytes_per_s, s->bytes_per_s);
	add_d(&t->iops, s->iops);
}

void
pd_workload_sum(struct pd_workload *w, struct pd_arena *a)
{
	struct pd_wl_job *t;

	if (!w->jobs)
		return;
	t = pd_wl_job_new(a, "total");
	if (w->n_jobs == 1) {
		/* One job is its own total, latencies included. */
		*t = *w->jobs;
		t->next = NULL;
		t->name = "total";
		w->total = t;
		return;
	}
	t->rd.bytes = t->wr.bytes = 0;
	t->rd.bytes_per_s = t->wr.bytes_per_s = t->rd.iops = t->wr.iops = 0;
	for (const struct pd_wl_job *j = w->jobs; j; j = j->next) {
		add_side(&t->rd, &j->rd);
		add_side(&t->wr, &j->wr);
		if (j->seconds > t->seconds)
			t->seconds = j->seconds;
	}
	t->ev = w->jobs->ev;
	w->total = t;
}
