#!/bin/sh
# make install into a DESTDIR puts the programs, the man pages and the
# JSON schemas where PREFIX says; make uninstall takes them away again.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
if ! make -s install DESTDIR="$tmp" PREFIX=/usr >"$tmp.log" 2>&1; then
	echo "not ok install make install"
	sed 's/^/#   /' "$tmp.log"
	rm -f "$tmp.log"
	exit 1
fi
rm -f "$tmp.log"
want="usr/bin/pathdoctor
usr/bin/pathdoctor-collect
usr/share/man/man1/pathdoctor-collect.1
usr/share/man/man1/pathdoctor.1
usr/share/pathdoctor/diff.schema.json
usr/share/pathdoctor/jsonl.schema.json
usr/share/pathdoctor/report.schema.json"
got=$(cd "$tmp" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
if [ "$got" = "$want" ]; then
	echo "ok install tree"
else
	echo "not ok install tree"
	printf '%s\n' "$got" | sed 's/^/#   /'
fi
if cmp -s "$tmp/usr/share/pathdoctor/report.schema.json" \
    formats/report.schema.json; then
	echo "ok install schema"
else
	echo "not ok install schema"
fi
make -s uninstall DESTDIR="$tmp" PREFIX=/usr >/dev/null 2>&1
left=$(cd "$tmp" && find . -type f)
if [ -z "$left" ]; then
	echo "ok install uninstall"
else
	echo "not ok install uninstall: $left"
fi
