#!/bin/sh
# Hostile bundles made at test time (tests/gen-hostile.py) cost bounded
# memory and linear time: a gzip'd 1 GiB ELF member whose .symtab lies
# in its middle, and a perf script of 20000 samples each named by its
# own 50 KB symbol.  For each: the exit status, the note, a peak RSS
# (the child's ru_maxrss) under 256 MB, and the time of the input at n
# and at 2n (CPU seconds) as a ratio under 3.  Under AddressSanitizer the quarantine
# of freed blocks is kept small, so that what ASan holds back is not
# counted as the program's.  One "ok"/"not ok" line per check.
#   sh tests/hostile-memory.sh BIN
set -u
bin=$1
gen=tests/gen-hostile.py
if ! command -v python3 >/dev/null 2>&1; then
	echo "ok hostile # SKIP python3 is not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
limit_kb=262144

# check NAME BUNDLE NOTE: exit 0, NOTE among the report's notes, peak
# RSS under the limit; the run's seconds in $secs
check() {
	python3 "$gen" run "$bin" "$2" >"$tmp/run"
	read -r rc rss secs notes <"$tmp/run"
	if [ "$rc" -eq 0 ]; then
		echo "ok hostile $1: exit 0"
	else
		echo "not ok hostile $1: exit $rc, want 0"
	fi
	case ",$notes," in
	*",$3,"*) echo "ok hostile $1: note $3" ;;
	*) echo "not ok hostile $1: no note $3 (notes: $notes)" ;;
	esac
	if [ "$rss" -lt "$limit_kb" ]; then
		echo "ok hostile $1: peak $((rss / 1024)) MB"
	else
		echo "not ok hostile $1: peak $((rss / 1024)) MB, over" \
		    "$((limit_kb / 1024)) MB"
	fi
}

# ratio NAME T1 T2 BUNDLE_N BUNDLE_2N: T2 (input 2n) under 3 times T1
# (input n), measured again when over the line (tests/linear.py)
ratio() {
	python3 tests/linear.py "hostile $1" "$2" "$3" -- "$bin" -f json "$4" \
	    -- "$bin" -f json "$5"
}

python3 "$gen" elf "$tmp/elf-512m.tgz" 512
python3 "$gen" elf "$tmp/elf-1g.tgz" 1024
check elf-512m "$tmp/elf-512m.tgz" elf.window
t1=$secs
check elf-1g "$tmp/elf-1g.tgz" elf.window
ratio elf-time "$t1" "$secs" "$tmp/elf-512m.tgz" "$tmp/elf-1g.tgz"
rm -f "$tmp"/elf-*.tgz

python3 "$gen" script "$tmp/script-10k.tgz" 10000 50000
python3 "$gen" script "$tmp/script-20k.tgz" 20000 50000
check script-10k "$tmp/script-10k.tgz" profile.names
t1=$secs
check script-20k "$tmp/script-20k.tgz" profile.names
ratio script-time "$t1" "$secs" "$tmp/script-10k.tgz" \
    "$tmp/script-20k.tgz"
