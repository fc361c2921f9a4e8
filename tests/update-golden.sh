#!/bin/sh
# Regenerates golden outputs (tests/golden/LIST, see run-golden.sh):
#   sh tests/update-golden.sh [-e] BIN [NAME...]
# all of them without names.  An output is written only when pathdoctor
# exits with the status that its entry records (exit=N); another status
# is reported and nothing is written, so that an error cannot be frozen
# into a golden.  With -e the new status is recorded in the entry
# instead.  Exits 1 when anything was refused.  Review the diff before
# committing.
set -u
. tests/lib.sh
record=
if [ "${1:-}" = -e ]; then
	record=1
	shift
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
corpus=${PD_CORPUS:-../shared/corpus}
export TZ=UTC LC_ALL=C NO_COLOR=1
# the terminal of whoever runs them must not change the layout
unset COLUMNS
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.out" "$tmp.list"' EXIT
golden_entries >"$tmp"
refused=0
for n in "$@"; do
	if ! awk -v n="$n" '$1 == n { found = 1 } END { exit !found }' "$tmp"
	then
		echo "refused $n: no such entry in tests/golden/LIST"
		refused=1
	fi
done
while read -r name input field opts; do
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue ;; esac
	fi
	if ! golden_want "$field"; then
		echo "refused $name: no exit=N after its input in tests/golden/LIST"
		refused=1
		continue
	fi
	if ! golden_run "$input" "$opts" "$tmp.out"; then
		echo "skip $name: no corpus"
		continue
	fi
	if [ "$got" -ne "$want" ]; then
		if [ -z "$record" ]; then
			echo "refused $name: pathdoctor exited with $got, its" \
			    "entry records exit=$want (-e records the new status)"
			head -n 5 "$tmp.out" | sed 's/^/    /'
			refused=1
			continue
		fi
		awk -v n="$name" -v s="exit=$got" '$1 == n && !done {
		    sub(/exit=[0-9]+/, s); done = 1 } { print }' \
		    tests/golden/LIST >"$tmp.list" &&
		    cat "$tmp.list" >tests/golden/LIST
		echo "recorded exit=$got for $name in tests/golden/LIST"
	fi
	cp "$tmp.out" "tests/golden/$name.out"
	echo "updated tests/golden/$name.out"
done <"$tmp"
exit $refused
