#!/bin/sh
# The decompressing thread under ThreadSanitizer: every sample, the same
# bundle in every compressed form, a bundle large enough that the ring of
# blocks wraps many times, bundles cut at several points, reads a cap
# stops early, stdin, a reader of the report that goes away, and diff;
# the thread that adds a large profile's samples, whole and cut, the
# one that reads a whole kallsyms, and the one that faults fresh pages in.
# Each run must end without a race report, and the threaded report must
# equal the --one-thread one.  One "ok"/"not ok" line per check.
#   sh tests/tsan.sh build/san-thread/pathdoctor
set -u
bin=${1:-build/san-thread/pathdoctor}
if [ ! -x "$bin" ]; then
	echo "ok tsan # SKIP no ThreadSanitizer build at $bin (make check-build SANITIZE=thread)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1 TZ=UTC LC_ALL=C
# a race is a failure of its own exit status, whatever pathdoctor says
export TSAN_OPTIONS="exitcode=66 halt_on_error=1 second_deadlock_stack=1"

# clean NAME CMD: CMD (a shell line) ran without a ThreadSanitizer report
clean() {
	name=$1
	sh -c "$2" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 66 ] || grep -q 'ThreadSanitizer' "$tmp/err"; then
		echo "not ok tsan $name: a ThreadSanitizer report (exit $rc)"
		sed -n '1,40s/^/#   /p' "$tmp/err"
		return 1
	fi
	echo "ok tsan $name"
}

# same NAME BUNDLE [OPTIONS]: clean threaded and on one thread, same bytes
same() {
	name=$1 b=$2
	shift 2
	clean "$name" "'$bin' -f json $* '$b'" || return
	mv "$tmp/out" "$tmp/two"
	clean "$name one-thread" "'$bin' --one-thread -f json $* '$b'" || return
	if cmp -s "$tmp/out" "$tmp/two"; then
		echo "ok tsan $name same bytes on one thread"
	else
		echo "not ok tsan $name: the report differs with --one-thread"
	fi
}

for b in samples/*.tgz; do
	same "$(basename "$b")" "$b"
done

# one bundle in every form the second thread reads, plus 8 MB that do
# not compress, so the producer runs well ahead of the walker; the plain
# tar, over 8 MB, goes through the ring too, as a file and from stdin
dir=$tmp/big
mkdir -p "$dir"
cp -R samples/bundles/gx10-before/. "$dir/"
head -c 8388608 /dev/urandom >"$dir/noise.bin"
tar -C "$dir" -cf "$tmp/big.tar" .
gzip -c "$tmp/big.tar" >"$tmp/big.tgz"
forms="$tmp/big.tar $tmp/big.tgz"
if command -v xz >/dev/null 2>&1; then
	xz -c "$tmp/big.tar" >"$tmp/big.tar.xz"
	forms="$forms $tmp/big.tar.xz"
fi
if command -v zstd >/dev/null 2>&1; then
	zstd -q -c "$tmp/big.tar" >"$tmp/big.tar.zst"
	forms="$forms $tmp/big.tar.zst"
fi
if command -v bzip2 >/dev/null 2>&1; then
	bzip2 -c "$tmp/big.tar" >"$tmp/big.tar.bz2"
	forms="$forms $tmp/big.tar.bz2"
fi
for b in $forms; do
	n=$(basename "$b")
	same "$n" "$b"
	size=$(wc -c <"$b")
	for pct in 5 50 97; do
		head -c $((size * pct / 100)) "$b" >"$tmp/cut"
		clean "$n cut at $pct %" "'$bin' -f json '$tmp/cut'"
	done
	# caps that end the read while the producer is still filling
	clean "$n --max-total 200K" "'$bin' -f json --max-total 200K '$b'"
	clean "$n --max-members 2" "'$bin' -f json --max-members 2 '$b'"
	clean "$n --max-ratio 2" "'$bin' -f json --max-ratio 2 '$b'"
	clean "$n from stdin" "'$bin' -f json - <'$b'"
	# the report's reader leaves after a few bytes
	clean "$n reader gone" "'$bin' -f json '$b' | head -c 16"
done
# a profile of 4 times the sample's samples (about 40000): past the
# first 8192 a second thread adds them (formats/perf_data_queue.c), also
# in a file cut in the middle of its samples
if python3 samples/gen-perf.py "$tmp/prof" 4 >/dev/null 2>&1; then
	p=$tmp/prof/gx10-before
	same "profile of 40000 samples" "$p"
	mkdir -p "$tmp/prof-cut"
	cp "$p/kallsyms.txt" "$tmp/prof-cut/"
	gzip -dc "$p/perf.data.gz" >"$tmp/perf.data"
	size=$(wc -c <"$tmp/perf.data")
	head -c $((size / 2)) "$tmp/perf.data" >"$tmp/prof-cut/perf.data"
	same "profile cut at 50 %" "$tmp/prof-cut"
	rm -rf "$tmp/prof" "$tmp/prof-cut" "$tmp/perf.data"
else
	echo "not ok tsan profile: samples/gen-perf.py failed"
fi
# a whole kallsyms (over 1 MiB) of a directory bundle, read on a thread
# of its own while the walk goes on to the profile; also with the total
# cap spent inside it
kdir=$tmp/kallsyms
mkdir -p "$kdir"
cp -R samples/bundles/gx10-before/. "$kdir/"
awk '{ print } END { for (i = 0; i < 50000; i++)
	printf "%016x t filler_fn_%d\n", 0xffff800090000000 + i * 64, i }' \
    samples/bundles/gx10-before/kallsyms.txt >"$kdir/kallsyms.txt"
same "kallsyms on its own thread" "$kdir"
same "kallsyms on its own thread, --max-total 1M" "$kdir" --max-total 1M
rm -rf "$kdir"
clean "diff of two threaded bundles" \
    "'$bin' diff -f json samples/gx10-before.tgz samples/gx10-after.tgz"
clean "diff, BEFORE on stdin" \
    "'$bin' diff -f json - samples/gx10-after.tgz <samples/gx10-before.tgz"
