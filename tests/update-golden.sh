#!/bin/sh
# Regenerates golden outputs: sh tests/update-golden.sh BIN [NAME...]
# (all of them without names).  Review the diff before committing.
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
root=$(pwd)
corpus=${PD_CORPUS:-../shared/corpus}
export TZ=UTC LC_ALL=C NO_COLOR=1
grep -v '^#' tests/golden/LIST | grep -v '^$' |
while read -r name input opts; do
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue ;; esac
	fi
	case $input in
	corpus:*)
		[ -d "$corpus" ] || { echo "skip $name: no corpus"; continue; }
		# shellcheck disable=SC2086
		(cd "$corpus" && "$bin" $opts "${input#corpus:}") \
		    >"$root/tests/golden/$name.out" 2>&1 || true
		;;
	*)
		# shellcheck disable=SC2086
		"$bin" $opts "$input" >"tests/golden/$name.out" 2>&1 || true
		;;
	esac
	echo "updated tests/golden/$name.out"
done
