#!/bin/sh
# Makes the sample captures from real kernel traffic (run as root):
#
#   sh samples/capture-kernel.sh [DIR [SAMPLE...]]
#
# DIR defaults to samples/bundles; SAMPLE to all three, which write
#   pve-gso-before  DIR/pve-gso-before/pve/pcap/{tap100i0,enp3s0}.pcap
#   pve-gso-after   DIR/pve-gso-after/pve/pcap/{tap100i0,enp3s0}.pcap
#   gx10-before     DIR/gx10-before/pcap/nic2.pcap
#
# Proxmox-like path, one network namespace per machine:
#
#   guest [ens18] ==veth== [tap100i0] pve: vmbr0 bridge [enp3s0] ==veth== [eth0] client
#
# enp3s0 accepts GSO packets of at most 64000 bytes and 64 segments, as
# the r8169 driver sets for its NIC; the guest's ens18 accepts 65536
# (before) or 63000 (after).  The guest sends to the client with iperf3
# and tcpdump records tap100i0 and enp3s0 at once with a short snap
# length.  Before the fix the guest's ~65 KB GSO packets exceed enp3s0's
# limit and the kernel cuts them into MSS-sized segments in software
# (validate_xmit_skb); after it they cross the bridge whole.  A veth has
# no line rate, so iperf3 paces the guest at the rates measured in the
# published case (1.76 Gbit/s before, 2.13 after); the payload sizes are
# whatever the kernel makes of that.
#
# Pause-off sample: NVMe/TCP-like reads (the target sends from port 4420)
# into the GX10's nic2 through a routing namespace whose nftables loses
# one frame in 400 and, for a quarter of a second in the middle, all of
# them, as a port without flow control does when the receiver's buffers
# are full.  tcpdump on nic2 sees the fast retransmissions, the gaps in
# the sender's IP IDs where frames never arrived, and the silence of the
# retransmission timeouts.
#
# Captures differ from run to run (timing, ports, sequence numbers); the
# committed ones are one such run, and tests/kernel-captures.sh checks
# that a fresh run still has the properties the samples rely on.
set -eu
out=${1:-$(dirname "$0")/bundles}
pfx=pdcap$$
guest=$pfx-guest host=$pfx-pve client=$pfx-client
target=$pfx-target switch=$pfx-switch gx10=$pfx-gx10
work=$(mktemp -d)

cleanup() {
	for n in "$guest" "$host" "$client" "$target" "$switch" "$gx10"; do
		ip netns pids "$n" 2>/dev/null | xargs -r kill 2>/dev/null || :
		ip netns del "$n" 2>/dev/null || :
	done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

for tool in ip nft tcpdump iperf3 ethtool; do
	command -v "$tool" >/dev/null 2>&1 ||
	    { echo "capture-kernel: $tool is not installed" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] ||
    { echo "capture-kernel: must run as root (network namespaces)" >&2; exit 2; }

in_ns() {
	ns=$1
	shift
	ip netns exec "$ns" "$@"
}

# tcpdump IF FILE in namespace NS, in the background (not through in_ns,
# so that $! is tcpdump itself); waits until it listens.  -U so the file is complete when it is stopped.
start_capture() {
	ns=$1 ifname=$2 file=$3
	ip netns exec "$ns" tcpdump -i "$ifname" -s 96 -B 16384 -c 200000 --immediate-mode -U -n \
	    -w "$file" 2>"$work/$ifname.log" &
	echo $! >"$work/$ifname.pid"
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		grep -q listening "$work/$ifname.log" && return 0
		sleep 0.1
	done
	echo "capture-kernel: tcpdump on $ifname did not start" >&2
	cat "$work/$ifname.log" >&2
	exit 1
}

# Stops a capture and fails when the kernel dropped any packet: a sample
# with holes of the capture's own making would mislead the checks.
stop_capture() {
	ifname=$1
	sleep 0.5
	kill -INT "$(cat "$work/$ifname.pid")"
	wait "$(cat "$work/$ifname.pid")" || :
	if ! grep -q '^0 packets dropped by kernel' "$work/$ifname.log"; then
		echo "capture-kernel: tcpdump on $ifname lost packets:" >&2
		cat "$work/$ifname.log" >&2
		exit 1
	fi
}

iperf_server() {
	ns=$1 port=$2
	ip netns exec "$ns" iperf3 -s -1 -p "$port" >"$work/server.log" 2>&1 &
	echo $! >"$work/server.pid"
	sleep 0.5
}

gso_case() {
	case_dir=$1 guest_gso=$2 rate=$3
	for n in "$guest" "$host" "$client"; do
		ip netns add "$n"
		in_ns "$n" ip link set lo up
	done
	ip link add ens18 netns "$guest" address bc:24:11:12:34:56 type veth \
	    peer name tap100i0 netns "$host" address 5e:3a:91:0c:77:12
	ip link add enp3s0 netns "$host" address bc:24:11:ab:cd:ef type veth \
	    peer name eth0 netns "$client" address 52:54:00:12:34:56
	in_ns "$host" ip link add vmbr0 type bridge forward_delay 0
	# gso_max_size up to 65536 sets gso_ipv4_max_size too.
	in_ns "$host" ip link set enp3s0 gso_max_size 64000 gso_max_segs 64
	in_ns "$guest" ip link set ens18 gso_max_size "$guest_gso"
	for l in tap100i0 enp3s0; do
		in_ns "$host" ip link set "$l" master vmbr0 up
	done
	in_ns "$host" ip link set vmbr0 up
	in_ns "$guest" ip addr add 192.168.1.100/24 dev ens18
	in_ns "$guest" ip link set ens18 up
	in_ns "$client" ip addr add 192.168.1.20/24 dev eth0
	in_ns "$client" ip link set eth0 up

	mkdir -p "$out/$case_dir/pve/pcap"
	iperf_server "$client" 5201
	start_capture "$host" tap100i0 "$work/tap100i0.pcap"
	start_capture "$host" enp3s0 "$work/enp3s0.pcap"
	in_ns "$guest" iperf3 -c 192.168.1.20 -p 5201 -b "$rate" -n 6M \
	    -l 128K >"$work/client.log"
	stop_capture tap100i0
	stop_capture enp3s0
	wait "$(cat "$work/server.pid")" || :
	mv "$work/tap100i0.pcap" "$work/enp3s0.pcap" "$out/$case_dir/pve/pcap/"
	for n in "$guest" "$host" "$client"; do
		ip netns del "$n"
	done
}

pause_case() {
	for n in "$target" "$switch" "$gx10"; do
		ip netns add "$n"
		in_ns "$n" ip link set lo up
	done
	ip link add eth1 netns "$target" address 0c:42:a1:00:00:02 type veth \
	    peer name swp1 netns "$switch" address 0c:42:a1:ff:00:01
	ip link add swp2 netns "$switch" address 0c:42:a1:ff:00:02 type veth \
	    peer name nic2 netns "$gx10" address 0c:42:a1:5e:00:12
	# The wire carries MSS-sized frames, as after a NIC's TSO.
	in_ns "$target" ethtool -K eth1 tso off gso off >/dev/null
	in_ns "$target" ip addr add 10.10.1.2/24 dev eth1
	in_ns "$target" ip link set eth1 up
	in_ns "$target" ip route add 10.10.0.0/24 via 10.10.1.254
	in_ns "$switch" ip addr add 10.10.1.254/24 dev swp1
	in_ns "$switch" ip addr add 10.10.0.254/24 dev swp2
	in_ns "$switch" ip link set swp1 up
	in_ns "$switch" ip link set swp2 up
	in_ns "$switch" sysctl -q -w net.ipv4.ip_forward=1
	# The router loses what it forwards to nic2 in two ways a port
	# without pause does when the receiver cannot keep up: one frame in
	# 400 at random, and everything during a blackout that the script
	# switches on for a moment in the middle of the transfer (chain
	# "blackout").
	in_ns "$switch" nft -f - <<-EOF
	table ip fabric {
		chain blackout {
		}
		chain forward {
			type filter hook forward priority 0;
			oifname "swp2" tcp sport 4420 numgen random mod 400 == 0 drop
			oifname "swp2" tcp sport 4420 jump blackout
		}
	}
	EOF
	in_ns "$gx10" ip addr add 10.10.0.1/24 dev nic2
	in_ns "$gx10" ip link set nic2 up
	in_ns "$gx10" ip route add 10.10.1.0/24 via 10.10.0.254

	mkdir -p "$out/gx10-before/pcap"
	# The target listens on 4420 and sends (-R), as an NVMe/TCP target
	# answers reads.
	iperf_server "$target" 4420
	start_capture "$gx10" nic2 "$work/nic2.pcap"
	in_ns "$gx10" iperf3 -c 10.10.1.2 -p 4420 -R -b 20M -t 3 -l 16K \
	    >"$work/client.log" &
	client=$!
	sleep 1.5
	in_ns "$switch" nft add rule ip fabric blackout drop
	sleep 0.25
	in_ns "$switch" nft flush chain ip fabric blackout
	wait "$client"
	stop_capture nic2
	wait "$(cat "$work/server.pid")" || :
	mv "$work/nic2.pcap" "$out/gx10-before/pcap/"
	for n in "$target" "$switch" "$gx10"; do
		ip netns del "$n"
	done
}

if [ $# -gt 1 ]; then
	shift
else
	set -- pve-gso-before pve-gso-after gx10-before
fi
for c in "$@"; do
	case $c in
	pve-gso-before) gso_case pve-gso-before 65536 1760M ;;
	pve-gso-after) gso_case pve-gso-after 63000 2130M ;;
	gx10-before) pause_case ;;
	*) echo "capture-kernel: no sample called $c" >&2; exit 2 ;;
	esac
done
echo "capture-kernel: wrote captures under $out"
