/* --filter: a BPF expression (pcap-filter(7)) that restricts capture
 * analysis to the packets it matches.  Set once before the walk; each
 * capture reader compiles it for its own link type and snap length. */
#ifndef PD_DECODE_FILTER_H
#define PD_DECODE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_filter {
	void *prog;		/* struct bpf_program, heap; NULL: no filter */
};

/* Checks that expr compiles (for Ethernet, 262144-byte snap length)
 * and keeps it for the readers; NULL clears it.  On failure, returns
 * false with libpcap's message in err. */
bool pd_filter_set(const char *expr, char *err, size_t n);
const char *pd_filter_expr(void);	/* NULL: no --filter */

/* Compiles the expression for one link type and snap length: false
 * with libpcap's message in err when it cannot apply (the capture is
 * then skipped).  With no --filter, true and f->prog NULL. */
bool pd_filter_open(struct pd_filter *f, int linktype, uint32_t snaplen,
    char *err, size_t n);
bool pd_filter_match(const struct pd_filter *f, const uint8_t *data,
    uint32_t caplen, uint32_t len);
void pd_filter_close(struct pd_filter *f);

struct pd_member;
struct pd_diag;
/* The note (capture.filter) of a capture skipped because the expression
 * cannot apply to its link type; iface NULL for a one-interface file. */
void pd_filter_skip_note(const struct pd_member *m, struct pd_diag *d,
    int linktype, const char *iface, const char *why);
#endif
