#!/bin/sh
# Runs every test layer against the sanitizer build in $1 and ends with
# one summary line: "check: N passed, N failed, N skipped".
#   unit     cmocka tests (tests/unit), TAP output
#   golden   reports and model dumps against tests/golden/*.out
#   cli      exit codes and broken input through the real binary
#   jsonl    -f jsonl over many bundles: the same bytes at every -j,
#            each line as -f json and sha256sum, failures, a killed worker
#   redact   --redact leaves no host name, serial, address, UUID or
#            user of the samples in any output
#   install  make install into a DESTDIR: programs, man pages, schemas
#   caps     hostile bundles made at test time: bombs at every layer,
#            xz dictionaries, zstd windows, many members, a stalled
#            stdin
#   progress the status lines on a terminal's stderr (a pty): stdin
#            silent, a slow member's progress; none when stderr is a file
#   tshark   capture histograms and TCP analysis against tshark's
#   pcap-records  crafted classic pcap files: the records as libpcap
#            hands them out (byte orders, versions, snap lengths, cuts)
#   perf     profile shares against perf report's (live and corpus)
#   hostile  large hostile members made at test time: bounded memory,
#            linear time, the note
#   scale    many devices, interfaces, snapshots and hosts: linear time,
#            bounded memory
#   fleet-db ingest and query: every sample into SQLite and into a
#            PostgreSQL started by the test, counts, re-ingest, dumps
#   fleet-engine  ingest spread by GNU parallel over SSH into a
#            PostgreSQL, a run killed half way, the rerun (root)
#   tsan     the decompressing thread under ThreadSanitizer: samples,
#            every compressed form, cut bundles, early stops
#   replay   the fuzz corpora and samples through the fuzz harnesses
#   samples  the sample bundles regenerate byte for byte
#   browser  the HTML report of every sample in headless Chromium: no
#            error, no request, one card per finding, not blank
#   kernel-captures  samples/capture-kernel.sh still makes captures that
#            show what the samples show (root only)
#   collect  pathdoctor-collect in network namespaces, read back (root)
# A stage also counts one failure when it exits non-zero without a "not
# ok" line of its own (a SKIP is none), or prints fewer results than a
# of its TAP plan lines "1..N" promised.
set -u
build=${1:-build/san}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

stage() {
	name=$1
	shift
	echo "== $name"
	"$@" >"$log" 2>&1
	rc=$?
	cat "$log"
	# a TAP plan "1..N" (cmocka prints one per group) promises N results
	# before the next plan: fewer, and the stage stopped on the way
	short=$(awk -v name="$name" -v rc=$rc '
	    function end_plan() {
		if (plan && got != want)
			printf "not ok %s: plan 1..%d but %d results (exit " \
			    "status %d)\n", name, want, got, rc
	    }
	    /^1\.\.[0-9]+/ { end_plan(); plan = 1; want = substr($1, 4) + 0
		got = 0; next }
	    /^(not )?ok([ \t]|$)/ { got++ }
	    END { end_plan() }' "$log")
	if [ -n "$short" ]; then
		echo "$short"
	# a SKIP is no failure, so it cannot account for a non-zero exit
	elif [ $rc -ne 0 ] && ! grep '^not ok' "$log" | grep -qv '# SKIP'; then
		echo "not ok $name exited with status $rc"
	fi
}

{
	CMOCKA_MESSAGE_OUTPUT=TAP stage unit "$build/unit-tests"
	stage golden sh tests/run-golden.sh "$build/pathdoctor"
	stage cli sh tests/cli.sh "$build/pathdoctor"
	stage jsonl python3 tests/jsonl.py "$build/pathdoctor"
	stage redact python3 tests/redact.py "$build/pathdoctor"
	stage install sh tests/install.sh
	stage caps sh tests/caps.sh "$build/pathdoctor"
	stage progress python3 tests/progress.py "$build/pathdoctor"
	stage ladder sh tests/ladder-accept.sh "$build/pathdoctor"
	stage tshark sh tests/tshark-compare.sh "$build/pathdoctor"
	stage pcap-records python3 tests/pcap-records.py "$build/pathdoctor"
	stage perf sh tests/perf-compare.sh "$build/pathdoctor"
	stage hostile sh tests/hostile-memory.sh "$build/pathdoctor"
	stage scale sh tests/scale.sh "$build/pathdoctor"
	stage fleet-db python3 tests/fleet-db.py "$build/pathdoctor"
	stage fleet-engine python3 tests/fleet-engine.py "$build/pathdoctor"
	stage tsan sh tests/tsan.sh build/san-thread/pathdoctor
	stage replay-member "$build/replay-member" tests/fuzz/corpus/member \
	    samples/bundles
	stage replay-format "$build/replay-format" tests/fuzz/corpus/member \
	    samples/bundles
	stage replay-bundle "$build/replay-bundle" tests/fuzz/corpus/bundle \
	    samples/*.tgz
	stage replay-diff "$build/replay-diff" tests/fuzz/corpus/diff \
	    samples/*.tgz
	stage samples sh tests/samples-reproducible.sh
	stage browser python3 tests/browser.py "$build/pathdoctor"
	stage kernel-captures sh tests/kernel-captures.sh "$build/pathdoctor"
	stage collect sh tests/collect.sh "$build/pathdoctor"
} >"$log.all" 2>&1
cat "$log.all"
skipped=$(grep -c '# SKIP' "$log.all")
failed=$(grep -v '# SKIP' "$log.all" | grep -c '^not ok')
passed=$(grep -v '# SKIP' "$log.all" | grep -c '^ok ')
rm -f "$log.all"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
