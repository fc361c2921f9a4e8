#!/bin/sh
# The command line end to end: exit codes, options, every bundle kind and
# broken input.  One "ok"/"not ok" line per check.
set -u
. tests/lib.sh
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1 TZ=UTC LC_ALL=C

# expect CODE NAME ARGS...: pathdoctor ARGS exits with CODE
expect() {
	want=$1 name=$2
	shift 2
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		echo "ok cli $name"
	else
		echo "not ok cli $name: exit $got, want $want"
		sed 's/^/#   /' "$tmp/err"
	fi
}

# grep_out NAME PATTERN FILE: the last run's FILE (out or err) matches
grep_out() {
	if grep -q -- "$2" "$tmp/$3"; then
		echo "ok cli $1"
	else
		echo "not ok cli $1: no '$2' in std$3"
	fi
}

s=samples/gx10-before.tgz
expect 2 no-bundle
expect 2 unknown-option --bogus "$s"
expect 2 bad-format -f xml "$s"
expect 2 bad-rule --only no.such-rule "$s"
expect 2 bad-level --fail-on severe "$s"
expect 2 bad-size --max-total lots "$s"
expect 2 two-bundles "$s" "$s"
expect 2 explain-unknown --explain no.such-rule
expect 0 version --version
grep_out version-text "pathdoctor 0" out
expect 0 help --help
for o in format output list-formats list-rules explain only skip \
    dump-model fail-on max-members max-total max-ratio max-spool brief \
    max-depth max-line one-thread min-level filter version help; do
	grep -q -- "--$o" "$tmp/out" || echo "not ok cli help-lists-$o"
done
echo "ok cli help-lists-every-option"
expect 3 missing-bundle "$tmp/nope.tgz"
grep_out missing-bundle-says "nope.tgz" err

expect 0 md "$s"
grep_out md-has-finding "pcie.mps-below-capability" out
cp "$tmp/out" "$tmp/first"
expect 0 md-again "$s"
if cmp -s "$tmp/out" "$tmp/first"; then echo "ok cli deterministic"
else echo "not ok cli deterministic"; fi
expect 0 output-file -o "$tmp/report.md" "$s"
if cmp -s "$tmp/report.md" "$tmp/first"; then echo "ok cli output-file-same"
else echo "not ok cli output-file-same"; fi
expect 0 json -f json "$s"
grep_out json-schema '"schema": 1' out
expect 0 not-a-tty-is-md "$s"
grep_out not-a-tty-is-md-text "^# pathdoctor report" out
expect 1 fail-on-medium --fail-on medium "$s"
expect 1 fail-on-high --fail-on high "$s"
expect 0 fail-on-high-clean --fail-on high samples/gx10-after.tgz
expect 0 fail-on-off --fail-on off "$s"
expect 0 fail-on-clean-bundle --fail-on low samples/gx10-after.tgz
# --min-level hides what is below it from the report and from --fail-on
expect 1 min-level-fail-on --only nic.lro-off --fail-on low \
    samples/sosreport-gx10-20251124.tgz
expect 0 min-level-hides-fail-on --only nic.lro-off --min-level medium \
    --fail-on low samples/sosreport-gx10-20251124.tgz
expect 0 min-level-json --min-level medium -f json "$s"
grep_out min-level-json-count '"count": 1' out
grep_out min-level-json-level '"level": "medium"' out
expect 0 no-min-level-json -f json "$s"
grep_out no-min-level-json-null '"hidden_below_level": null' out
expect 2 bad-min-level --min-level off "$s"

# --filter: an expression libpcap refuses is a usage error, with its
# message and the expression, before any member is read (a missing
# bundle or stdin is not even opened)
expect 2 filter-bad --filter 'tcp port 44x20' "$s"
grep_out filter-bad-says \
    "^pathdoctor: --filter 'tcp port 44x20': unknown port" err
expect 2 filter-bad-before-reading --filter 'host' "$tmp/nope.tgz"
grep_out filter-bad-syntax "can't parse filter expression" err
expect 2 filter-bad-stdin --filter 'tcp port' - </dev/null
expect 2 filter-bad-diff diff --filter 'udp and' "$s" "$s"
expect 2 filter-no-value --filter
# a matching expression through a gzip'd lone pcap, stdin and a diff
gzip -nc samples/bundles/gx10-before/pcap/nic2.pcap >"$tmp/nic2.pcap.gz"
expect 0 filter-gz -f json --filter 'tcp port 4420' "$tmp/nic2.pcap.gz"
grep_out filter-gz-json '"filter": "tcp port 4420"' out
grep_out filter-gz-read '"packets_read": ' out
"$bin" -f md --filter 'tcp src port 4420' - <"$s" >"$tmp/out" 2>&1
grep_out filter-stdin 'packets matched; every figure below' out
expect 0 filter-diff diff -f md --filter 'tcp' samples/pve-gso-before.tgz \
    samples/pve-gso-after.tgz
grep_out filter-diff-says 'Filter .tcp.: BEFORE' out
expect 0 no-filter-json -f json "$s"
if grep -q '"filter"\|"packets_read"' "$tmp/out"; then
	echo "not ok cli no-filter-no-field"
else
	echo "ok cli no-filter-no-field"
fi
expect 2 diff-min-level diff --min-level high "$s" samples/gx10-after.tgz
# a profile without per-CPU core types: "all CPUs" takes a plural verb
mkdir "$tmp/nocpu"
tar -xzf samples/gx10-kernel-before.tgz -C "$tmp/nocpu"
find "$tmp/nocpu" \( -name '*cpuinfo*' -o -name '*lscpu*' \) -exec rm -f {} +
expect 0 all-cpus -f md "$tmp/nocpu"
grep_out all-cpus-spend "[Aa]ll CPUs spend [0-9.]* % of their busy samples" out
expect 0 skip-group --skip pcie,nic,iommu,workload "$s"
grep_out skip-group-none "No findings" out
expect 0 only-rule --only pcie.mps-below-capability -f json "$s"
mkdir "$tmp/unknown"
printf 'hello\n' >"$tmp/unknown/notes.txt"
printf 'x=1\n' >"$tmp/unknown/settings.ini"
expect 4 nothing-read -f md "$tmp/unknown"
grep_out nothing-read-said "none of the 2 members is a format" out
expect 4 nothing-read-json -f json "$tmp/unknown"
grep_out nothing-read-json-said '"nothing_read": "none of the 2' out
expect 0 directory samples/bundles/gx10-before
grep_out directory-finding "0002:01:00.0" out
"$bin" - <"$s" >"$tmp/out" 2>&1 && grep -q "0000:01:00.0" "$tmp/out" &&
    echo "ok cli stdin" || echo "not ok cli stdin"
expect 0 zip -f json tests/fuzz/corpus/bundle/bundle.zip
grep_out zip-member '"format": "lspci-tv"' out

gzip -dc "$s" >"$tmp/plain.tar"
expect 0 plain-tar "$tmp/plain.tar"
# every compression gives the .tgz's report (but for the bundle's name)
"$bin" -f json "$s" | grep -v '^  "bundle": ' >"$tmp/tgz.json"
for c in xz bzip2 zstd lz4 lzma; do
	if command -v $c >/dev/null 2>&1; then
		$c -c "$tmp/plain.tar" >"$tmp/b.tar.$c"
		expect 0 "tar-$c" "$tmp/b.tar.$c"
		grep_out "tar-$c-finding" "0000:01:00.0" out
		"$bin" -f json "$tmp/b.tar.$c" | grep -v '^  "bundle": ' \
		    >"$tmp/c.json"
		if cmp -s "$tmp/c.json" "$tmp/tgz.json"; then
			echo "ok cli tar-$c-same-as-tgz"
		else
			echo "not ok cli tar-$c-same-as-tgz"
		fi
	else
		echo "not ok cli tar-$c # SKIP $c not installed"
	fi
done
# cut: the members before the cut analysed, the cut member's note naming
# the stream's damage, the bundle's note naming where the walk stopped
# (bzip2 -1: blocks of 100 kB, so that some precede the cut)
cut_bundle() {
	cb=$1 cf=$2 says=$3	# expect sets name
	head -c $(($(wc -c <"$cf") / 2)) "$cf" >"$tmp/cut-$cb"
	expect 0 "cut-$cb" -f json "$tmp/cut-$cb"
	grep_out "cut-$cb-member-before" '"path": "gx10-before/lspci-vv.txt"' out
	grep_out "cut-$cb-member-says" "read error after [0-9]* bytes: $says" out
	grep_out "cut-$cb-bundle-says" '"archive unreadable after .gx10-before/' out
}
if command -v zstd >/dev/null 2>&1; then
	cut_bundle tar.zst "$tmp/b.tar.zstd" "zstd stream truncated after"
fi
if command -v bzip2 >/dev/null 2>&1; then
	bzip2 -1 -c "$tmp/plain.tar" >"$tmp/b1.tar.bz2"
	cut_bundle tar.bz2 "$tmp/b1.tar.bz2" "truncated bzip2 input"
fi
# zstd'd members (a capture, a profile) are unwrapped as gzip'd ones are:
# the same findings, the member named as stored
if command -v zstd >/dev/null 2>&1; then
	mkdir "$tmp/zm"
	cp -R samples/bundles/gx10-before "$tmp/zm/"
	zstd -q --rm "$tmp/zm/gx10-before/pcap/nic2.pcap"
	gzip -dc "$tmp/zm/gx10-before/perf.data.gz" |
	    zstd -q -o "$tmp/zm/gx10-before/perf.data.zst"
	rm "$tmp/zm/gx10-before/perf.data.gz"
	tar -C "$tmp/zm" -czf "$tmp/zm.tgz" gx10-before
	expect 0 zstd-members -f json "$tmp/zm.tgz"
	grep '"rule": ' "$tmp/out" >"$tmp/zm.rules"
	if grep '"rule": ' "$tmp/tgz.json" | cmp -s - "$tmp/zm.rules"; then
		echo "ok cli zstd-members-same-findings"
	else
		echo "not ok cli zstd-members-same-findings"
	fi
	grep_out zstd-member-pcap '"path": "gx10-before/pcap/nic2.pcap.zst"' out
else
	echo "not ok cli zstd-members # SKIP zstd not installed"
fi
gzip -c samples/bundles/gx10-before/lspci-vv.txt >"$tmp/lspci.txt.gz"
expect 0 lone-gzipped-file -f json "$tmp/lspci.txt.gz"
grep_out lone-gzipped-lspci '"format": "lspci-vv"' out

# broken input: a clear note or error, exit 0 or 3, never a crash
head -c 1500 "$s" >"$tmp/cut.tgz"
"$bin" "$tmp/cut.tgz" >"$tmp/out" 2>"$tmp/err"
rc=$?
if { [ $rc -eq 0 ] && grep -q "truncated\|unreadable" "$tmp/out"; } ||
    { [ $rc -eq 3 ] && grep -q "truncated" "$tmp/err"; }; then
	echo "ok cli truncated-gzip"
else
	echo "not ok cli truncated-gzip: exit $rc"
fi
# decompression on a second thread changes timing only: the same report,
# exit code and notes as on one thread, whole or cut anywhere
head -c $(($(wc -c <"$s") / 2)) "$s" >"$tmp/half.tgz"
for b in samples/*.tgz "$tmp"/b.tar.* "$tmp/b1.tar.bz2" "$tmp"/cut-tar.* \
    "$tmp/cut.tgz" "$tmp/half.tgz"; do
	[ -f "$b" ] || continue
	"$bin" -f json "$b" >"$tmp/two" 2>"$tmp/two.err"
	rc2=$?
	"$bin" --one-thread -f json "$b" >"$tmp/one" 2>"$tmp/one.err"
	rc1=$?
	ran "cli one-thread-same $(basename "$b") (two threads)" $rc2 \
	    "$tmp/two.err" 0 3 || continue
	ran "cli one-thread-same $(basename "$b") (one thread)" $rc1 \
	    "$tmp/one.err" 0 3 || continue
	if [ $rc1 -eq $rc2 ] && cmp -s "$tmp/one" "$tmp/two" &&
	    cmp -s "$tmp/one.err" "$tmp/two.err"; then
		echo "ok cli one-thread-same $(basename "$b")"
	else
		echo "not ok cli one-thread-same $(basename "$b"): exit $rc1/$rc2"
	fi
done
head -c 12000 "$tmp/plain.tar" >"$tmp/half.tar"
expect 0 half-tar "$tmp/half.tar"
grep_out half-tar-note "Truncated tar archive" out
head -c 4096 /dev/urandom >"$tmp/lspci.txt"
expect 4 binary-lspci "$tmp/lspci.txt"
grep_out binary-lspci-note "does not match" out
{ head -n 20 samples/bundles/gx10-before/lspci-vv.txt
  printf '\t'; head -c 10485760 /dev/zero | tr '\0' x; echo
  tail -n +21 samples/bundles/gx10-before/lspci-vv.txt; } >"$tmp/lspci-vv.txt"
expect 0 ten-mb-line "$tmp/lspci-vv.txt"
grep_out ten-mb-line-note "line cap" out
: >"$tmp/empty.tgz"
expect 3 empty-bundle "$tmp/empty.tgz"
grep_out empty-bundle-says "empty" err
tar -cf "$tmp/empty.tar" --files-from /dev/null
expect 3 empty-tar "$tmp/empty.tar"

# the collector's manifest: what it could not gather shows beside the
# rules it kept from being evaluated
mkdir -p "$tmp/collected"
printf '# pathdoctor-collect manifest 1\ncollector\tpathdoctor-collect 0.1.0\nskip\tlspci-vv\tlspci-vv.txt\tlspci not installed\nrun\t1\t0\tethtool-a\tethtool-a/eth0.txt\tethtool -a eth0\n' \
    >"$tmp/collected/manifest.txt"
cp samples/bundles/gx10-before/uname.txt "$tmp/collected/"
expect 0 manifest -f json "$tmp/collected"
grep_out manifest-identified '"format": "manifest"' out
expect 0 manifest-md "$tmp/collected"
grep_out manifest-gap "could not gather \`lspci-vv.txt\`: lspci not installed" out
grep_out manifest-failed-run "'ethtool -a eth0' exited with 1" out

# a hostile bundle: escape sequences, HTML, Markdown links, invalid UTF-8
# and NULs in member names, the uname release, the kernel command line
# and an interface name reach no report raw, and the rest is analysed
if command -v python3 >/dev/null 2>&1; then
	python3 tests/hostile.py make samples/bundles/gx10-before \
	    "$tmp/hostile.tar"
	for f in md term json model; do
		if [ "$f" = model ]; then set -- --dump-model; else set -- -f "$f"; fi
		"$bin" "$@" "$tmp/hostile.tar" >"$tmp/h.$f" 2>"$tmp/err"
		ran "cli hostile-$f" $? "$tmp/err" &&
		    python3 tests/hostile.py check "$f" "$tmp/h.$f"
	done
	# pathdoctor diff prints what changed: the hostile release and
	# command line reach it as text too
	for f in md term json; do
		"$bin" diff -f "$f" samples/gx10-before.tgz "$tmp/hostile.tar" \
		    >"$tmp/d.$f" 2>"$tmp/err"
		ran "cli hostile-diff-$f" $? "$tmp/err" &&
		    python3 tests/hostile.py check "diff-$f" "$tmp/d.$f"
	done
else
	echo "not ok cli hostile # SKIP python3 not installed"
fi

# the JSON report follows formats/report.schema.json
if command -v python3 >/dev/null 2>&1 &&
    python3 -c 'import jsonschema' >/dev/null 2>&1; then
	for b in samples/*.tgz "$tmp/half.tar" \
	    "$tmp/lspci.txt" tests/fuzz/corpus/bundle/nested.tar \
	    tests/data tests/data-workload tests/data-during tests/data-wlrules \
	    tests/data-uploads "$tmp/hostile.tar"; do
		"$bin" -f json "$b" >"$tmp/r.json" 2>"$tmp/err"
		ran "cli json-schema $(basename "$b")" $? "$tmp/err" 0 4 ||
		    continue
		if python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])),
    json.load(open("formats/report.schema.json")))' "$tmp/r.json"; then
			echo "ok cli json-schema $(basename "$b")"
		else
			echo "not ok cli json-schema $(basename "$b")"
		fi
	done
	"$bin" -f json --min-level high "$s" >"$tmp/r.json" 2>"$tmp/err"
	if python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])),
    json.load(open("formats/report.schema.json")))' "$tmp/r.json"; then
		echo "ok cli json-schema min-level"
	else
		echo "not ok cli json-schema min-level"
	fi
else
	echo "not ok cli json-schema # SKIP python3-jsonschema not installed"
fi

# the JSON diff follows formats/diff.schema.json
if command -v python3 >/dev/null 2>&1 &&
    python3 -c 'import jsonschema' >/dev/null 2>&1; then
	for p in gx10-kernel-before:gx10-after gx10-spdk-before:gx10-spdk-after \
	    pve-gso-before:pve-gso-after gx10-kernel-before:gx10-strict-after \
	    gx10-after:gx10-half-after; do
		n="${p%%:*}..${p#*:}"
		"$bin" diff -f json "samples/${p%%:*}.tgz" "samples/${p#*:}.tgz" \
		    >"$tmp/d.json" 2>"$tmp/err"
		ran "cli diff-schema $n" $? "$tmp/err" || continue
		if python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])),
    json.load(open("formats/diff.schema.json")))' "$tmp/d.json"; then
			echo "ok cli diff-schema $n"
		else
			echo "not ok cli diff-schema $n"
		fi
	done
else
	echo "not ok cli diff-schema # SKIP python3-jsonschema not installed"
fi

# pathdoctor diff: two bundles, at most one of them stdin; with
# --fail-on-regression, exit 1 when AFTER regressed
expect 2 diff-one-bundle diff samples/gx10-after.tgz
grep_out diff-one-bundle-says "pathdoctor: diff: " err
expect 2 diff-html diff -f html samples/gx10-kernel-before.tgz samples/gx10-after.tgz
expect 2 diff-stdin-twice diff - - </dev/null
expect 1 diff-fail-on-regression diff --fail-on-regression \
    samples/gx10-after.tgz samples/gx10-half-after.tgz
expect 0 diff-no-regression diff --fail-on-regression \
    samples/gx10-kernel-before.tgz samples/gx10-after.tgz

# libpcap is loaded when a capture (or --filter) first needs it: a
# bundle without one never maps it (src/decode/pcaplib.h)
# loaded NAME PATTERN ARGS...: the loader's record of the run of
# pathdoctor ARGS names (PATTERN starting with "!": does not name)
loaded() {
	name=$1 pat=$2
	shift 2
	LD_DEBUG=files "$bin" "$@" >/dev/null 2>"$tmp/ld"
	if grep -q "file=${pat#!}" "$tmp/ld"; then hit=1; else hit=0; fi
	case $pat in !*) hit=$((1 - hit)) ;; esac
	if [ $hit -eq 1 ]; then
		echo "ok cli $name"
	else
		echo "not ok cli $name: the loader's record of $* and $pat"
	fi
}
loaded libpcap-not-loaded-without-capture '!libpcap' -f json \
    samples/gx10-after.tgz
loaded libpcap-loaded-for-capture libpcap -f json samples/gx10-before.tgz
loaded libpcap-loaded-for-filter libpcap -f json --filter tcp \
    samples/gx10-after.tgz

# A directory's members are had whole where they lie (an ELF file's
# pages mapped, a member passed over not read): the report is the one
# the same members give read from a tar, also where the window or the
# total cap cuts the reading short
mkdir -p "$tmp/inplace"
cp "$bin" "$tmp/inplace/exe"
head -c 100000 "$bin" >"$tmp/inplace/cut-exe"
head -c 63 "$bin" >"$tmp/inplace/tiny"
head -c 300000 /dev/zero >"$tmp/inplace/zeros.bin"
printf 'ffffffff81000000 T _text\nffffffff81000010 t x\n' \
    >"$tmp/inplace/kallsyms"
cp "$tmp/inplace/kallsyms" "$tmp/inplace/kallsyms-again"
# captures over the 1 MiB a directory member is read ahead in for the
# walk's views (src/bundle/bundle.c), whole and cut inside a record
cap=samples/bundles/pve-gso-before/pve/pcap/tap100i0.pcap
{
	head -c 24 "$cap"
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do tail -c +25 "$cap"; done
} >"$tmp/inplace/w-big.pcap"
head -c 2500003 "$tmp/inplace/w-big.pcap" >"$tmp/inplace/w-cut.pcap"
tar cf "$tmp/inplace.tar" --sort=name -C "$tmp/inplace" .
for opts in "" "--max-spool 1M" "--max-total 2M"; do
	# shellcheck disable=SC2086
	"$bin" -f json $opts "$tmp/inplace" | grep -v '"bundle":' >"$tmp/d"
	# shellcheck disable=SC2086
	"$bin" -f json $opts "$tmp/inplace.tar" | grep -v '"bundle":' \
	    >"$tmp/t"
	# (the total cap is spent before the captures, named to come last)
	if cmp -s "$tmp/d" "$tmp/t" && grep -q '"elf"' "$tmp/d" &&
	    { [ "$opts" = "--max-total 2M" ] || grep -q '"pcap"' "$tmp/d"; }
	then
		echo "ok cli dir-in-place-as-tar${opts:+ $opts}"
	else
		echo "not ok cli dir-in-place-as-tar${opts:+ $opts}"
		diff "$tmp/d" "$tmp/t" | head -n 10 | sed 's/^/#   /'
	fi
done

# kallsyms' "[module]" names the module's functions in the profile, also
# where a module's symbols come in more than one run
mkdir -p "$tmp/modules"
cp -r samples/bundles/gx10-before/. "$tmp/modules"
awk '$3 ~ /^mlx5e_/ || $3 == "tcp_v4_rcv" { print $0 "\t[mlx5_core]"; next }
    $3 == "dev_gro_receive" { print $0 " [gro_mod]"; next } { print }' \
    samples/bundles/gx10-before/kallsyms.txt >"$tmp/modules/kallsyms.txt"
expect 0 kallsyms-modules -f md "$tmp/modules"
grep_out kallsyms-module-first \
    '| mlx5e_skb_from_cqe_mpwrq_nonlinear | \\\[mlx5_core\\\] |' out
grep_out kallsyms-module-again '| tcp_v4_rcv | \\\[mlx5_core\\\] |' out
grep_out kallsyms-module-other '| dev_gro_receive | \\\[gro_mod\\\] |' out
grep_out kallsyms-module-none '| tcp_gro_receive | \\\[kernel.kallsyms\\\] |' out

# A whole /proc/kallsyms (1 MiB or more) of a directory bundle is read on
# a thread of its own: the report, --dump-model and the notes are those
# of --one-thread and of the same bundle as a .tgz (read in turn), also
# where the copy shows its notes need the reading in turn: every address
# 0 (kallsyms.zero), a line over the 1 MiB line cap
# (input.line-too-long), no address but 0 in its first 1024 lines.
big_kallsyms() {
	mkdir -p "$tmp/$1"
	cp -r samples/bundles/gx10-before/. "$tmp/$1"
	awk -v mode="$1" 'BEGIN {
		if (mode == "ksyms-late")
			for (i = 0; i < 1100; i++)
				printf "0000000000000000 A percpu_%d\n", i
	}
	{ print }
	END {
		for (i = 0; i < 50000; i++)
			printf "%016x %s filler_fn_%d%s\n",
			    0xffff800090000000 + i * 64, i % 7 ? "t" : "T", i,
			    i % 1000 < 3 ? "\t[filler_mod_" int(i / 1000) "]" : ""
		if (mode == "ksyms-long") {
			printf "ffff8000a0000000 T "
			for (i = 0; i < 1200000; i += 100)
				printf "%s", "long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_long_"
			printf "\n"
		}
	}' samples/bundles/gx10-before/kallsyms.txt >"$tmp/$1/kallsyms.txt"
	if [ "$1" = ksyms-zero ]; then
		sed 's/^[0-9a-f]*/0000000000000000/' "$tmp/$1/kallsyms.txt" \
		    >"$tmp/$1/k" && mv "$tmp/$1/k" "$tmp/$1/kallsyms.txt"
	fi
	tar -C "$tmp/$1" -czf "$tmp/$1.tgz" .
}
for kind in ksyms-big ksyms-zero ksyms-long ksyms-late; do
	big_kallsyms "$kind"
	for f in "-f json" "--dump-model"; do
		# shellcheck disable=SC2086
		"$bin" $f "$tmp/$kind" | grep -v '"bundle":\|^bundle' >"$tmp/a"
		# shellcheck disable=SC2086
		"$bin" --one-thread $f "$tmp/$kind" |
		    grep -v '"bundle":\|^bundle' >"$tmp/b"
		# shellcheck disable=SC2086
		"$bin" $f "$tmp/$kind.tgz" | grep -v '"bundle":\|^bundle' \
		    >"$tmp/c"
		if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b" &&
		    cmp -s "$tmp/a" "$tmp/c"; then
			echo "ok cli $kind $f"
		else
			echo "not ok cli $kind $f: not the same each way"
			diff "$tmp/a" "$tmp/b" | head -n 6 | sed 's/^/#   /'
			diff "$tmp/a" "$tmp/c" | head -n 6 | sed 's/^/#   /'
		fi
	done
done
expect 0 ksyms-big-named -f md "$tmp/ksyms-big"
grep_out ksyms-big-names '| mlx5e_skb_from_cqe_mpwrq_nonlinear |' out
"$bin" --dump-model "$tmp/ksyms-big" >"$tmp/out" 2>&1
grep_out ksyms-big-count 'kallsyms: 500[0-9][0-9] text symbols' out
"$bin" -f json "$tmp/ksyms-zero" >"$tmp/out" 2>&1
grep_out ksyms-zero-note '"kallsyms.zero"' out
"$bin" -f json "$tmp/ksyms-long" >"$tmp/out" 2>&1
grep_out ksyms-long-note '"input.line-too-long"' out
