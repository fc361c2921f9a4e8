/* Shared by the perf.data reader's files: perf_data.c reads the header,
 * the records and the samples; perf_data_meta.c the feature sections
 * and event names, and makes one profile per event at the end. */
#ifndef PD_FORMATS_PERF_DATA_H
#define PD_FORMATS_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "decode/profile.h"
#include "pathdoctor/cursor.h"

struct pd_diag;
struct pd_host;
struct pd_input;
struct pd_member;
struct pd_perf_unz;
struct pd_prof_raw;
struct pd_profile;

#define PRE_DATA_MAX (64u << 20)
#define FEATURES_MAX (64u << 20)
#define ATTRS_MAX 256
#define IDS_MAX 65536
#define HEADER_SIZE 104
#define PIPE_HEADER_SIZE 16

enum {
	ST_IP = 1u << 0, ST_TID = 1u << 1, ST_TIME = 1u << 2,
	ST_ADDR = 1u << 3, ST_READ = 1u << 4, ST_CALLCHAIN = 1u << 5,
	ST_ID = 1u << 6, ST_CPU = 1u << 7, ST_PERIOD = 1u << 8,
	ST_STREAM_ID = 1u << 9, ST_IDENTIFIER = 1u << 16,
};
enum { RF_ENABLED = 1, RF_RUNNING = 2, RF_ID = 4, RF_GROUP = 8,
	RF_LOST = 16 };
enum {
	REC_MMAP = 1, REC_LOST = 2, REC_FORK = 7, REC_SAMPLE = 9,
	REC_MMAP2 = 10,
	REC_LOST_SAMPLES = 13, REC_HEADER_ATTR = 64,
	REC_HEADER_TRACING_DATA = 66, REC_AUXTRACE = 71,
	REC_HEADER_FEATURE = 80, REC_COMPRESSED = 81, REC_COMPRESSED2 = 83,
};
enum { FEAT_BUILD_ID = 2, FEAT_HOSTNAME = 3, FEAT_OSRELEASE = 4, FEAT_VERSION = 5,
	FEAT_ARCH = 6, FEAT_NRCPUS = 7, FEAT_EVENT_DESC = 12 };
#define MISC_CPUMODE_MASK 7u
#define MISC_MMAP_BUILD_ID (1u << 14)
#define MISC_BUILD_ID_SIZE (1u << 15)

struct attr {
	uint32_t type;
	uint64_t config, sample_period, sample_type, read_format;
	bool freq;
	struct pd_prof_raw *raw;	/* its samples; NULL until one */
	/* a sample's words up to PERIOD, all of fixed size: their bytes
	 * (fixed) and where IP, TID, CPU and PERIOD lie in them */
	uint16_t fixed, at_ip, at_tid, at_cpu, at_period;
};

struct id_attr {
	uint64_t id;
	unsigned attr;
};

/* Samples are decoded QUEUE ahead of being added, so that what each
 * will read of the profile's tables is asked for (prefetched) while
 * the ones before it are added; added in the file's order, by this
 * thread or, in a large profile, by a second one (perf_data_queue.c).
 * A power of two, so that a position in the queue costs a mask, not a
 * division. */
#define QUEUE 16
_Static_assert((QUEUE & (QUEUE - 1)) == 0, "QUEUE is a power of two");

struct queued {
	struct pd_prof_raw *raw;
	struct pd_prof_key key;
	uint64_t period, ip;
	uint32_t pid;
	int cpu;
	enum pd_cpumode mode;
	unsigned n;
	bool has_chain;
	/* n addresses, in the queue's or a batch's, after
	 * PD_PROF_KEY_HEAD words for the key's hash */
	uint64_t *chain;
};
struct perf_lanes;

/* Each attribute (event) with samples becomes a profile of its own, as
 * perf report shows each event on its own: summed together, the shares
 * of cycles and cpu-clock or of a PMU's five events mean nothing.  The
 * mappings and forks are the file's and go to every one of them. */
struct reader {
	const struct pd_member *m;
	struct pd_input *in;
	struct pd_host *h;
	struct pd_diag *d;
	struct pd_profile *p;		/* the file's: header and features */
	struct pd_prof_raw *maps;	/* the file's mappings and forks */
	const char *desc[ATTRS_MAX];	/* EVENT_DESC names, by attr */
	bool le;
	uint64_t pos;			/* bytes of the member consumed */
	struct attr attrs[ATTRS_MAX];
	unsigned n_attrs;
	struct id_attr *ids;		/* sorted by id */
	unsigned n_ids;
	unsigned id_pos;		/* u64 index of ID in a sample; 0: none */
	bool identifier;		/* every sample starts with its id */
	struct queued queue[QUEUE];
	/* the queue's chains, each after its key's head */
	uint64_t chains[QUEUE][PD_PROF_KEY_HEAD + PD_PROF_CHAIN];
	unsigned q_head, q_len;
	uint64_t queued;		/* samples decoded so far */
	struct perf_lanes *lanes;	/* the adding thread; NULL: none */
	bool lanes_failed;		/* it could not be started */
	uint64_t by_type[128];		/* records read, by type */
	bool unknown_attr_noted;
	uint64_t bad_samples;		/* shorter than their sample_type */
	struct pd_perf_unz *unz;		/* perf record -z's stream */
	const char *unz_failed;		/* why the batches stopped */
	uint64_t batches, unz_read;
	unsigned char rec[65536];
};

static inline uint64_t
u64_of(struct pd_cursor *c)
{
	uint64_t lo = pd_cursor_u32(c), hi = pd_cursor_u32(c);

	return c->le ? hi << 32 | lo : lo << 32 | hi;
}

/* perf_data_queue.c: the slot for the next sample, whose chain of at
 * most `words` addresses goes to slot->chain; then, once decoded, the
 * sample joins the queue (a sample not committed is dropped); at the
 * end, every sample added and the adding thread joined. */
struct queued *pd_perf_slot(struct reader *r, unsigned words);
void pd_perf_commit(struct reader *r, struct queued *q);
void pd_perf_flush(struct reader *r);
/* A feature section's contents (HEADER_FEATURE in pipe mode). */
void pd_perf_feature(struct reader *r, unsigned id, const unsigned char *p,
    size_t len);
/* One profile per attribute with samples, pd_profile_end on each. */
void pd_perf_finish_profiles(struct reader *r);

#endif
