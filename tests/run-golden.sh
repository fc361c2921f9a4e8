#!/bin/sh
# Golden tests: each line of tests/golden/LIST is "NAME INPUT [OPTIONS]";
# the output of pathdoctor OPTIONS INPUT must equal tests/golden/NAME.out.
# An INPUT "corpus:PATH" is read from the shared corpus (PD_CORPUS, else
# ../shared/corpus) and skipped when that is absent.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(pwd)
corpus=${PD_CORPUS:-../shared/corpus}
export TZ=UTC LC_ALL=C NO_COLOR=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
grep -v '^#' tests/golden/LIST | grep -v '^$' |
while read -r name input opts; do
	case $input in
	corpus:*)
		if [ ! -d "$corpus" ]; then
			echo "not ok golden $name # SKIP corpus not found"
			continue
		fi
		# shellcheck disable=SC2086
		(cd "$corpus" && "$bin" $opts "${input#corpus:}") >"$out" 2>&1
		;;
	*)
		# shellcheck disable=SC2086
		"$bin" $opts "$input" >"$out" 2>&1
		;;
	esac
	if diff -u "$root/tests/golden/$name.out" "$out"; then
		echo "ok golden $name"
	else
		echo "not ok golden $name (tests/update-golden.sh $name after review)"
	fi
done
