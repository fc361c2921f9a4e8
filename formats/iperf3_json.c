/* "iperf3-json": iperf3 -J (client or server), the observed network
 * throughput of the test:
 *
 *   {
 *     "start": { "connected": [...], "version": "iperf 3.9",
 *                "connecting_to": { "host", "port" }      (the client)
 *                "accepted_connection": { "host", "port" } (the server)
 *                "test_start": { "protocol": "TCP", "num_streams": 1,
 *                                "duration": 10, "reverse": 0, ... } },
 *     "intervals": [...],
 *     "end": { "streams": [...],
 *              "sum_sent": { "bytes", "bits_per_second", "retransmits" },
 *              "sum_received": { "bytes", "bits_per_second" } },
 *     "error": "..."                                       (when it failed)
 *   }
 *
 * Reference: iperf3's iperf_api.c (iperf_print_results, the JSON
 * branch) and its manual page (-J).  UDP tests have "sum" instead of the
 * two TCP sums; their bytes count as sent and received alike.  The
 * whole member is parsed with jansson (src/decode/wl_json.c), capped at
 * IPERF3_JSON_MAX. */
#define _GNU_SOURCE	/* memmem */
#include <stdlib.h>
#include <string.h>
#include "decode/wl_json.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

extern const struct pd_format pd_format_iperf3_json;

/* One interval is some 700 bytes per stream: 4 MiB holds a 60 s test
 * of 64 streams (-P 64) at one-second intervals, with room to spare. */
#define IPERF3_JSON_MAX (4u << 20)

static int
bid_iperf3_json(const struct pd_member *m)
{
	const unsigned char *p = m->head;
	long s = pd_text_json_start(p, m->head_len);
	size_t i;

	if (s < 0 || memchr(p, '\0', m->head_len))
		return 0;
	for (i = (size_t)s + 1; i < m->head_len && strchr(" \t\r\n", p[i]) &&
	    p[i]; i++)
		;
	if (m->head_len - i < 8 || memcmp(p + i, "\"start\":", 8) != 0)
		return 0;
	/* "version": "iperf 3.9" sits in the head of every output */
	if (!memmem(p + i, m->head_len - i, "\"iperf 3", 8))
		return 0;
	return 8 * 8 + 8 * 8;	/* the key and the version's prefix */
}

/* This end's role, the peer and the test's parameters from "start". */
static void
start_of(struct pd_wl_job *j, struct pd_arena *a, json_t *start)
{
	json_t *to = json_object_get(start, "connecting_to");
	json_t *from = json_object_get(start, "accepted_connection");
	json_t *ts = json_object_get(start, "test_start");
	json_t *peer = to ? to : from;
	json_t *host = json_object_get(peer, "host");

	j->net.role = to ? "client" : from ? "server" : NULL;
	j->name = pd_arena_printf(a, "%s %s %s", to ? "client to" : from ?
	    "server for" : "test with", json_is_string(host) ?
	    json_string_value(host) : "?", json_is_string(json_object_get(ts,
	    "protocol")) ? json_string_value(json_object_get(ts,
	    "protocol")) : "");
	if (pd_wl_json_num(ts, "num_streams") >= 0)
		j->net.streams = (int)pd_wl_json_num(ts, "num_streams");
	if (json_is_integer(json_object_get(ts, "reverse")))
		j->net.reverse = json_integer_value(json_object_get(ts,
		    "reverse")) ? PD_YES : PD_NO;
}

/* bits per second to bytes per second */
static void
sums_of(struct pd_wl_job *j, json_t *end)
{
	json_t *sent = json_object_get(end, "sum_sent");
	json_t *recv = json_object_get(end, "sum_received");
	double secs;

	if (!sent && !recv)	/* UDP */
		sent = recv = json_object_get(end, "sum");
	if (pd_wl_json_num(sent, "bytes") >= 0)
		j->net.sent_bytes = (int64_t)pd_wl_json_num(sent, "bytes");
	if (pd_wl_json_num(sent, "bits_per_second") >= 0)
		j->net.sent_bytes_per_s = pd_wl_json_num(sent, "bits_per_second") / 8;
	if (pd_wl_json_num(sent, "retransmits") >= 0)
		j->net.retransmits = (int64_t)pd_wl_json_num(sent, "retransmits");
	if (pd_wl_json_num(recv, "bytes") >= 0)
		j->net.recv_bytes = (int64_t)pd_wl_json_num(recv, "bytes");
	if (pd_wl_json_num(recv, "bits_per_second") >= 0)
		j->net.recv_bytes_per_s = pd_wl_json_num(recv, "bits_per_second") / 8;
	secs = pd_wl_json_num(recv, "seconds") > pd_wl_json_num(sent, "seconds") ?
	    pd_wl_json_num(recv, "seconds") : pd_wl_json_num(sent, "seconds");
	j->seconds = secs;
	if (j->net.streams < 0 && json_is_array(json_object_get(end,
	    "streams")))
		j->net.streams = (int)json_array_size(json_object_get(end,
		    "streams"));
}

static enum pd_status
parse_iperf3_json(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct pd_arena *a = d->arena;
	struct pd_wl_json js;
	json_t *start, *v;

	if (!pd_wl_json_load(&js, &pd_format_iperf3_json, in, IPERF3_JSON_MAX,
	    d)) {
		pd_wl_json_release(&js);
		return PD_FAILED;
	}
	start = json_object_get(js.root, "start");
	if (!json_is_object(start)) {
		pd_diag_note(d, PD_FAILED, "iperf3-json.bad", 0, "not iperf3 "
		    "JSON: no \"start\" object");
		pd_wl_json_release(&js);
		return PD_FAILED;
	}
	struct pd_workload *w = pd_host_workload(h, a, m->path, "iperf3");
	struct pd_wl_job *j = pd_workload_job(w, a, "test");

	v = json_object_get(start, "version");
	w->version = json_is_string(v) ? pd_arena_strdup(a,
	    json_string_value(v)) : NULL;
	start_of(j, a, start);
	sums_of(j, json_object_get(js.root, "end"));
	pd_wl_json_evidence(&js, &j->ev, a, m->path, j->net.recv_bytes >= 0 ?
	    "\"sum_received\"" : "\"start\"", 0);
	if (json_is_string(json_object_get(js.root, "error"))) {
		/* "error": "unable to connect to server: ..." */
		w->n_errors = 1;
		pd_wl_json_evidence(&js, &w->first_error, a, m->path,
		    "\"error\"", 0);
	}
	pd_wl_json_release(&js);
	pd_workload_sum(w, a);
	return PD_OK;
}

static const char *const hints[] = { "iperf", NULL };

const struct pd_format pd_format_iperf3_json = {
	.name = "iperf3-json",
	.summary = "iperf3 -J (client or server): bytes and rate sent and "
	    "received, retransmits, streams, role, reverse",
	.command = "iperf3 -c HOST -J",
	.hints = hints,
	.gives = PD_HAVE_WORKLOAD,
	.collect = "iperf3 -c HOST -J output",
	.bid = bid_iperf3_json,
	.parse = parse_iperf3_json,
};
