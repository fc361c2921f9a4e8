# shellcheck shell=sh
# Shared by the test scripts (sourced, from the repository root).

# ran NAME STATUS ERRFILE [CODE...]: true when a command's exit STATUS is
# one of CODE (default 0).  Otherwise prints "not ok NAME: exit STATUS"
# and the head of its stderr, and is false, so that a loop goes on to
# its next input and a crash on one input is a failure, never checks
# that silently did not run:
#   "$bin" -f json "$f" >"$out" 2>"$err"; ran "tshark $f" $? "$err" || continue
ran() {
	_name=$1 _status=$2 _err=$3
	shift 3
	[ $# -gt 0 ] || set -- 0
	for _code in "$@"; do
		[ "$_status" -eq "$_code" ] && return 0
	done
	echo "not ok $_name: exit $_status, want $*"
	grep -v '^=*$' "$_err" | head -n 5 | sed 's/^/#   /'
	return 1
}
