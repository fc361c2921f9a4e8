#!/bin/sh
# Golden tests: each entry of tests/golden/LIST is "NAME INPUT exit=N
# [OPTIONS]"; pathdoctor OPTIONS INPUT must exit with status N and print
# (stdout and stderr together) exactly tests/golden/NAME.out.  An INPUT
# "corpus:PATH" is read from the shared corpus (PD_CORPUS, else
# ../shared/corpus) and skipped when that is absent (a failure when
# CI=true).  Prints a TAP plan,
# one result per entry.
set -u
. tests/lib.sh
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(pwd)
corpus=${PD_CORPUS:-../shared/corpus}
export TZ=UTC LC_ALL=C NO_COLOR=1
# the terminal of whoever runs them must not change the layout
unset COLUMNS
out=$(mktemp)
trap 'rm -f "$out" "$out.list"' EXIT
golden_entries >"$out.list"
echo "1..$(wc -l <"$out.list" | tr -d ' ')"
while read -r name input field opts; do
	if ! golden_want "$field"; then
		echo "not ok golden $name: no exit=N after its input in" \
		    "tests/golden/LIST"
		continue
	fi
	if ! golden_run "$input" "$opts" "$out"; then
		no_corpus "golden $name"
		continue
	fi
	if [ "$got" -ne "$want" ]; then
		echo "not ok golden $name: exit $got, want $want"
		head -n 5 "$out" | sed 's/^/#   /'
	elif diff -u "$root/tests/golden/$name.out" "$out"; then
		echo "ok golden $name"
	else
		echo "not ok golden $name (tests/update-golden.sh $name after review)"
	fi
done <"$out.list"
