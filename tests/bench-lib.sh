# shellcheck shell=sh
# Shared by the benchmark scripts (sourced): median of a column of
# numbers, and the median wall time of RUNS runs of a shell command.
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# timeit CMD [N]: N runs (default $runs)
timeit() {
	i=0
	while [ $i -lt "${2:-$runs}" ]; do
		s=$(date +%s.%N)
		sh -c "$1" >/dev/null 2>&1
		e=$(date +%s.%N)
		awk "BEGIN { printf \"%.3f\\n\", $e - $s }"
		i=$((i + 1))
	done | median
}
