/* The two fleet subcommands: their options, and the loop that feeds
 * JSON lines, from stdin or made here bundle by bundle, to the ingest.
 * Each bundle is committed on its own, so a worker stopped half way
 * loses nothing already stored and a rerun (--skip-existing) finishes
 * the set. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bundle/bundle.h"
#include "fleet/batch.h"
#include "fleet/cli.h"
#include "fleet/hash.h"
#include "fleet/ingest.h"
#include "fleet/query.h"
#include "pathdoctor/arena.h"
#include "report/escape.h"
#include "fleet/schema.h"


enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_FAILED = 3 };
/* A JSON line longer than this is refused, not held: a report of the
 * largest bundles the limits admit stays far below it. */
#define LINE_MAX_BYTES (256u << 20)

struct ingest {
	struct pd_db db;
	bool skip_existing;
	unsigned long stored, skipped, failed;
	const char *where;		/* "stdin line 12", a bundle's path */
	const char **names;		/* the bundles the batch analyses */
	size_t next;			/* ... the one whose line comes next */
};

static bool
opt_db(const char *v, const char **db)
{
	*db = v;
	return true;
}

static int
take_line(void *ctx, const char *line, size_t len)
{
	struct ingest *in = ctx;
	char err[1200];

	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (pd_fleet_ingest_line(&in->db, line, len, err, sizeof(err)) ==
	    PD_DB_OK) {
		in->stored++;
		return 0;
	}
	/* the path and the message carry bundle text: escaped for the
	 * terminal stderr may be, as the one-bundle errors are */
	struct pd_arena *a = pd_arena_new();

	fprintf(stderr, "pathdoctor: ingest: %s: %s\n", pd_term_text(a,
	    in->where), pd_term_text(a, err));
	pd_arena_free(a);
	in->failed++;
	return 0;
}

static bool
skip_hash(void *ctx, const char *sha256)
{
	struct ingest *in = ctx;

	if (!in->skip_existing || !pd_fleet_have(&in->db, sha256))
		return false;
	in->skipped++;
	return true;
}

/* Reads one line into *buf; -1 at the end.  A line past the bound is
 * read to its end and reported as *too_long, not kept. */
static long
read_line(FILE *f, char **buf, size_t *cap, bool *too_long)
{
	size_t n = 0;
	int c;

	*too_long = false;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (n + 1 >= *cap && !*too_long) {
			size_t nc = *cap ? *cap * 2 : 65536;
			char *p = nc <= LINE_MAX_BYTES ? realloc(*buf, nc) : NULL;

			if (!p) {
				*too_long = true;
				continue;
			}
			*buf = p;
			*cap = nc;
		}
		if (!*too_long)
			(*buf)[n++] = (char)c;
	}
	if (c == EOF && n == 0 && !*too_long)
		return -1;
	if (*buf)
		(*buf)[n] = '\0';
	return (long)n;
}

static const char *
json_sha(const char *line)
{
	static char hex[65];
	const char *p = strstr(line, "\"sha256\":\"");

	if (!p || strlen(p + 10) < 64 || p[74] != '"')
		return NULL;
	memcpy(hex, p + 10, 64);
	hex[64] = '\0';
	return hex;
}

static void
ingest_stdin(struct ingest *in)
{
	char *buf = NULL, where[64];
	size_t cap = 0;
	bool too_long;
	long n;

	in->where = where;
	for (unsigned long ln = 1; (n = read_line(stdin, &buf, &cap,
	    &too_long)) >= 0; ln++) {
		const char *sha;

		snprintf(where, sizeof(where), "stdin line %lu", ln);
		if (too_long) {
			fprintf(stderr, "pathdoctor: ingest: %s: longer than "
			    "%u MiB, not read\n", where, LINE_MAX_BYTES >> 20);
			in->failed++;
		} else if (n > 0 && strspn(buf, " \t\r") != (size_t)n &&
		    !((sha = json_sha(buf)) && skip_hash(in, sha)))
			take_line(in, buf, (size_t)n);
	}
	free(buf);
}

/* A line of the batch runner, in the order the bundles were given. */
static int
batch_line(const char *line, size_t len, void *ctx)
{
	struct ingest *in = ctx;

	in->where = in->names[in->next++];
	return take_line(in, line, len);
}

/* The bundles analysed N at once by the batch runner (-j), each line
 * stored as it comes; --skip-existing hashes each first and leaves out
 * those stored already (a bundle that cannot be hashed is analysed, and
 * its line says why it failed). */
static void
ingest_bundles(struct ingest *in, char **bundles, size_t n,
    const struct pd_limits *lim, unsigned jobs)
{
	const char **keep = pd_xmalloc((n ? n : 1) * sizeof(*keep));
	struct pd_batch_opts o = { .lim = lim, .min_level = -1,
		.fail_on = PD_LEVEL_OFF, .jobs = jobs, .status = true };
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct pd_digest d;
		char err[256];

		if (in->skip_existing && pd_hash_path(bundles[i],
		    lim->max_members, &d, err, sizeof(err)) == 0 &&
		    skip_hash(in, d.hex))
			continue;
		keep[k++] = bundles[i];
	}
	in->names = keep;
	in->next = 0;
	if (k)
		pd_batch_run(&o, (char *const *)keep, k, batch_line, in);
	free(keep);
}

static void
ingest_usage(FILE *out)
{
	fprintf(out, "usage: pathdoctor ingest --db URL [--skip-existing] "
	    "[-j N] [BUNDLE... | -]\n\nStores each bundle's report (analysed "
	    "here, N at once, or JSON lines of -f jsonl\nread from stdin with "
	    "- or no bundle) "
	    "in the findings database, replacing the\nrows of a bundle with "
	    "the same SHA-256.  URL: a SQLite file (PATH or\nsqlite:PATH) or "
	    "postgresql://...  --skip-existing leaves a bundle whose\nhash "
	    "is stored already alone, before analysing it.\n");
}

static int
ingest_main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "skip-existing", no_argument, NULL, 's' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct ingest in = { 0 };
	const char *url = NULL;
	struct pd_limits lim;
	unsigned long jobs = 0;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "hj:", lo, NULL)) != -1) {
		if (c == 'j') {
			jobs = strtoul(optarg, &end, 10);
			if (*end || jobs < 1 || jobs > PD_BATCH_JOBS_MAX) {
				fprintf(stderr, "pathdoctor: ingest: -j: 1 to "
				    "%d bundles at once\n", PD_BATCH_JOBS_MAX);
				return EXIT_USAGE;
			}
		} else if (c == 'd')
			opt_db(optarg, &url);
		else if (c == 's')
			in.skip_existing = true;
		else if (c == 'h') {
			ingest_usage(stdout);
			return EXIT_OK;
		} else
			return EXIT_USAGE;
	}
	if (!url) {
		fprintf(stderr, "pathdoctor: ingest: --db URL needed\n");
		return EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++)
		if (strcmp(argv[i], "-") == 0 && argc - optind > 1) {
			fprintf(stderr, "pathdoctor: ingest: - (JSON lines on "
			    "stdin) stands alone, without bundles\n");
			return EXIT_USAGE;
		}
	if (pd_db_open(&in.db, url) != PD_DB_OK ||
	    pd_fleet_migrate(&in.db) != PD_DB_OK) {
		fprintf(stderr, "pathdoctor: ingest: %s\n", in.db.err);
		pd_db_close(&in.db);
		return EXIT_FAILED;
	}
	pd_limits_default(&lim);
	if (optind == argc || strcmp(argv[optind], "-") == 0)
		ingest_stdin(&in);
	else
		ingest_bundles(&in, argv + optind, (size_t)(argc - optind),
		    &lim, (unsigned)jobs);
	pd_db_close(&in.db);
	fprintf(stderr, "pathdoctor: ingest: %lu stored, %lu skipped, %lu "
	    "failed\n", in.stored, in.skipped, in.failed);
	return in.failed ? EXIT_FAILED : EXIT_OK;
}

static void
query_usage(FILE *out)
{
	fprintf(out, "usage: pathdoctor query --db URL [REPORT] [-f "
	    "md|json|term] [--since DATE]\n       [--rule ID] [--model TEXT] "
	    "[--driver NAME] [--firmware VERSION]\n       [--limit N]\n"
	    "       pathdoctor query --list | --schema\n\nREPORT (default "
	    "top-rules):\n");
	pd_fleet_query_list(out);
}

enum { Q_LIST = 256, Q_SCHEMA, Q_DUMP, Q_SINCE, Q_RULE, Q_MODEL, Q_DRIVER,
	Q_FIRMWARE, Q_LIMIT };

static int
query_main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "list", no_argument, NULL, Q_LIST },
		{ "schema", no_argument, NULL, Q_SCHEMA },
		{ "dump", no_argument, NULL, Q_DUMP },
		{ "since", required_argument, NULL, Q_SINCE },
		{ "rule", required_argument, NULL, Q_RULE },
		{ "model", required_argument, NULL, Q_MODEL },
		{ "driver", required_argument, NULL, Q_DRIVER },
		{ "firmware", required_argument, NULL, Q_FIRMWARE },
		{ "limit", required_argument, NULL, Q_LIMIT },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct pd_fleet_filter f = { .limit = 1000 };
	const char *url = NULL, *format = "md";
	bool dump = false;
	struct pd_db db;
	char *end;
	int c, rc;

	while ((c = getopt_long(argc, argv, "f:h", lo, NULL)) != -1) {
		switch (c) {
		case 'd': opt_db(optarg, &url); break;
		case 'f': format = optarg; break;
		case Q_LIST: pd_fleet_query_list(stdout); return EXIT_OK;
		case Q_SCHEMA: pd_fleet_schema_print(stdout); return EXIT_OK;
		case Q_DUMP: dump = true; break;
		case Q_SINCE: f.since = optarg; break;
		case Q_RULE: f.rule = optarg; break;
		case Q_MODEL: f.model = optarg; break;
		case Q_DRIVER: f.driver = optarg; break;
		case Q_FIRMWARE: f.firmware = optarg; break;
		case Q_LIMIT:
			f.limit = strtol(optarg, &end, 10);
			if (*end || f.limit < 1) {
				fprintf(stderr, "pathdoctor: query: --limit: "
				    "'%s' is not a count\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': query_usage(stdout); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (strcmp(format, "md") && strcmp(format, "json") &&
	    strcmp(format, "term")) {
		fprintf(stderr, "pathdoctor: query: -f: '%s' is not md, json or "
		    "term\n", format);
		return EXIT_USAGE;
	}
	if (!url || optind < argc - 1) {
		fprintf(stderr, "pathdoctor: query: %s (see query --help)\n",
		    url ? "one report at a time" : "--db URL needed");
		return EXIT_USAGE;
	}
	if (pd_db_open(&db, url) != PD_DB_OK ||
	    pd_fleet_migrate(&db) != PD_DB_OK) {
		fprintf(stderr, "pathdoctor: query: %s\n", db.err);
		pd_db_close(&db);
		return EXIT_FAILED;
	}
	rc = dump ? pd_fleet_dump(&db, stdout) : pd_fleet_query(&db,
	    optind < argc ? argv[optind] : "top-rules", &f, format, stdout);
	if (rc == PD_DB_ERR || rc == PD_DB_RETRY)
		fprintf(stderr, "pathdoctor: query: %s\n", db.err);
	pd_db_close(&db);
	return rc == PD_FLEET_USAGE ? EXIT_USAGE : rc != PD_DB_OK ? EXIT_FAILED : EXIT_OK;
}

bool
pd_fleet_is_command(const char *arg)
{
	return strcmp(arg, "ingest") == 0 || strcmp(arg, "query") == 0;
}

int
pd_fleet_main(int argc, char **argv)
{
	return strcmp(argv[0], "ingest") == 0 ? ingest_main(argc, argv) :
	    query_main(argc, argv);
}
