/* Streaming TCP analysis of one interface's packets into a pd_capture:
 * payload-size histograms (exact, per capture and per flow direction),
 * retransmissions by sequence ranges sent again (capture duplicates,
 * keep-alives and window probes told apart), RTO-like stalls, and the
 * busiest flows.  Memory is bounded: the flow table holds at most
 * PD_FLOW_TABLE flows and evicts the least recently seen. */
#ifndef PD_CAPTURE_H
#define PD_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include "decode/packet.h"
#include "pathdoctor/model.h"

#define PD_FLOW_TABLE 8192
#define PD_STALL_MIN 0.2	/* s: Linux's minimum RTO */

struct pd_capture_state;

struct pd_capture_state *pd_capture_begin(struct pd_capture *cap);
void pd_capture_packet(struct pd_capture_state *st, double ts, int linktype,
    const uint8_t *p, uint32_t caplen, uint32_t len);
/* Writes the results into the capture and frees the state. */
void pd_capture_end(struct pd_capture_state *st);

/* Canonical key of a segment; *dir is 0 when src is the lower end. */
void pd_flow_key_of(const struct pd_pkt *pkt, struct pd_flow_key *k,
    int *dir);
bool pd_flow_key_eq(const struct pd_flow_key *x, const struct pd_flow_key *y);
/* "10.0.0.1:5201 <-> 10.0.0.2:40000" */
void pd_flow_key_fmt(char *buf, size_t n, const struct pd_flow_key *k);
/* Bucket index of a payload size (0, then log2 ranges). */
unsigned pd_size_bucket(uint32_t bytes);

/* Member notes for the frames not decoded, a note per reason with how
 * many (after pd_capture_end). */
struct pd_diag;
void pd_capture_notes(const struct pd_capture *cap, struct pd_diag *d);

/* The interface a capture member names (f's name prefixes stripped);
 * its base name, noted, when that is no interface name. */
struct pd_member;
struct pd_diag;
struct pd_format;
const char *pd_capture_ifname(const struct pd_member *m, struct pd_diag *d,
    const struct pd_format *f);

#endif
