#!/bin/sh
# Hostile bundles made at test time: every decompression layer under the
# total and ratio caps, a cap ending only the member (or nested archive)
# that broke it, xz dictionaries and zstd windows under memory bounds,
# many tiny members, a stalled stdin.  Each case checks the exit code, the
# note naming the member, a sibling still analysed, and peak memory; the
# large ones also that twice the input costs less than three times the
# time.  Sizes sit just above lowered caps, so the whole runs in seconds.
set -u
. tests/lib.sh
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1 TZ=UTC LC_ALL=C
# the sanitizer's quarantine of freed blocks would count as peak memory
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8"
u=samples/bundles/gx10-before/uname.txt
PEAK_KB=262144

# run NAME CODE ARGS...: pathdoctor ARGS, its exit code checked; its
# peak memory in $kb (0 when it cannot be measured)
run() {
	name=$1 want=$2
	shift 2
	kb=0
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$tmp/rss" "$bin" "$@" >"$tmp/out" \
		    2>"$tmp/err"
		got=$?
		kb=$(tail -n 1 "$tmp/rss")
	else
		"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
		got=$?
	fi
	ran "caps $name" "$got" "$tmp/err" "$want" && echo "ok caps $name"
}

# member NAME PATH FORMAT STATUS [NOTE]: the last run's JSON report
# lists PATH with that format and status (and a note that starts NOTE)
member() {
	if python3 - "$tmp/out" "$2" "$3" "$4" "${5:-}" <<'PY'
import json, sys
out, path, fmt, status, note = sys.argv[1:]
ms = json.load(open(out)).get("members", [])
sys.exit(0 if any(m["path"] == path and m["format"] == fmt and
                  m["status"] == status and
                  (not note or any(n["message"].startswith(note)
                                   for n in m["notes"])) for m in ms) else 1)
PY
	then echo "ok caps $1"
	else echo "not ok caps $1: no member $2 ($3, $4${5:+, $5}) in the report"
	fi
}

# has NAME PATTERN: the last run's report matches
has() {
	if grep -q -- "$2" "$tmp/out"; then echo "ok caps $1"
	else echo "not ok caps $1: no '$2' in the report"; fi
}

peak() {
	if [ "$kb" -eq 0 ]; then
		echo "ok caps $1-peak # SKIP /usr/bin/time not installed"
	elif [ "$kb" -lt $PEAK_KB ]; then
		echo "ok caps $1-peak"
	else
		echo "not ok caps $1-peak: ${kb} KB"
	fi
}

# scales NAME MAKE ARGS...: "MAKE N OUT" builds an input of size N; the
# run on size 2N takes less than three times the CPU time of the run on
# N (tests/linear.py)
scales() {
	name=$1 mk=$2
	shift 2
	if ! $mk 1 "$tmp/n1" || ! $mk 2 "$tmp/n2"; then
		echo "not ok caps $name-scales: cannot build the inputs"
		return
	fi
	python3 tests/linear.py "caps $name-scales" -- "$bin" "$@" "$tmp/n1" \
	    -- "$bin" "$@" "$tmp/n2"
}

# a .tgz of zeros between two unames: its own stream breaks the ratio
# (the readahead inflates it, so libarchive sees plain tar)
top_tgz() {
	d=$tmp/top$1
	mkdir -p "$d/a" "$d/b" "$d/c"
	cp $u "$d/a/uname.txt"
	cp $u "$d/c/uname.txt"
	head -c $(($1 * 40))M /dev/zero >"$d/b/zeros"
	tar -C "$d" -czf "$2" a b c && rm -rf "$d"
}
top_tgz 1 "$tmp/top.tgz"
run top-tgz-ratio 0 -f json --max-ratio 100 "$tmp/top.tgz"
has top-tgz-ratio-note "walk stopped: the bundle's compressed stream is over 100:1.*'b/zeros'"
member top-tgz-ratio-sibling a/uname.txt uname ok
peak top-tgz-ratio
cp "$tmp/out" "$tmp/two"
run top-tgz-ratio-one-thread 0 -f json --one-thread --max-ratio 100 \
    "$tmp/top.tgz"
if cmp -s "$tmp/out" "$tmp/two"; then echo "ok caps top-tgz-one-thread-same"
else echo "not ok caps top-tgz-one-thread-same"; fi
scales top-tgz top_tgz --max-ratio 100

# a gzip'd member in a .tar.xz: a layer of its own, under both caps
gz_member() {
	d=$tmp/gzm$1
	mkdir -p "$d/a" "$d/b"
	head -c $(($1 * 40))M /dev/zero | gzip -c >"$d/a/zeros.gz"
	cp $u "$d/b/uname.txt"
	tar -C "$d" -cJf "$2" a/zeros.gz b/uname.txt && rm -rf "$d"
}
gz_member 1 "$tmp/gzm.tar.xz"
run gz-member-ratio 0 -f json --max-ratio 100 "$tmp/gzm.tar.xz"
member gz-member-ratio-note a/zeros.gz unknown failed \
    "gzip'd member 'a/zeros.gz' is over 100:1"
member gz-member-ratio-sibling b/uname.txt uname ok
peak gz-member-ratio
scales gz-member gz_member --max-ratio 100
mkdir -p "$tmp/gzt/a" "$tmp/gzt/b"
cp $u "$tmp/gzt/a/uname.txt"
head -c 16M /dev/zero | gzip -c >"$tmp/gzt/b/zeros.gz"
tar -C "$tmp/gzt" -cJf "$tmp/gzt.tar.xz" a b
run gz-member-total 0 -f json --max-total 8M "$tmp/gzt.tar.xz"
has gz-member-total-note "walk stopped: decompressed bytes over the bundle's cap of 8388608 (--max-total) in 'b/zeros.gz'; the cap is spent"
member gz-member-total-member b/zeros.gz unknown failed "cut short"
member gz-member-total-before a/uname.txt uname ok
peak gz-member-total

# a .tgz in a .tgz, and a .tar.zst in a tar: the nested bomb ends
# itself (the member's gzip or zstd layer), and the member after it is
# read
mkdir -p "$tmp/nest/a" "$tmp/nest/b" "$tmp/bomb/b"
head -c 40M /dev/zero >"$tmp/bomb/b/zeros"
tar -C "$tmp/bomb" -czf "$tmp/nest/a/bomb.tgz" b
cp $u "$tmp/nest/b/uname.txt"
tar -C "$tmp/nest" -czf "$tmp/nest.tgz" a b
run nested-tgz 0 -f json --max-ratio 100 "$tmp/nest.tgz"
member nested-tgz-note a/bomb.tgz archive failed \
    "gzip'd member 'a/bomb.tgz' is over 100:1"
member nested-tgz-inner a/bomb.tgz/b/zeros unknown failed "cut short"
member nested-tgz-sibling b/uname.txt uname ok
peak nested-tgz
if command -v zstd >/dev/null 2>&1; then
	rm "$tmp/nest/a/bomb.tgz"
	tar -C "$tmp/bomb" -cf - b | zstd -q -c >"$tmp/nest/a/bomb.tar.zst"
	tar -C "$tmp/nest" -cf "$tmp/nest.tar" a b
	run nested-zst 0 -f json --max-ratio 100 "$tmp/nest.tar"
	member nested-zst-note a/bomb.tar.zst archive failed \
	    "zstd'd member 'a/bomb.tar.zst' is over 100:1"
	member nested-zst-inner a/bomb.tar.zst/b/zeros unknown failed \
	    "cut short"
	member nested-zst-sibling b/uname.txt uname ok
	peak nested-zst
else
	echo "ok caps nested-zst # SKIP zstd not installed"
fi
rm -rf "$tmp/bomb" "$tmp/nest"

# xz whose block header declares a 3 GiB dictionary: refused, named
if command -v python3 >/dev/null 2>&1; then
	mkdir -p "$tmp/xzd/a" "$tmp/xzd/b"
	tar -C "$tmp/gzt" -cf - a | xz -c >"$tmp/small.tar.xz"
	python3 tests/xz-dict.py "$tmp/small.tar.xz" "$tmp/xzd/a/inner.tar.xz" 39
	cp $u "$tmp/xzd/b/uname.txt"
	tar -C "$tmp/xzd" -czf "$tmp/xzd.tgz" a b
	run xz-dict-member 0 -f json "$tmp/xzd.tgz"
	member xz-dict-member-note a/inner.tar.xz unknown failed \
	    "cannot read: xz stream needs 3072 MiB"
	member xz-dict-member-sibling b/uname.txt uname ok
	peak xz-dict-member
	run xz-dict-bundle 3 "$tmp/xzd/a/inner.tar.xz"
	if grep -q "inner.tar.xz: xz stream needs 3072 MiB" "$tmp/err"; then
		echo "ok caps xz-dict-bundle-says"
	else
		echo "not ok caps xz-dict-bundle-says"
	fi
else
	echo "ok caps xz-dict # SKIP python3 not installed"
fi

# zstd whose frame header declares a 2 GiB window: refused, named; a
# frame before it is read
if command -v python3 >/dev/null 2>&1 && command -v zstd >/dev/null 2>&1
then
	tar -C "$tmp/gzt" -cf - a | zstd -q -c >"$tmp/small.tar.zst"
	python3 tests/zstd-window.py "$tmp/small.tar.zst" "$tmp/inner.tar.zst" 31
	mkdir -p "$tmp/zwd/a" "$tmp/zwd/b"
	cp "$tmp/inner.tar.zst" "$tmp/zwd/a/"
	cp $u "$tmp/zwd/b/uname.txt"
	tar -C "$tmp/zwd" -czf "$tmp/zwd.tgz" a b
	run zstd-window-member 0 -f json "$tmp/zwd.tgz"
	member zstd-window-member-note a/inner.tar.zst unknown failed \
	    "cannot read: zstd frame needs a 2048 MiB window"
	member zstd-window-member-sibling b/uname.txt uname ok
	peak zstd-window-member
	run zstd-window-bundle 3 "$tmp/inner.tar.zst"
	if grep -q "inner.tar.zst: zstd frame needs a 2048 MiB window" \
	    "$tmp/err"; then
		echo "ok caps zstd-window-bundle-says"
	else
		echo "not ok caps zstd-window-bundle-says"
	fi
	tar -C "$tmp/gzt" -cf "$tmp/zw.tar" a b
	head -c 2048 "$tmp/zw.tar" | zstd -q -c >"$tmp/first.zst"
	tail -c +2049 "$tmp/zw.tar" | zstd -q -c >"$tmp/rest.zst"
	python3 tests/zstd-window.py "$tmp/rest.zst" "$tmp/rest-2g.zst" 31
	cat "$tmp/first.zst" "$tmp/rest-2g.zst" >"$tmp/zw.tar.zst"
	run zstd-window-later 0 -f json "$tmp/zw.tar.zst"
	member zstd-window-later-before a/uname.txt uname ok
	has zstd-window-later-note "zstd frame needs a 2048 MiB window"
	peak zstd-window-later
	cp "$tmp/out" "$tmp/two"
	run zstd-window-later-one-thread 0 -f json --one-thread \
	    "$tmp/zw.tar.zst"
	if cmp -s "$tmp/out" "$tmp/two"; then
		echo "ok caps zstd-window-one-thread-same"
	else
		echo "not ok caps zstd-window-one-thread-same"
	fi
else
	echo "ok caps zstd-window # SKIP python3 or zstd not installed"
fi

# many tiny members: past the listed ones, counted, not listed
many() {
	python3 tests/many-members.py "$2" $(($1 * 6000)) $u
}
if command -v python3 >/dev/null 2>&1; then
	many 1 "$tmp/many.tgz"
	run many-members 0 -f json "$tmp/many.tgz"
	has many-members-note "4001 more members of no format pathdoctor reads"
	has many-members-sibling '"path": "a/uname.txt"'
	peak many-members
	scales many-members many -f json
else
	echo "ok caps many-members # SKIP python3 not installed"
fi

# a stalled stdin: said on a terminal after 1 s, then read to its end
if command -v script >/dev/null 2>&1; then
	script -qec "(cat samples/gx10-before.tgz; sleep 2) | $bin - \
	    >$tmp/out" /dev/null >"$tmp/tty" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q "waiting for input on stdin" "$tmp/tty" &&
	    grep -q "0000:01:00.0" "$tmp/out"; then
		echo "ok caps stdin-stall"
	else
		echo "not ok caps stdin-stall: exit $rc"
	fi
	(cat samples/gx10-before.tgz; sleep 2) | "$bin" - >/dev/null \
	    2>"$tmp/err"
	if [ -s "$tmp/err" ]; then echo "not ok caps stdin-stall-quiet"
	else echo "ok caps stdin-stall-quiet"; fi
else
	echo "ok caps stdin-stall # SKIP script not installed"
fi
