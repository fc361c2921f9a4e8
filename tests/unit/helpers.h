/* Shared test helpers: corpus location, parsing a file into a model. */
#ifndef PD_TEST_HELPERS_H
#define PD_TEST_HELPERS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "bundle/bundle.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/model.h"

/* The next of a stream of numbers seeded by *s (splitmix64:
 * neighbouring seeds give unrelated streams), the same on every run. */
uint64_t test_random(uint64_t *s);

/* The shared corpus (PD_CORPUS, default ../shared/corpus), or NULL. */
const char *corpus_dir(void);
/* True in CI (CI=true), where a missing corpus is a failure. */
bool corpus_required(void);
/* Skips the calling test with a message when the corpus is absent; in
 * CI fails it. */
#define REQUIRE_CORPUS()                                                   \
	do {                                                               \
		if (!corpus_dir()) {                                       \
			if (corpus_required())                             \
				fail_msg("corpus not found (CI requires "    \
				    "it)");                                \
			print_message("corpus not found (set PD_CORPUS or "  \
			    "place it at ../shared/corpus): skipped\n");     \
			skip();                                            \
		}                                                          \
	} while (0)

/* Calls fn on every regular file under dir, in name order. */
void each_file(const char *dir, void (*fn)(const char *path,
    const char *name));
/* Reads a whole file; NULL when it cannot. */
unsigned char *slurp(const char *path, size_t *len);

/* A parsed bundle: model, coverage and (after analyse) findings. */
struct parsed {
	struct pd_model *m;
	struct pd_coverage cov;
	struct pd_findings fs;
	int rc;
	char err[256];
};

/* Reads a bundle path (file, directory or archive) and finalises. */
void parsed_read(struct parsed *p, const char *path);
void parsed_read_memory(struct parsed *p, const void *data, size_t len,
    const char *name);
/* Runs every rule. */
void parsed_analyse(struct parsed *p);
/* parsed_read, then parsed_analyse. */
void parsed_analysed(struct parsed *p, const char *path);
void parsed_free(struct parsed *p);
/* True when the member has a note with this id. */
bool has_note(const struct pd_member_result *r, const char *id);
/* First finding of a rule whose subject contains subj (NULL: any). */
const struct pd_finding *find_finding(const struct parsed *p,
    const char *rule, const char *subj);
size_t count_findings(const struct parsed *p, const char *rule);
const struct pd_member_result *member_result(const struct parsed *p,
    const char *path_suffix);
/* Reads a corpus file (path relative to the corpus) into p. */
void parsed_corpus(struct parsed *p, const char *rel);
/* Parses text as one member named name into a fresh model. */
void parsed_text(struct parsed *p, const char *name, const char *text);



/* Parses several named text members into one model and finalises. */
void parsed_members(struct parsed *p, const char *const *names,
    const char *const *texts, size_t n);

/* Builds a tar (gzip'd when gz) in memory from entries; free() it. */
struct tar_entry {
	const char *path;
	const void *data;	/* NULL with symlink/hardlink/dev */
	size_t len;		/* 0: strlen(data) */
	const char *symlink, *hardlink;
	int device;		/* a character device node */
};
unsigned char *make_tar(const struct tar_entry *e, size_t n, int gz,
    size_t *len);
/* The test groups, one per test_*.c file. */
int test_group_gain(void);
int test_group_cmdline(void);
int test_group_lspci(void);
int test_group_sniff(void);
int test_group_rules(void);
int test_group_bundle(void);
int test_group_input(void);
int test_group_gunzip(void);
int test_group_nic(void);
int test_group_capture(void);
int test_group_flows(void);
int test_group_populate(void);
int test_group_profile(void);
int test_group_profile_events(void);
int test_group_workload(void);
int test_group_ladder(void);
int test_group_wlrules(void);
int test_group_uploads(void);
int test_group_escape(void);
int test_group_redact(void);
int test_group_hostile(void);
int test_group_filter(void);
int test_group_hash(void);
int test_group_dynlib(void);
int test_group_prof_memo(void);
int test_group_map_ranges(void);
int test_group_fleet(void);
int test_group_window(void);
int test_group_archive_src(void);
int test_group_mapped(void);
int test_group_diff(void);
int test_group_wrap(void);
int test_group_softnet(void);
int test_group_irqcpu(void);
int test_group_sysval(void);
int test_group_snmp(void);
int test_group_nvme(void);
int test_group_nic_counters(void);
int test_group_link(void);

#endif
