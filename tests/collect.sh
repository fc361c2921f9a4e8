#!/bin/sh
# pathdoctor-collect end to end, in network namespaces: a veth pair
# between two namespaces carries an iperf3 transfer while a collector
# runs in each namespace with a capture on its end and the counter
# snapshots, under dash and under busybox sh; then pathdoctor reads each
# bundle.  The bundle must hold every part, the capture must show the
# transfer, the kernel counters must move on the veth, and pathdoctor
# must identify every member with no failure note.  Then --during runs
# the transfer itself between the snapshots, and a workload that outlives
# --timeout is stopped (by timeout(1), and by the collector's watchdog
# where timeout is not GNU's) while the bundle is still written.  Needs
# root, network namespaces, iperf3 and tcpdump; skipped (not passed), with
# the reason, otherwise.  Without sysctl the collector reads
# /proc/sys/net itself: that part runs anywhere.
set -u
. tests/lib.sh
bin=$1
script=src/collect/pathdoctor-collect
if command -v shellcheck >/dev/null 2>&1; then
	if shellcheck "$script"; then
		echo "ok collect shellcheck clean"
	else
		echo "not ok collect shellcheck"
	fi
else
	echo "ok collect shellcheck # SKIP shellcheck not installed"
fi
if sh "$script" --help | grep -q -- --capture-seconds &&
    sh "$script" --help | grep -q -- "--during 'COMMAND'"; then
	echo "ok collect help"
else
	echo "not ok collect help"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# hiding BIN...: a directory for PATH with every command of PATH but BIN
# (symbolic links; the first of a name wins, as in PATH)
hiding() {
	_hid=$tmp/hiding-$1
	mkdir -p "$_hid"
	_ifs=$IFS
	IFS=:
	for _d in $PATH; do
		IFS=$_ifs
		# names already linked stay as they are
		[ -d "$_d" ] && ln -s "$_d"/* "$_hid/" 2>/dev/null
	done
	IFS=$_ifs
	for _b in "$@"; do
		rm -f "$_hid/$_b"
	done
	echo "$_hid"
}

# without procps the collector reads /proc/sys/net itself, and pathdoctor
# reads what it wrote as it reads sysctl's
PATH=$(hiding sysctl) sh "$script" -o "$tmp/nosysctl.tgz" --interval 1 \
    >"$tmp/nosysctl.log" 2>&1
"$bin" --dump-model "$tmp/nosysctl.tgz" >"$tmp/model" 2>"$tmp/err" </dev/null
if ran "collect without sysctl" $? "$tmp/err"; then
	tar -xzOf "$tmp/nosysctl.tgz" --wildcards '*/manifest.txt' \
	    >"$tmp/manifest" 2>/dev/null
	tab=$(printf '\t')
	if ! grep -q "^run${tab}0${tab}.*${tab}sysctl${tab}sysctl.txt${tab}" \
	    "$tmp/manifest" || ! grep -q '/proc/sys/net' "$tmp/manifest"; then
		echo "not ok collect without sysctl: no run record of /proc/sys/net"
	elif ! grep -q '^  sysctl net\.ipv4\.conf\.all\.arp_ignore = [0-9]' \
	    "$tmp/model"; then
		echo "not ok collect without sysctl: pathdoctor read no arp_ignore"
	else
		echo "ok collect without sysctl: $(grep -c '^  sysctl ' \
		    "$tmp/model") settings from /proc/sys/net"
	fi
fi

# --profile with a perf whose archive writes part of perf.data.tar.bz2 and
# then fails (exit status 1), dies (SIGKILL) or hangs ignoring SIGTERM:
# the bundle must hold no partial archive, which pathdoctor would call
# unreadable, and the manifest must say what became of perf archive
mkdir "$tmp/perf"
cat >"$tmp/perf/perf" <<'EOF'
#!/bin/sh
case $1 in
--version) echo "perf version 0.0 (a test double)" ;;
record) # -a -g -o FILE -- sleep N: a real profile as FILE
	while [ $# -gt 1 ] && [ "$1" != -o ]; do shift; done
	gzip -dc "$FAKE_PERF_DATA" >"$2" ;;
archive) # the head of an archive, then the end FAKE_PERF_ARCHIVE says
	tar -cjf - -C "${FAKE_PERF_DATA%/*}" . | head -c 4096 >"$2.tar.bz2"
	case $FAKE_PERF_ARCHIVE in
	fail) exit 1 ;;
	signal) kill -KILL $$ ;;
	hang) trap '' TERM; sleep 60 ;;
	esac ;;
esac
EOF
chmod +x "$tmp/perf/perf"
for how in fail signal hang; do
	out=$tmp/archive-$how.tgz
	t0=$(date +%s)
	# only the hang is meant to meet the timeout: the others end by
	# themselves, in well under a second unless the machine is loaded
	limit=20
	[ $how = hang ] && limit=2
	FAKE_PERF_ARCHIVE=$how FAKE_PERF_DATA=$PWD/samples/bundles/gx10-before/perf.data.gz \
	    PATH=$tmp/perf:$PATH sh "$script" -o "$out" --interval 1 \
	    --profile 1 --archive-timeout $limit >"$tmp/archive-$how.log" 2>&1
	took=$(($(date +%s) - t0))
	"$bin" "$out" >"$tmp/report" 2>"$tmp/err" </dev/null
	ran "collect perf archive $how" $? "$tmp/err" 0 1 || continue
	tar -tzf "$out" >"$tmp/list"
	tar -xzOf "$out" --wildcards '*/manifest.txt' >"$tmp/manifest" \
	    2>/dev/null
	rec=$(awk -F '\t' '$1 == "run" && $4 == "elf" &&
	    $5 == "perf.data.tar.bz2" { print $2 }' "$tmp/manifest")
	case $how in
	fail) want=1 ;;
	signal) want=137 ;;
	hang) want=124 ;;
	esac
	if grep -q 'perf\.data\.tar' "$tmp/list"; then
		echo "not ok collect perf archive $how: a partial archive is kept"
	elif ! grep -q '/perf\.data$' "$tmp/list"; then
		echo "not ok collect perf archive $how: no perf.data"
	elif [ "$rec" != "$want" ]; then
		echo "not ok collect perf archive $how: the manifest says" \
		    "'${rec:-nothing}', want $want"
	elif grep -q 'perf\.data\.tar.*failed' "$tmp/report"; then
		echo "not ok collect perf archive $how: pathdoctor read a" \
		    "broken archive"
	elif [ "$took" -gt 30 ]; then
		echo "not ok collect perf archive $how: took $took s with" \
		    "--archive-timeout $limit"
	else
		echo "ok collect perf archive $how: no partial archive, exit" \
		    "$rec in the manifest, $took s"
	fi
done

no_netns collect iperf3 tcpdump ethtool python3 && exit 0
a=pdcol$$a b=pdcol$$b
# an interrupted run removes its namespaces too (the EXIT trap)
trap 'exit 130' INT TERM
if ! ip netns add "$a"; then
	echo "not ok collect: cannot create a network namespace after the probe did"
	exit 0
fi
trap 'ip netns pids "$a" 2>/dev/null | xargs -r kill 2>/dev/null
ip netns pids "$b" 2>/dev/null | xargs -r kill 2>/dev/null
ip netns del "$a" 2>/dev/null; ip netns del "$b" 2>/dev/null
rm -rf "$tmp"' EXIT
ip netns add "$b"
ip link add v0 netns "$a" type veth peer name v1 netns "$b"
ip netns exec "$a" ip addr add 10.77.0.1/24 dev v0
ip netns exec "$b" ip addr add 10.77.0.2/24 dev v1
for n in "$a" "$b"; do
	ip netns exec "$n" ip link set lo up
done
ip netns exec "$a" ip link set v0 up
ip netns exec "$b" ip link set v1 up
# the collector skips counters of a link that is still down
for _ in 1 2 3 4 5 6 7 8 9 10; do
	[ "$(ip netns exec "$b" cat /sys/class/net/v1/operstate)" = up ] &&
	    [ "$(ip netns exec "$a" cat /sys/class/net/v0/operstate)" = up ] &&
	    break
	sleep 0.2
done

# capturing NS: a tcpdump runs in that namespace (no procps here: /proc)
capturing() {
	for p in $(ip netns pids "$1" 2>/dev/null); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = tcpdump ] && return 0
	done
	return 1
}

for shell in dash "busybox sh"; do
	sh_name=${shell%% *}
	if ! command -v "$sh_name" >/dev/null 2>&1; then
		echo "ok collect $sh_name # SKIP $sh_name not installed"
		continue
	fi
	# one collector in each namespace, each capturing its end
	ip netns exec "$b" iperf3 -s -1 >/dev/null 2>&1 &
	for end in "$a v0" "$b v1"; do
		# shellcheck disable=SC2086
		set -- $end
		# shellcheck disable=SC2086
		ip netns exec "$1" $shell "$script" -o "$tmp/$sh_name-$2.tgz" \
		    --interval 4 --capture "$2" --capture-seconds 4 \
		    --timeout 20 >"$tmp/$sh_name-$2.log" 2>&1 &
	done
	# the transfer starts once both captures run (a collector gathers
	# other outputs first, slowly under busybox): a fixed delay missed
	# the window about one run in two
	for _ in $(seq 1 50); do
		capturing "$a" && capturing "$b" && break
		sleep 0.2
	done
	sleep 0.5
	ip netns exec "$a" iperf3 -c 10.77.0.2 -t 2 -b 200M >/dev/null 2>&1
	wait
	for ifname in v0 v1; do
		out=$tmp/$sh_name-$ifname.tgz
		if [ ! -s "$out" ]; then
			echo "not ok collect $sh_name $ifname: no bundle"
			sed 's/^/# /' "$tmp/$sh_name-$ifname.log"
			continue
		fi
		if tail -n 1 "$tmp/$sh_name-$ifname.log" |
		    grep -q "upload $out (it holds packet headers"; then
			echo "ok collect $sh_name $ifname says what to upload"
		else
			echo "not ok collect $sh_name $ifname: no upload line"
		fi
		tar -tzf "$out" >"$tmp/list"
		tar -xzOf "$out" --wildcards '*/manifest.txt' \
		    >"$tmp/$sh_name-$ifname.manifest" 2>/dev/null
		"$bin" -f json "$out" >"$tmp/report.json" 2>"$tmp/err" </dev/null
		ran "collect $sh_name $ifname" $? "$tmp/err" || continue
		python3 - "$sh_name" "$ifname" "$tmp/list" "$tmp/report.json" \
		    "$tmp/$sh_name-$ifname.manifest" <<'PY' ||
import json, sys
name, ifname, listing, report, manifest_path = sys.argv[1:6]
files = [l.strip().split("/", 1)[1] for l in open(listing) if "/" in l
         and not l.strip().endswith("/")]
r = json.load(open(report))
problems = []
for part in ("manifest.txt", "uname.txt", "cmdline.txt", "cpuinfo.txt",
             "lscpu.txt", "lspci-vv.txt", "lspci-tv.txt", "sysctl.txt",
             "ip-link.txt", "ip-addr.txt", "irq-affinity.txt",
             "ethtool/%s.txt" % ifname,
             "ethtool-i/%s.txt" % ifname, "ethtool-k/%s.txt" % ifname,
             "pcap/%s.pcap" % ifname):
    if part not in files:
        problems.append("no " + part)
for kind in ("ethtool-S/%s@" % ifname, "netdev-stats/%s@" % ifname,
             "softnet-stat/softnet_stat@", "interrupts/interrupts@",
             "proc-snmp/snmp@"):
    if sum(1 for f in files if f.startswith(kind)) < 2:
        problems.append("fewer than two " + kind + " snapshots")
for m in r["members"]:
    if m["format"] == "unknown" or m["status"] != "ok":
        problems.append("%s: %s %s %s" % (m["path"], m["format"],
                        m["status"], m.get("notes")))
caps = [c for c in r["captures"] if c["interface"] == ifname]
if not caps or caps[0]["tcp_payload_bytes"] < 10_000_000:
    problems.append("the capture does not show the transfer")
rates = {x["name"]: x for h in r["hosts"]
         for x in h.get("kernel_counter_rates", [])}
moved = rates.get(ifname, {})
moved = moved.get("tx_bytes_per_s", 0) + moved.get("rx_bytes_per_s", 0)
if moved <= 0:
    problems.append("%s's kernel counters did not move" % ifname)
if not any(h.get("collector") for h in r["hosts"]):
    problems.append("the manifest was not read")
# veth may answer ethtool -g and -l with "Operation not supported": a
# failed run, recorded in the manifest instead of a member
runs = [l.split("\t") for l in open(manifest_path) if l.startswith("run\t")]
for fmt in ("ethtool-g", "ethtool-l"):
    if not any(r_[3] == fmt and r_[4] == "%s/%s.txt" % (fmt, ifname)
               for r_ in runs if len(r_) > 4):
        problems.append("no %s run for %s in the manifest" % (fmt, ifname))
if problems:
    print("not ok collect %s %s: %s" % (name, ifname,
                                       "; ".join(problems[:6])))
else:
    print("ok collect %s %s: every part, transfer captured (%d bytes), "
          "counters %.0f MB/s" % (name, ifname,
                                  caps[0]["tcp_payload_bytes"], moved / 1e6))
PY
		echo "not ok collect $sh_name $ifname: the check exited with" \
		    "status $?"
	done
done

# --during: the collector runs the transfer itself, between its counter
# snapshots and during its capture; the command line has quotes, a tab
# and a newline, which the manifest must keep in one record
# read_bundle CASE OUT: pathdoctor's JSON report of the bundle OUT into
# $tmp/report.json; false, after a "not ok" line, when there is none
read_bundle() {
	if [ ! -s "$2" ]; then
		echo "not ok collect $1: no bundle"
		sed 's/^/# /' "${2%.tgz}.log"
		return 1
	fi
	"$bin" -f json "$2" >"$tmp/report.json" 2>"$tmp/err" </dev/null
	ran "collect $1" $? "$tmp/err"
}
# a timeout(1) that is not GNU's, so that the collector uses its watchdog
mkdir "$tmp/shim"
real_timeout=$(command -v timeout)
{
	echo '#!/bin/sh'
	# shellcheck disable=SC2016
	echo '[ "$1" = --version ] && exit 1'
	echo "exec $real_timeout \"\$@\""
} >"$tmp/shim/timeout"
chmod +x "$tmp/shim/timeout"
q="'" tab=$(printf '\t')
printf '%s\n%s' ": ${q}it${q}\\${q}${q}s \"quoted\"${tab}and tabbed${q}" \
    'iperf3 -c 10.77.0.2 -t 2 -J -b 200M' >"$tmp/during-cmd"
for shell in dash "busybox sh"; do
	sh_name=${shell%% *}
	command -v "$sh_name" >/dev/null 2>&1 || continue
	ip netns exec "$b" iperf3 -s -1 >/dev/null 2>&1 &
	server=$!
	sleep 0.5
	out=$tmp/during-$sh_name.tgz
	# shellcheck disable=SC2086
	ip netns exec "$a" $shell "$script" -o "$out" --capture v0 \
	    --capture-seconds 10 --timeout 20 \
	    --during "$(cat "$tmp/during-cmd")" \
	    >"$tmp/during-$sh_name.log" 2>&1
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	read_bundle "during $sh_name" "$out" || continue
	python3 - "$sh_name" "$out" "$tmp/report.json" "$tmp/during-cmd" \
	    <<'PY' ||
import json, re, sys, tarfile
name, bundle, report, cmdfile = sys.argv[1:5]
command = open(cmdfile).read()
t = tarfile.open(bundle)
files = {m.name.split("/", 1)[1]: m for m in t.getmembers()
         if m.isfile() and "/" in m.name}
read = lambda f: t.extractfile(files[f]).read().decode()
problems = []
for part in ("workload/stdout.txt", "workload/stderr.txt",
             "workload/command.txt"):
    if part not in files:
        problems.append("no " + part)
if problems:
    print("not ok collect during %s: %s" % (name, "; ".join(problems)))
    sys.exit(0)
if read("workload/command.txt") != command:
    problems.append("workload/command.txt is not the command")
lines = [l.split("\t") for l in read("manifest.txt").split("\n")
         if l.startswith("workload\t")]
if len(lines) != 1 or len(lines[0]) != 6:
    problems.append("not one workload record of six fields: %r" % lines)
else:
    w = lines[0]
    unesc = re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r",
                   "\\": "\\"}.get(m.group(1), m.group(0)), w[5])
    if w[1] != "0":
        problems.append("exit status %s, not 0" % w[1])
    if unesc != command:
        problems.append("the manifest's command is %r" % w[5])
    if w[3:5] != ["workload/stdout.txt", "workload/stderr.txt"]:
        problems.append("members %r" % w[3:5])
try:
    sent = json.loads(read("workload/stdout.txt"))["end"]["sum_sent"]["bytes"]
except (ValueError, KeyError) as e:
    problems.append("workload/stdout.txt is not iperf3's JSON: %s" % e)
    sent = 0
# the snapshots bracket the transfer: the counters moved at least by
# what iperf3 sent
snaps = sorted((int(f.split("@")[1].split(".")[0]), f) for f in files
               if f.startswith("netdev-stats/v0@"))
def tx(f):
    return int(re.search(r"^tx_bytes: (\d+)", read(f), re.M).group(1))
if len(snaps) < 2:
    problems.append("fewer than two netdev-stats snapshots")
elif sent <= 10_000_000 or tx(snaps[-1][1]) - tx(snaps[0][1]) < sent:
    problems.append("the counters moved %d bytes, iperf3 sent %d" %
                    (tx(snaps[-1][1]) - tx(snaps[0][1]), sent))
r = json.load(open(report))
for m in r["members"]:
    p = m["path"].split("/", 1)[-1]
    if p.startswith("workload/") or p == "manifest.txt":
        if m["status"] != "ok" or m.get("notes"):
            problems.append("%s: %s %s" % (p, m["status"], m.get("notes")))
if len(r["hosts"]) != 1:
    problems.append("%d hosts, not one" % len(r["hosts"]))
caps = [c for c in r["captures"] if c["interface"] == "v0"]
if not caps or caps[0]["tcp_payload_bytes"] < 10_000_000:
    problems.append("the capture does not show the transfer")
if problems:
    print("not ok collect during %s: %s" % (name, "; ".join(problems[:6])))
else:
    print("ok collect during %s: iperf3's output, exit 0 and the command "
          "kept; counters moved by the %d bytes sent" % (name, sent))
PY
	echo "not ok collect during $sh_name: the check exited with status $?"

	# a workload that outlives --timeout is stopped, all of it, and the
	# bundle is still written: by GNU timeout, and by the watchdog the
	# collector uses without it (a timeout that is not GNU's)
	for how in timeout watchdog; do
		out=$tmp/stopped-$sh_name-$how.tgz
		t0=$(date +%s)
		path=$PATH
		[ $how = timeout ] || path=$tmp/shim:$PATH
		# shellcheck disable=SC2086
		PATH=$path ip netns exec "$a" $shell "$script" -o "$out" \
		    --timeout 3 --during 'sleep 60; echo late' \
		    >"$tmp/stopped-$sh_name-$how.log" 2>&1
		took=$(($(date +%s) - t0))
		left=$(ip netns pids "$a" 2>/dev/null | wc -l)
		read_bundle "stopped $sh_name $how" "$out" || continue
		python3 - "$sh_name $how" "$out" "$tmp/report.json" "$took" \
		    "$left" <<'PY' ||
import json, sys, tarfile
name, bundle, report, took, left = sys.argv[1:6]
t = tarfile.open(bundle)
manifest = t.extractfile([m for m in t.getmembers()
                          if m.name.endswith("/manifest.txt")][0])
w = [l.split("\t") for l in manifest.read().decode().split("\n")
     if l.startswith("workload\t")]
problems = []
if len(w) != 1 or w[0][1] != "stopped":
    problems.append("the manifest does not say it was stopped: %r" % w)
elif not 3 <= int(w[0][2]) <= 10:
    problems.append("it ran %s s with --timeout 3" % w[0][2])
if int(took) > 40:
    problems.append("the collector took %s s" % took)
if int(left) != 0:
    problems.append("%s processes left running" % left)
if not any(m.name.endswith("/workload/stdout.txt") for m in t.getmembers()):
    problems.append("no workload/stdout.txt")
r = json.load(open(report))
notes = [n["id"] for m in r["members"] if m["path"].endswith("manifest.txt")
         for n in m.get("notes", [])]
if notes != ["manifest.workload-stopped"]:
    problems.append("the manifest's notes are %r" % notes)
if any(m["status"] == "failed" for m in r["members"]):
    problems.append("a member failed")
if problems:
    print("not ok collect stopped %s: %s" % (name, "; ".join(problems)))
else:
    print("ok collect stopped %s: the workload was stopped after %s s, "
          "the bundle written" % (name, w[0][2]))
PY
		echo "not ok collect stopped $sh_name $how: the check exited" \
		    "with status $?"
	done

	# a workload that ends long before --timeout ends the watchdog too,
	# at once and with nothing of it left behind
	out=$tmp/quick-$sh_name.tgz
	t0=$(date +%s)
	# shellcheck disable=SC2086
	PATH=$tmp/shim:$PATH ip netns exec "$a" $shell "$script" -o "$out" \
	    --timeout 60 --during 'echo quick' >"$tmp/quick-$sh_name.log" 2>&1
	took=$(($(date +%s) - t0))
	left=$(ip netns pids "$a" 2>/dev/null | wc -l)
	if [ ! -s "$out" ]; then
		echo "not ok collect quick $sh_name watchdog: no bundle"
		sed 's/^/# /' "$tmp/quick-$sh_name.log"
	elif [ "$took" -gt 30 ] || [ "$left" -ne 0 ]; then
		echo "not ok collect quick $sh_name watchdog: the collector took" \
		    "$took s, $left processes left running"
	elif ! tar -xzOf "$out" --wildcards '*/manifest.txt' |
	    grep -q "^workload${tab}0${tab}"; then
		echo "not ok collect quick $sh_name watchdog: the manifest does" \
		    "not say the workload exited with 0"
	else
		echo "ok collect quick $sh_name watchdog: done in $took s," \
		    "nothing left running"
	fi

	# an interrupted collector stops the workload, all of it, and the
	# watchdog with its sleep
	for how in timeout watchdog; do
		path=$PATH
		[ $how = timeout ] || path=$tmp/shim:$PATH
		# shellcheck disable=SC2086
		PATH=$path ip netns exec "$a" $shell "$script" \
		    -o "$tmp/interrupted.tgz" --timeout 60 --during 'sleep 60' \
		    >"$tmp/interrupted.log" 2>&1 &
		collector=$!
		sleep 2
		kill "$collector"
		wait "$collector"
		rc=$?
		# a process sent TERM is gone once it has been scheduled
		n=0
		while left=$(ip netns pids "$a" 2>/dev/null | wc -l) &&
		    [ "$left" -ne 0 ] && [ $n -lt 20 ]; do
			sleep 0.25
			n=$((n + 1))
		done
		if [ $rc -ne 130 ] || [ "$left" -ne 0 ]; then
			echo "not ok collect interrupted $sh_name $how: exit $rc," \
			    "$left processes left running"
			# shellcheck disable=SC2046
			kill -KILL $(ip netns pids "$a") 2>/dev/null
		else
			echo "ok collect interrupted $sh_name $how: exit 130," \
			    "nothing left running"
		fi
	done
done
