# shellcheck shell=sh
# Shared by the benchmark scripts (sourced): median of a column of
# numbers, the median wall time of RUNS runs of a shell command, and
# two commands timed in turn.
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# once CMD: the wall time of one run, whatever its exit status; timed
# by tests/bench-peak.py, around the command alone, where python3 is
# (else between two date commands, which add their own start-up)
once() {
	if command -v python3 >/dev/null 2>&1; then
		python3 tests/bench-peak.py --line "$1" | cut -d' ' -f1
		return
	fi
	s=$(date +%s.%N)
	sh -c "$1" >/dev/null 2>&1 || :
	e=$(date +%s.%N)
	awk "BEGIN { printf \"%.4f\\n\", $e - $s }"
}
# timeit CMD [N]: N runs (default $runs)
timeit() {
	i=0
	while [ $i -lt "${2:-$runs}" ]; do
		once "$1"
		i=$((i + 1))
	done | median
}
# pairtime A B [N]: N runs of each, in turn (A B, then B A, and so
# on, so that neither always goes first), so that the machine's drift
# from one minute to the next (up to 1.8x here) falls on both alike;
# prints A's median, B's median and the median of the N ratios A/B of
# runs side by side, the ratio to quote
pairtime() {
	pt=$(mktemp)
	i=0
	while [ $i -lt "${3:-$runs}" ]; do
		if [ $((i % 2)) -eq 0 ]; then
			a=$(once "$1")
			b=$(once "$2")
		else
			b=$(once "$2")
			a=$(once "$1")
		fi
		awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f %.3f %.4f\n", a, b,
		    (b > 0 ? a / b : 0) }' >>"$pt"
		i=$((i + 1))
	done
	echo "$(cut -d' ' -f1 "$pt" | median) $(cut -d' ' -f2 "$pt" |
	    median) $(cut -d' ' -f3 "$pt" | median)"
	rm -f "$pt"
}
