# shellcheck shell=sh disable=SC2034,SC2154
# Shared by the test scripts (sourced, from the repository root); the
# variables named below are set or read by the scripts that source it.

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

# no_corpus NAME [DIR]: true when the shared corpus (or its DIR) is absent,
# after printing "not ok NAME # SKIP corpus not found", or in CI (CI=true),
# where the corpus is required, a failure.
no_corpus() {
	[ -d "${2:-$corpus}" ] && return 1
	if [ "${CI:-}" = true ]; then
		echo "not ok $1 corpus not found (CI requires it)"
	else
		echo "not ok $1 # SKIP corpus not found"
	fi
}

# no_netns NAME TOOL...: true, after "ok NAME # SKIP REASON", when the
# tests of NAME cannot make network namespaces here: not root, a TOOL
# missing, or ip netns failing as it does in a container or chroot
# without the rights (probed once with a scratch namespace, both made
# and entered, since a container can refuse either).  A skip is no
# failure: the machine cannot run the test, the code is not at fault.
no_netns() {
	_name=$1
	shift
	_why=
	if [ "$(id -u)" -ne 0 ]; then
		_why="not root: network namespaces need it"
	fi
	for _tool in ip "$@"; do
		[ -n "$_why" ] && break
		command -v "$_tool" >/dev/null 2>&1 || _why="$_tool not installed"
	done
	_ns=pdprobe$$
	if [ -z "$_why" ] && ! _err=$(ip netns add "$_ns" 2>&1); then
		_why="cannot create a network namespace: $_err"
	elif [ -z "$_why" ]; then
		_err=$(ip netns exec "$_ns" true 2>&1) ||
		    _why="cannot enter a network namespace: $_err"
		ip netns del "$_ns" 2>/dev/null
	fi
	[ -n "$_why" ] || return 1
	# one line, as the runner reads it
	echo "ok $_name # SKIP $(printf '%s' "$_why" | tr '\n' ' ')"
}

# Golden tests (tests/golden/LIST; run-golden.sh, update-golden.sh); they
# set bin and corpus first.
# golden_entries: the lines of tests/golden/LIST that are entries.
golden_entries() {
	grep -v '^#' tests/golden/LIST | grep -v '^[[:space:]]*$'
}

# golden_want FIELD: sets want to N of an "exit=N" field; false for any
# other field.
golden_want() {
	case $1 in
	exit= | exit=*[!0-9]*) return 1 ;;
	exit=*) want=${1#exit=} ;;
	*) return 1 ;;
	esac
}

# golden_run INPUT OPTIONS OUT: pathdoctor OPTIONS INPUT with stdout and
# stderr into OUT and its exit status in got; an INPUT "corpus:PATH" runs
# inside the corpus, and is false, without running, when that is absent.
# OPTIONS are read as the shell reads them, so that a value with spaces
# can be quoted ('tcp port 4420').
golden_run() {
	case $1 in
	corpus:*)
		[ -d "$corpus" ] || return 1
		(cd "$corpus" && eval "\"\$bin\" $2 \"\${1#corpus:}\"") \
		    >"$3" 2>&1 </dev/null
		;;
	*)
		eval "\"\$bin\" $2 \"\$1\"" >"$3" 2>&1 </dev/null
		;;
	esac
	got=$?
}
