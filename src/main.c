/* pathdoctor: read a diagnostic bundle, run the rules, print the report.
 * Options come from one table that also writes --help. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/bigmem.h"
#include "base/version.h"
#include "bundle/bundle.h"
#include "decode/filter.h"
#include "finalize/finalize.h"
#include "fleet/batch.h"
#include "fleet/cli.h"
#include "pathdoctor/diff.h"
#include "pathdoctor/finding.h"
#include "pathdoctor/format.h"
#include "pathdoctor/model.h"
#include "pathdoctor/report.h"
#include "pathdoctor/rule.h"
#include "pathdoctor/text.h"
#include "report/dump.h"
#include "report/escape.h"
#include "report/wrap.h"
#include "report/redact.h"

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2, EXIT_BUNDLE = 3,
	EXIT_NOTHING = 4 };

enum opt_id {
	OPT_FORMAT = 'f', OPT_OUTPUT = 'o', OPT_HELP = 'h', OPT_JOBS = 'j',
	OPT_LIST_FORMATS = 256, OPT_LIST_RULES, OPT_EXPLAIN, OPT_ONLY,
	OPT_SKIP, OPT_DUMP_MODEL, OPT_FAIL_ON, OPT_VERSION, OPT_MAX_MEMBERS,
	OPT_MAX_TOTAL, OPT_MAX_RATIO, OPT_MAX_SPOOL, OPT_MAX_DEPTH,
	OPT_MAX_LINE, OPT_ONE_THREAD, OPT_FAIL_ON_REGRESSION, OPT_MIN_LEVEL,
	OPT_BRIEF, OPT_WIDTH,
	OPT_REDACT, OPT_REDACT_MAP, OPT_FILTER,
};

static const struct opt {
	const char *name;
	int id;
	const char *arg;	/* NULL: a flag */
	const char *help;
} opts[] = {
	{ "format", OPT_FORMAT, "md|json|jsonl|term|html", "report format "
	    "(default: term on a terminal, md otherwise; jsonl: a JSON line "
	    "per bundle, for many)" },
	{ "jobs", OPT_JOBS, "N", "jsonl: bundles analysed at once, each in a "
	    "process of its own (default: the CPUs)" },
	{ "output", OPT_OUTPUT, "FILE", "write the report to FILE" },
	{ "brief", OPT_BRIEF, NULL, "md: the summary and the ladder only" },
	{ "list-formats", OPT_LIST_FORMATS, NULL, "list the input formats read" },
	{ "list-rules", OPT_LIST_RULES, NULL, "list the rules" },
	{ "explain", OPT_EXPLAIN, "RULE", "explain a rule and its numbers" },
	{ "only", OPT_ONLY, "RULE,...", "run only these rules (or groups, "
	    "e.g. pcie)" },
	{ "skip", OPT_SKIP, "RULE,...", "do not run these rules or groups" },
	{ "filter", OPT_FILTER, "'BPF'", "analyse only the captured packets "
	    "this pcap-filter expression matches" },
	{ "dump-model", OPT_DUMP_MODEL, NULL, "print what the readers learned "
	    "and stop" },
	{ "fail-on", OPT_FAIL_ON, "LEVEL", "exit 1 when a finding is at or "
	    "above LEVEL: info, low, medium, high (default off)" },
	{ "min-level", OPT_MIN_LEVEL, "LEVEL", "leave findings below LEVEL out "
	    "of the report (and of --fail-on)" },
	{ "max-members", OPT_MAX_MEMBERS, "N", "members to read at most "
	    "(100000)" },
	{ "max-total", OPT_MAX_TOTAL, "SIZE", "decompressed bytes to read at "
	    "most, every layer counted (64G)" },
	{ "max-ratio", OPT_MAX_RATIO, "N", "largest decompressed:compressed "
	    "ratio of any one layer (1000)" },
	{ "max-spool", OPT_MAX_SPOOL, "SIZE", "bytes of one member held in "
	    "memory at most: an ELF file's window (64M)" },
	{ "max-depth", OPT_MAX_DEPTH, "N", "nested archive levels opened (3)" },
	{ "max-line", OPT_MAX_LINE, "SIZE", "longest text line read (1M)" },
	{ "one-thread", OPT_ONE_THREAD, NULL, "no second thread: read and "
	    "decompress the bundle, add a large profile's samples and read a "
	    "directory's kallsyms on the analysing thread" },
	{ "width", OPT_WIDTH, "N", "term: lay out for N columns (default: the "
	    "terminal's, else $COLUMNS, else 80)" },
	{ "fail-on-regression", OPT_FAIL_ON_REGRESSION, NULL, "diff: exit 1 "
	    "when a finding is new in AFTER or the throughput fell by more "
	    "than the 7 % noise" },
	{ "redact", OPT_REDACT, NULL, "mask host names, addresses, serial "
	    "numbers, UUIDs and user names in the output" },
	{ "redact-map", OPT_REDACT_MAP, "FILE", "--redact, and write each "
	    "token with what it masks to FILE" },
	{ "version", OPT_VERSION, NULL, "print the version" },
	{ "help", OPT_HELP, NULL, "print this help" },
};

struct config {
	const char *format, *output, *only, *skip;
	const char *filter;		/* --filter: a BPF expression */
	enum pd_level fail_on;
	int min_level;		/* enum pd_level; -1: show every finding */
	bool dump_model, brief;
	bool diff, fail_on_regression;	/* pathdoctor diff BEFORE AFTER */
	bool redact;
	const char *redact_map;
	struct pd_limits lim;
	uint64_t width;			/* --width; 0: the terminal's */
	bool width_given;
	uint64_t jobs;			/* -j; 0: the CPUs */
	bool jobs_given;
};

static void
usage(FILE *out)
{
	fprintf(out, "usage: pathdoctor [options] BUNDLE\n"
	    "       pathdoctor -f jsonl [-j N] [options] BUNDLE...\n"
	    "       pathdoctor diff [options] BEFORE AFTER\n"
	    "       pathdoctor ingest --db URL [BUNDLE... | -]  (ingest --help)\n"
	    "       pathdoctor query --db URL [REPORT]  (query --help)\n\n"
	    "BUNDLE is a .tar.gz/.tgz, .tar.xz, .tar.zst, .tar.bz2, .zip, a "
	    "plain tar,\na single file (gzip'd or not), a directory, or - "
	    "for stdin (read to its end).\n\n");
	for (size_t i = 0; i < PD_ARRAY_SIZE(opts); i++) {
		char left[64];
		const struct opt *o = &opts[i];

		if (o->id < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->id,
			    o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
			    o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(out, "  %-28s %s\n", left, o->help);
	}
	fprintf(out, "\ndiff compares two bundles of the same hosts, before "
	    "and after a fix: findings\nresolved, persisting and new, what "
	    "changed, and the throughput realised\nagainst BEFORE's ladder "
	    "(--fail-on then reads AFTER's findings).\n"
	    "\nExit status: 0 analysed; 1 findings at or above "
	    "--fail-on (or a regression\nwith --fail-on-regression); 2 usage "
	    "error; 3 bundle unreadable; 4 no member\nof a format pathdoctor "
	    "reads; with -f jsonl, the worst of the bundles' (3, then 4, then "
	    "1).  Colour only on a terminal, never with NO_COLOR set or\n"
	    "TERM unset or dumb.\n");
}

static bool
list_has(const char *list, const struct pd_rule *r)
{
	return pd_list_has(list, r->id, strlen(r->id)) ||
	    pd_list_has(list, r->id, strcspn(r->id, "."));
}

static bool
rule_filter(const struct pd_rule *r, const void *ctx)
{
	const struct config *cfg = ctx;

	if (cfg->only && !list_has(cfg->only, r))
		return false;
	return !(cfg->skip && list_has(cfg->skip, r));
}

static int
check_rule_list(const char *list, const char *opt)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		bool ok = false;

		for (const struct pd_rule_group *const *g = pd_rule_groups; *g;
		    g++) {
			if (strlen((*g)->name) == n &&
			    strncmp((*g)->name, p, n) == 0)
				ok = true;
			for (size_t i = 0; i < (*g)->n_rules; i++)
				if (strlen((*g)->rules[i].id) == n &&
				    strncmp((*g)->rules[i].id, p, n) == 0)
					ok = true;
		}
		if (!ok && n) {
			fprintf(stderr, "pathdoctor: %s: no rule or group "
			    "'%.*s' (see --list-rules)\n", opt, (int)n, p);
			return -1;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

#define LIST_WIDTH 80	/* --list-formats stays readable in 80 columns */

/* Prints text word-wrapped in LIST_WIDTH columns, each line indented to
 * column indent; a word longer than a line gets one of its own. */
static void
print_wrapped(const char *text, int indent)
{
	int col = indent;

	printf("%*s", indent, "");
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, " ");

		if (col > indent && col + 1 + (int)n > LIST_WIDTH) {
			printf("\n%*s", indent, "");
			col = indent;
		}
		printf("%s%.*s", col > indent ? " " : "", (int)n, p);
		col += (col > indent) + (int)n;
		p += n;
		p += strspn(p, " ");
	}
	printf("\n");
}

/* Each format's name and command on one line, what it gives below,
 * indented past the widest name. */
static void
list_formats(void)
{
	int w = 0;

	for (const struct pd_format *const *f = pd_formats; *f; f++)
		if ((int)strlen((*f)->name) > w)
			w = (int)strlen((*f)->name);
	for (const struct pd_format *const *f = pd_formats; *f; f++) {
		printf("%-*s  %s\n", w, (*f)->name, (*f)->command);
		print_wrapped((*f)->summary, w + 2);
	}
}

static void
print_needs(unsigned needs)
{
	char nb[PD_NEED_TEXT_MAX];

	for (unsigned b = 1, k = 0; b && b <= needs; b <<= 1)
		if (needs & b)
			printf("%s%s", k++ ? "; " : "", pd_need_text(b, nb));
}

static void
list_rules(void)
{
	for (const struct pd_rule_group *const *g = pd_rule_groups; *g; g++)
		for (size_t i = 0; i < (*g)->n_rules; i++) {
			const struct pd_rule *r = &(*g)->rules[i];

			printf("%-28s %s\n%-28s needs: ", r->id, r->title, "");
			print_needs(r->needs);
			printf("%s\n", r->check ? "" :
			    " (not yet implemented: always not evaluated)");
		}
}

static int
explain(const char *id)
{
	const struct pd_rule *r = pd_rule_find(id);

	if (!r) {
		fprintf(stderr, "pathdoctor: --explain: no rule '%s' (see "
		    "--list-rules)\n", id);
		return EXIT_USAGE;
	}
	printf("%s: %s\n\n%s\n\nNeeds: ", r->id, r->title, r->doc);
	print_needs(r->needs);
	printf("\n");
	if (r->links && *r->links) {
		printf("\nDocumentation:\n");
		for (const char *const *l = r->links; *l; l++)
			printf("  %s\n", *l);
	}
	return EXIT_CLEAN;
}

static int check_args(int argc, char **argv, const struct config *cfg);

static int
number_arg(const char *name, const char *v, bool size, uint64_t *out)
{
	const char *end;

	if ((size && pd_parse_size(v, out)) ||
	    (!size && pd_parse_u64(v, 10, out, &end) && *end == '\0'))
		return 0;
	fprintf(stderr, "pathdoctor: --%s: '%s' is not a %s\n", name, v,
	    size ? "size (e.g. 512M)" : "number");
	return -1;
}

/* The option switch and its checks: one case a line, long only because
 * the option table is. */
static int
parse_args(int argc, char **argv, struct config *cfg, int *done)
{
	struct option lo[PD_ARRAY_SIZE(opts) + 1];

	for (size_t i = 0; i < PD_ARRAY_SIZE(opts); i++)
		lo[i] = (struct option){ opts[i].name,
		    opts[i].arg ? required_argument : no_argument, NULL,
		    opts[i].id };
	memset(&lo[PD_ARRAY_SIZE(opts)], 0, sizeof(lo[0]));
	*done = -1;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:o:hj:", lo, NULL)) != -1) {
		uint64_t *lim = NULL;
		bool size = false;

		switch (c) {
		case OPT_FORMAT: cfg->format = optarg; break;
		case OPT_OUTPUT: cfg->output = optarg; break;
		case OPT_ONLY: cfg->only = optarg; break;
		case OPT_SKIP: cfg->skip = optarg; break;
		case OPT_FILTER: cfg->filter = optarg; break;
		case OPT_DUMP_MODEL: cfg->dump_model = true; break;
		case OPT_BRIEF: cfg->brief = true; break;
		case OPT_ONE_THREAD: cfg->lim.one_thread = true; break;
		case OPT_FAIL_ON_REGRESSION: cfg->fail_on_regression = true;
			break;
		case OPT_REDACT: cfg->redact = true; break;
		case OPT_REDACT_MAP: cfg->redact_map = optarg; cfg->redact = true;
			break;
		case OPT_HELP: usage(stdout); *done = EXIT_CLEAN; return 0;
		case OPT_VERSION:
			printf("pathdoctor %s\n", PD_VERSION);
			*done = EXIT_CLEAN;
			return 0;
		case OPT_LIST_FORMATS: list_formats(); *done = 0; return 0;
		case OPT_LIST_RULES: list_rules(); *done = 0; return 0;
		case OPT_EXPLAIN: *done = explain(optarg); return 0;
		case OPT_FAIL_ON:
			if (pd_level_parse(optarg, &cfg->fail_on) != 0) {
				fprintf(stderr, "pathdoctor: --fail-on: '%s' is "
				    "not info, low, medium, high or off\n",
				    optarg);
				return -1;
			}
			break;
		case OPT_MIN_LEVEL: {
			enum pd_level l;

			if (pd_level_parse(optarg, &l) != 0 ||
			    l == PD_LEVEL_OFF) {
				fprintf(stderr, "pathdoctor: --min-level: '%s' "
				    "is not info, low, medium or high\n", optarg);
				return -1;
			}
			cfg->min_level = (int)l;
			break;
		}
		case OPT_MAX_MEMBERS: lim = &cfg->lim.max_members; break;
		case OPT_MAX_TOTAL: lim = &cfg->lim.max_total; size = true;
			break;
		case OPT_MAX_RATIO: lim = &cfg->lim.max_ratio; break;
		case OPT_MAX_SPOOL: lim = &cfg->lim.max_spool; size = true;
			break;
		case OPT_MAX_DEPTH: lim = &cfg->lim.max_depth; break;
		case OPT_MAX_LINE: lim = &cfg->lim.max_line; size = true; break;
		case OPT_WIDTH: lim = &cfg->width; cfg->width_given = true;
			break;
		case OPT_JOBS: lim = &cfg->jobs; cfg->jobs_given = true; break;
		case ':':
			fprintf(stderr, "pathdoctor: option '%s' needs a "
			    "value\n", argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, "pathdoctor: unknown option '%s' (see "
			    "--help)\n", argv[optind - 1]);
			return -1;
		}
		if (lim) {
			const char *name = NULL;

			for (size_t i = 0; i < PD_ARRAY_SIZE(opts); i++)
				if (opts[i].id == c)
					name = opts[i].name;
			if (number_arg(name, optarg, size, lim) != 0)
				return -1;
		}
	}
	return check_args(argc, argv, cfg);
}

/* --filter compiled once for Ethernet before any member is read: an
 * expression libpcap refuses is a usage error, with its message. */
static int
check_filter(const struct config *cfg)
{
	char err[512];

	if (!cfg->filter)
		return 0;
	if (!pd_filter_set(cfg->filter, err, sizeof(err))) {
		fprintf(stderr, "pathdoctor: --filter '%s': %s\n", cfg->filter,
		    err);
		return -1;
	}
	return 0;
}

static bool
is_jsonl(const struct config *cfg)
{
	return cfg->format && strcmp(cfg->format, "jsonl") == 0;
}

/* -f jsonl: many bundles, stdin once, a map only for one. */
static int
check_jsonl(int argc, char **argv, const struct config *cfg)
{
	int n_stdin = 0;

	for (int i = optind; i < argc; i++)
		n_stdin += strcmp(argv[i], "-") == 0;
	if (n_stdin > 1) {
		fprintf(stderr, "pathdoctor: stdin (-) can be one of the "
		    "bundles, once\n");
		return -1;
	}
	if (cfg->jobs_given && (cfg->jobs < 1 ||
	    cfg->jobs > PD_BATCH_JOBS_MAX)) {
		fprintf(stderr, "pathdoctor: -j: between 1 and %d\n",
		    PD_BATCH_JOBS_MAX);
		return -1;
	}
	if (cfg->dump_model || (cfg->redact_map && argc - optind > 1)) {
		fprintf(stderr, "pathdoctor: -f jsonl: %s\n", cfg->dump_model ?
		    "--dump-model reads one bundle, as -f md" : "--redact-map "
		    "with one bundle only (each bundle's tokens are its own; "
		    "--redact masks them all)");
		return -1;
	}
	return 0;
}

/* What the options allow together, once they are all read. */
static int
check_args(int argc, char **argv, const struct config *cfg)
{
	if (cfg->format && !is_jsonl(cfg) && !pd_renderer_find(cfg->format)) {
		fprintf(stderr, "pathdoctor: -f: '%s' is not md, json, jsonl, "
		    "term or html\n", cfg->format);
		return -1;
	}
	if (cfg->diff && cfg->format && !pd_diff_renderer_find(cfg->format)) {
		fprintf(stderr, "pathdoctor: diff: -f %s: a diff is written as "
		    "md, json or term\n", cfg->format);
		return -1;
	}
	if ((cfg->only && check_rule_list(cfg->only, "--only") != 0) ||
	    (cfg->skip && check_rule_list(cfg->skip, "--skip") != 0))
		return -1;
	if (cfg->lim.max_line == 0 || cfg->lim.max_line > (1u << 30)) {
		fprintf(stderr, "pathdoctor: --max-line: between 1 and 1G\n");
		return -1;
	}
	if (cfg->width_given && (cfg->width < PD_WIDTH_MIN ||
	    cfg->width > PD_WIDTH_MAX)) {
		fprintf(stderr, "pathdoctor: --width: between %d and %d\n",
		    PD_WIDTH_MIN, PD_WIDTH_MAX);
		return -1;
	}
	if (cfg->diff && cfg->dump_model) {
		fprintf(stderr, "pathdoctor: diff: --dump-model reads one "
		    "bundle\n");
		return -1;
	}
	if (cfg->diff && cfg->min_level >= 0) {
		fprintf(stderr, "pathdoctor: diff: --min-level reads one "
		    "bundle (a finding hidden on one side would read as "
		    "resolved or new)\n");
		return -1;
	}
	if (!cfg->diff && cfg->fail_on_regression) {
		fprintf(stderr, "pathdoctor: --fail-on-regression: only with "
		    "diff BEFORE AFTER\n");
		return -1;
	}
	if (cfg->diff && optind != argc - 2) {
		fprintf(stderr, "pathdoctor: diff: %s (see --help)\n",
		    optind >= argc - 1 ? "two bundles needed, BEFORE and AFTER" :
		    "two bundles, BEFORE and AFTER, no more");
		return -1;
	}
	if (!cfg->diff && optind != argc - 1 && !(is_jsonl(cfg) &&
	    optind < argc)) {
		fprintf(stderr, "pathdoctor: %s (see --help)\n",
		    optind >= argc ? "no bundle given" : "one bundle at a time, "
		    "or -f jsonl for one JSON line per bundle");
		return -1;
	}
	if (cfg->jobs_given && (cfg->diff || !is_jsonl(cfg))) {
		fprintf(stderr, "pathdoctor: -j: bundles at once, for -f jsonl "
		    "(and ingest); one bundle is analysed in one process\n");
		return -1;
	}
	if (!cfg->diff && is_jsonl(cfg) && check_jsonl(argc, argv, cfg) != 0)
		return -1;
	return check_filter(cfg);
}

static const char *
pick_format(const struct config *cfg, FILE *out)
{
	if (cfg->format)
		return cfg->format;
	return isatty(fileno(out)) ? "term" : "md";
}

/* One bundle read, finalized and reported. */
struct loaded {
	struct pd_model *m;
	struct pd_findings fs;
	struct pd_coverage cov;
	struct pd_report r;
};

static int
load(const struct config *cfg, const char *bundle, struct loaded *l,
    const char *side)
{
	char err[512];

	l->m = pd_model_new();
	pd_findings_init(&l->fs, pd_model_arena(l->m));
	if (pd_bundle_read(bundle, &cfg->lim, l->m, &l->cov, err,
	    sizeof(err)) != 0) {
		fprintf(stderr, "pathdoctor: %s%s%s\n", side ? side : "",
		    side ? ": " : "", pd_term_text(pd_model_arena(l->m), err));
		return EXIT_BUNDLE;
	}
	pd_model_finalize(l->m);
	return EXIT_CLEAN;
}

static void
report(const struct config *cfg, const char *bundle, struct loaded *l)
{
	const struct pd_rule_filter filter = { rule_filter, cfg };

	pd_report_build_min(&l->r, bundle, l->m, &l->cov, &l->fs, &filter,
	    cfg->min_level);
}

static void
unload(struct loaded *l)
{
	if (!l->m)
		return;
	pd_findings_release(&l->fs);
	pd_model_free(l->m);
}

static int
fail_on(const struct config *cfg, const struct pd_findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		if (cfg->fail_on != PD_LEVEL_OFF &&
		    pd_finding_level(fs->v[i]) >= cfg->fail_on)
			return EXIT_FINDINGS;
	return EXIT_CLEAN;
}

static FILE *
open_output(const struct config *cfg)
{
	FILE *out;

	if (!cfg->output)
		return stdout;
	if (!(out = fopen(cfg->output, "w")))
		perror(cfg->output);
	return out;
}

static int
close_output(const struct config *cfg, FILE *out, int rc)
{
	if (out && out != stdout && fclose(out) != 0) {
		perror(cfg->output);
		return EXIT_BUNDLE;
	}
	return rc;
}

/* --redact: the models' host names and serials known before rendering
 * (both bundles of a diff, BEFORE's first). */
static void
redact_models(const struct config *cfg, const struct pd_model *m1,
    const struct pd_model *m2)
{
	if (!cfg->redact)
		return;
	pd_redact_enable();
	pd_redact_model(m1);
	pd_redact_model(m2);
}

/* --redact-map FILE written once the output is; a full map said. */
static int
redact_finish(const struct config *cfg, int rc)
{
	FILE *f;

	if (cfg->redact && pd_redact_overflow())
		fprintf(stderr, "pathdoctor: --redact: the map is full (%d "
		    "values): %lu more occurrences masked as {redacted}\n",
		    PD_REDACT_MAX, pd_redact_overflow());
	if (!cfg->redact_map || !pd_redact_enabled())
		return rc;
	if (!(f = fopen(cfg->redact_map, "w")) ||
	    (pd_redact_write_map(f) | fclose(f)) != 0) {
		perror(cfg->redact_map);
		return rc == EXIT_CLEAN ? EXIT_BUNDLE : rc;
	}
	return rc;
}

static int
run(const struct config *cfg, const char *bundle)
{
	struct loaded l = { 0 };
	FILE *out = NULL;
	int rc = load(cfg, bundle, &l, NULL);

	if (rc != EXIT_CLEAN)
		goto out;
	if (!(out = open_output(cfg))) {
		rc = EXIT_USAGE;
		goto out;
	}
	redact_models(cfg, l.m, NULL);
	if (cfg->dump_model) {
		pd_model_dump(l.m, out);
		goto out;
	}
	report(cfg, bundle, &l);
	l.r.brief = cfg->brief;
	const struct pd_renderer *ren = pd_renderer_find(pick_format(cfg, out));

	l.r.color = ren->colour && pd_term_colour(fileno(out));
	l.r.width = pd_term_width(fileno(out), (unsigned)cfg->width);
	if (ren->render(&l.r, out) != 0) {
		fprintf(stderr, "pathdoctor: writing the report failed\n");
		rc = EXIT_BUNDLE;
	}
	if (l.r.nothing_read && rc == EXIT_CLEAN)
		rc = EXIT_NOTHING;
	if (rc == EXIT_CLEAN)
		rc = fail_on(cfg, &l.fs);
out:
	rc = redact_finish(cfg, close_output(cfg, out, rc));
	unload(&l);
	return rc;
}

/* pathdoctor diff BEFORE AFTER: both read and reported, then compared;
 * the diff lives in AFTER's arena. */
static int
run_diff(const struct config *cfg, const char *before, const char *after)
{
	struct loaded b = { 0 }, a = { 0 };
	FILE *out = NULL;
	int rc;

	if (strcmp(before, "-") == 0 && strcmp(after, "-") == 0) {
		fprintf(stderr, "pathdoctor: diff: stdin can be one of the "
		    "bundles, not both\n");
		return EXIT_USAGE;
	}
	if ((rc = load(cfg, before, &b, "BEFORE")) != EXIT_CLEAN ||
	    (rc = load(cfg, after, &a, "AFTER")) != EXIT_CLEAN)
		goto out;
	if (!(out = open_output(cfg))) {
		rc = EXIT_USAGE;
		goto out;
	}
	report(cfg, before, &b);
	report(cfg, after, &a);
	b.r.width = a.r.width = pd_term_width(fileno(out), (unsigned)cfg->width);
	redact_models(cfg, b.m, a.m);
	struct pd_diff d;

	pd_diff_build(&d, &b.r, &a.r, pd_model_arena(a.m));
	if (pd_diff_renderer_find(pick_format(cfg, out))->render(&d, out) != 0) {
		fprintf(stderr, "pathdoctor: writing the diff failed\n");
		rc = EXIT_BUNDLE;
	}
	if ((b.r.nothing_read || a.r.nothing_read) && rc == EXIT_CLEAN)
		rc = EXIT_NOTHING;
	if (rc == EXIT_CLEAN && cfg->fail_on_regression && d.regression)
		rc = EXIT_FINDINGS;
	if (rc == EXIT_CLEAN)
		rc = fail_on(cfg, &a.fs);
out:
	rc = redact_finish(cfg, close_output(cfg, out, rc));
	unload(&b);
	unload(&a);
	return rc;
}

static int
write_line(const char *line, size_t len, void *ctx)
{
	FILE *out = ctx;

	/* flushed per line: a reader of a pipe gets each as it is done */
	return fwrite(line, 1, len, out) == len && fflush(out) == 0 ? 0 : -1;
}

/* -f jsonl BUNDLE...: src/fleet/batch.c runs them. */
static int
run_jsonl(const struct config *cfg, char *const *bundles, size_t n)
{
	const struct pd_rule_filter filter = { rule_filter, cfg };
	const struct pd_batch_opts o = { .lim = &cfg->lim, .rules = &filter,
		.min_level = cfg->min_level, .fail_on = cfg->fail_on,
		.redact = cfg->redact, .redact_map = cfg->redact_map,
		.jobs = (unsigned)cfg->jobs, .status = true };
	FILE *out = open_output(cfg);

	if (!out)
		return EXIT_USAGE;
	int rc = pd_batch_run(&o, bundles, n, write_line, out);

	if (rc != EXIT_CLEAN && rc != EXIT_FINDINGS && rc != EXIT_NOTHING)
		rc = EXIT_BUNDLE;
	return close_output(cfg, out, rc);
}

int
main(int argc, char **argv)
{
	struct config cfg = { .fail_on = PD_LEVEL_OFF, .min_level = -1 };
	int done;

	pd_big_heap();

	if (argc > 1 && pd_fleet_is_command(argv[1]))
		return pd_fleet_main(argc - 1, argv + 1);
	pd_limits_default(&cfg.lim);
	cfg.lim.term_text = pd_term_text;
	if (argc > 1 && strcmp(argv[1], "diff") == 0) {
		cfg.diff = true;
		argv++;		/* "diff" stands where the program name was */
		argc--;
	}
	if (parse_args(argc, argv, &cfg, &done) != 0)
		return EXIT_USAGE;
	if (done >= 0)
		return done;
	/* the fleet's workers are forked: no thread before them */
	pd_big_threads(!cfg.lim.one_thread && !is_jsonl(&cfg));
	int rc = cfg.diff ? run_diff(&cfg, argv[optind], argv[optind + 1]) :
	    is_jsonl(&cfg) ? run_jsonl(&cfg, argv + optind,
	    (size_t)(argc - optind)) : run(&cfg, argv[optind]);

	pd_filter_set(NULL, NULL, 0);
	return rc;
}
