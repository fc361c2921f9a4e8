/* NVMe over Fabrics: the list-subsys readers (text and JSON) and the
 * iopolicy and ip addr readers on real outputs (tests/data-nvme), the
 * join of each path to its netdev, and the thresholds of
 * nvme.multipath-iopolicy and nvme.paths-per-pf, which must agree with
 * nic.idle-pf on one card. */
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "pathdoctor/format.h"
#include "pathdoctor/ladder.h"
#include "pathdoctor/rule.h"

#define DATA "tests/data-nvme/"

static const struct pd_nvme_subsys *
subsys(const struct parsed *p, const char *name)
{
	for (const struct pd_nvme_subsys *s = p->m->hosts->nvme; s;
	    s = s->next)
		if (strcmp(s->name, name) == 0)
			return s;
	fail_msg("no subsystem %s", name);
	return NULL;
}

static const struct pd_nvme_path *
path_of(const struct pd_nvme_subsys *s, const char *ctrl)
{
	for (const struct pd_nvme_path *p = s->paths; p; p = p->next)
		if (strcmp(p->ctrl, ctrl) == 0)
			return p;
	fail_msg("no path %s in %s", ctrl, s->name);
	return NULL;
}

static void
test_list_subsys_text(void **state)
{
	struct parsed p;
	const struct pd_nvme_subsys *s;
	const struct pd_nvme_path *x;

	(void)state;
	/* nvme-cli 1.x, its manual: blank-separated address fields */
	parsed_read(&p, DATA "nvme/list-subsys-1x-rdma.txt");
	assert_string_equal(p.cov.members->format, "nvme-subsys");
	assert_int_equal(p.m->hosts->n_nvme, 2);
	s = subsys(&p, "nvme-subsys0");
	assert_string_equal(s->nqn, "nvmf-test");
	assert_null(s->iopolicy);
	assert_int_equal(s->n_paths, 2);
	x = path_of(s, "nvme1");
	assert_string_equal(x->transport, "rdma");
	assert_string_equal(x->traddr, "1.1.1.3");
	assert_string_equal(x->trsvcid, "4420");
	assert_string_equal(x->host_traddr, "1.1.1.2");
	assert_null(x->state);
	assert_int_equal(x->ev.line, 4);
	assert_true(p.m->hosts->have & PD_HAVE_NVME);
	parsed_free(&p);

	/* 2.x: iopolicy= line, comma-joined sysfs address, no "\" line */
	parsed_read(&p, DATA "nvme/list-subsys-2x-numa-src-addr.txt");
	s = subsys(&p, "nvme-subsys0");
	assert_string_equal(s->iopolicy, "numa");
	assert_false(s->iopolicy_sysfs);
	assert_int_equal(s->ev_iopolicy.line, 2);
	x = path_of(s, "nvme1");
	assert_string_equal(x->trsvcid, "4421");
	assert_string_equal(x->src_addr, "10.144.27.26");
	assert_string_equal(x->state, "live");
	parsed_free(&p);

	/* 2.x: hostnqn= lines, indented paths, a blank line between */
	parsed_read(&p, DATA "nvme/list-subsys-2x-hostnqn.txt");
	assert_int_equal(p.m->hosts->n_nvme, 3);
	s = subsys(&p, "nvme-subsys2");
	assert_non_null(strstr(s->hostnqn, "f69d0000-f592"));
	assert_string_equal(path_of(s, "nvme2")->src_addr, "10.10.10.51");
	assert_int_equal(p.cov.members->diag.worst, PD_OK);
	parsed_free(&p);

	/* the NQN without "NQN=", ANA states after the controller state */
	parsed_read(&p, DATA "nvme/list-subsys-ana.txt");
	s = subsys(&p, "nvme-subsys0");
	assert_string_equal(s->nqn, "nqn.2026-03.com.ceph:ha-subsystem");
	assert_string_equal(path_of(s, "nvme0")->ana, "optimized");
	assert_string_equal(path_of(s, "nvme1")->ana, "non-optimized");
	assert_string_equal(path_of(s, "nvme1")->state, "live");
	parsed_free(&p);
}

static void
test_list_subsys_json(void **state)
{
	struct parsed p;
	const struct pd_nvme_subsys *s;

	(void)state;
	/* 1.x: each subsystem's paths in the object after it */
	parsed_read(&p, DATA "nvme/list-subsys-1x-rdma.json");
	assert_string_equal(p.cov.members->format, "nvme-subsys-json");
	assert_int_equal(p.m->hosts->n_nvme, 2);
	s = subsys(&p, "nvme-subsys1");
	assert_string_equal(s->nqn, "nvmf-test2");
	assert_int_equal(s->n_paths, 2);
	assert_string_equal(path_of(s, "nvme3")->host_traddr, "1.1.1.1");
	assert_int_equal(path_of(s, "nvme3")->ev.line, 33);
	parsed_free(&p);

	/* 1.x with the paths inside; the fixture names both paths nvme1,
	 * which is one controller: the later address is kept */
	parsed_read(&p, DATA "nvme/list-subsys-1x-tcp-nested.json");
	s = subsys(&p, "nvme-subsys0");
	assert_int_equal(s->n_paths, 1);
	assert_string_equal(s->paths->traddr, "172.21.112.8");
	parsed_free(&p);

	/* 2.x: the host list, HostNQN and IOPolicy */
	parsed_read(&p, DATA "nvme/list-subsys-2x-tcp-rr.json");
	s = subsys(&p, "nvme-subsys1");
	assert_string_equal(s->iopolicy, "round-robin");
	assert_int_equal(s->ev_iopolicy.line, 9);
	assert_non_null(strstr(s->hostnqn, "92772a1b"));
	assert_string_equal(s->paths->state, "live");
	parsed_free(&p);
}

static void
test_iopolicy_layouts(void **state)
{
	struct parsed p;
	const struct pd_format *f = pd_format_find("nvme-iopolicy");

	(void)state;
	/* the listing the collector should write */
	parsed_text(&p, "nvme/iopolicy.txt",
	    "/sys/class/nvme-subsystem/nvme-subsys0/iopolicy:numa\n"
	    "/sys/class/nvme-subsystem/nvme-subsys1/iopolicy:round-robin\n");
	assert_string_equal(p.cov.members->format, "nvme-iopolicy");
	assert_string_equal(subsys(&p, "nvme-subsys1")->iopolicy,
	    "round-robin");
	assert_true(subsys(&p, "nvme-subsys1")->iopolicy_sysfs);
	/* an iopolicy alone makes no path: not the nvme input */
	assert_false(p.m->hosts->have & PD_HAVE_NVME);
	parsed_free(&p);

	/* a sosreport's one-value file, and today's collector copy */
	parsed_text(&p, "sosreport-x/sys/class/nvme-subsystem/nvme-subsys3/"
	    "iopolicy", "queue-depth\n");
	assert_string_equal(subsys(&p, "nvme-subsys3")->iopolicy,
	    "queue-depth");
	parsed_free(&p);
	parsed_text(&p, "nvme/nvme-subsys2-iopolicy.txt", "numa\n");
	assert_string_equal(subsys(&p, "nvme-subsys2")->iopolicy, "numa");
	assert_int_equal(p.m->n_hosts, 1);	/* nvme/ names no host */
	parsed_free(&p);

	/* one-value files bid only on their path and a policy value */
	struct { const char *path, *text; } no[] = {
		{ "sys/class/nvme-subsystem/nvme-subsys0/iopolicy", "fifo\n" },
		{ "sys/class/nvme-subsystem/nvme-subsys0/model", "numa\n" },
		{ "nvme/iopolicy-notes.txt", "numa\n" },
		{ "sys/class/nvme-subsystem/nvme-subsys0/iopolicy",
		    "numa\nnuma\n" },
	};
	for (size_t i = 0; i < PD_ARRAY_SIZE(no); i++) {
		struct pd_member m = { .path = no[i].path,
			.hint_path = no[i].path, .size = -1,
			.head = (const unsigned char *)no[i].text,
			.head_len = strlen(no[i].text) };

		assert_int_equal(f->bid(&m), 0);
	}

	/* the sysfs value wins over list-subsys, whichever comes first */
	static const char *const names[] = { "nvme/list-subsys.txt",
		"nvme/nvme-subsys1-iopolicy.txt" };
	static const char *const texts[] = {
		"nvme-subsys1 - NQN=nqn.x\n               iopolicy=numa\n"
		    "\\\n +- nvme1 tcp traddr=10.0.0.1,trsvcid=4420 live\n"
		    " +- nvme2 tcp traddr=10.0.1.1,trsvcid=4420 live\n",
		"round-robin\n" };
	parsed_members(&p, names, texts, 2);
	assert_string_equal(subsys(&p, "nvme-subsys1")->iopolicy,
	    "round-robin");
	parsed_free(&p);
	static const char *const names2[] = { names[1], names[0] };
	static const char *const texts2[] = { texts[1], texts[0] };
	parsed_members(&p, names2, texts2, 2);
	assert_string_equal(subsys(&p, "nvme-subsys1")->iopolicy,
	    "round-robin");
	parsed_free(&p);
}

static const struct pd_ipaddr *
nth_addr(const struct parsed *p, unsigned n)
{
	const struct pd_ipaddr *x = p->m->hosts->ipaddrs;

	while (x && n--)
		x = x->next;
	assert_non_null(x);
	return x;
}

static void
test_ip_addr(void **state)
{
	struct parsed p;

	(void)state;
	/* insights-core's sample: netlink's "Message truncated" first, a
	 * peer address, NAME@PARENT, IPv6 */
	parsed_read(&p, DATA "ip-addr/insights-ip-addr.txt");
	assert_string_equal(p.cov.members->format, "ip-addr");
	assert_int_equal(p.m->hosts->n_ipaddrs, 7);
	assert_string_equal(nth_addr(&p, 2)->ifname, "tunl1");
	assert_string_equal(nth_addr(&p, 2)->text, "172.30.0.1/32");
	assert_string_equal(nth_addr(&p, 3)->ifname, "bond1.57");
	assert_int_equal(nth_addr(&p, 3)->prefix, 27);
	assert_int_equal(nth_addr(&p, 5)->family, 6);
	assert_int_equal(nth_addr(&p, 5)->prefix, 64);
	assert_string_equal(nth_addr(&p, 6)->text, "192.168.112.5/32");
	/* ip link's facts of the same blocks are read too */
	assert_string_equal(pd_host_find_netdev(p.m->hosts, "bond1.57")->
	    link_parent, "bond1");
	assert_true(p.m->hosts->have & PD_HAVE_IPADDR);
	parsed_free(&p);

	/* iproute2 6.1: ip -d addr and the one-line ip -o addr */
	parsed_read(&p, DATA "ip-addr/ip-d-addr-iproute2-6.1.txt");
	assert_int_equal(p.m->hosts->n_ipaddrs, 5);
	assert_string_equal(nth_addr(&p, 2)->text, "192.0.2.2/24");
	assert_int_equal(pd_host_find_netdev(p.m->hosts, "eth0")->mtu, 1400);
	parsed_free(&p);
	parsed_read(&p, DATA "ip-addr/ip-o-addr-iproute2-6.1.txt");
	assert_string_equal(p.cov.members->format, "ip-addr");
	assert_int_equal(p.m->hosts->n_ipaddrs, 5);
	assert_string_equal(nth_addr(&p, 4)->text, "fe80::fc:ff:fe00:1/64");
	parsed_free(&p);

	/* ip -j addr, one line and pretty-printed (-p): the same five */
	parsed_read(&p, DATA "ip-addr/ip-j-addr-iproute2-6.1.json");
	assert_string_equal(p.cov.members->format, "ip-addr-json");
	assert_int_equal(p.m->hosts->n_ipaddrs, 5);
	assert_string_equal(nth_addr(&p, 3)->text, "fd00::2/64");
	assert_int_equal(nth_addr(&p, 3)->ev.line, 1);
	parsed_free(&p);
	parsed_read(&p, DATA "ip-addr/ip-j-p-addr-iproute2-6.1.json");
	assert_string_equal(p.cov.members->format, "ip-addr-json");
	assert_int_equal(p.m->hosts->n_ipaddrs, 5);
	assert_string_equal(nth_addr(&p, 0)->ifname, "lo");
	assert_int_equal(nth_addr(&p, 0)->ev.line, 15);
	assert_string_equal(nth_addr(&p, 3)->ifname, "eth0");
	parsed_free(&p);

	/* ip link without addresses stays ip-link */
	parsed_read(&p, "samples/bundles/gx10-after/ip-link.txt");
	assert_string_equal(p.cov.members->format, "ip-link");
	assert_int_equal(p.m->hosts->n_ipaddrs, 0);
	parsed_free(&p);
}

#define ADDRS \
	"2: nic2: <BROADCAST,UP> mtu 9000 qdisc mq state UP\n" \
	"    link/ether 4c:bb:47:2c:1a:30 brd ff:ff:ff:ff:ff:ff\n" \
	"    inet 10.10.1.2/24 brd 10.10.1.255 scope global nic2\n" \
	"3: nic4: <BROADCAST,UP> mtu 9000 qdisc mq state UP\n" \
	"    link/ether 4c:bb:47:2c:1b:31 brd ff:ff:ff:ff:ff:ff\n" \
	"    inet 10.10.2.2/24 brd 10.10.2.255 scope global nic4\n" \
	"    inet 10.10.1.9/24 scope global secondary nic4\n" \
	"4: nic5: <BROADCAST,UP> mtu 9000 qdisc mq state UP\n" \
	"    link/ether 4c:bb:47:2c:1c:32 brd ff:ff:ff:ff:ff:ff\n" \
	"    inet 10.10.0.2/16 brd 10.10.255.255 scope global nic5\n"

static void
test_join(void **state)
{
	struct parsed p;
	static const char *const names[] = { "ip-addr.txt",
		"nvme/list-subsys.txt" };
	static const char *const texts[] = { ADDRS,
	    "nvme-subsys1 - NQN=nqn.x\n\\\n"
	    " +- nvme1 tcp traddr=10.20.0.1,trsvcid=4420,host_iface=nic5 live\n"
	    " +- nvme2 tcp traddr=10.20.0.1,trsvcid=4420,src_addr=10.10.2.2 live\n"
	    " +- nvme3 tcp traddr=10.10.2.1,trsvcid=4420 live\n"
	    " +- nvme4 tcp traddr=10.10.1.1,trsvcid=4420 live\n"
	    " +- nvme5 tcp traddr=10.10.7.1,trsvcid=4420 live\n"
	    " +- nvme6 tcp traddr=10.30.0.1,trsvcid=4420 live\n"
	    " +- nvme7 pcie 0004:01:00.0 live\n" };

	(void)state;
	parsed_members(&p, names, texts, 2);
	const struct pd_nvme_subsys *s = subsys(&p, "nvme-subsys1");

	/* host_iface first, whatever the addresses say */
	assert_int_equal(path_of(s, "nvme1")->join, PD_NVME_JOIN_IFACE);
	assert_string_equal(path_of(s, "nvme1")->nd->name, "nic5");
	/* the host address */
	assert_int_equal(path_of(s, "nvme2")->join, PD_NVME_JOIN_ADDR);
	assert_string_equal(path_of(s, "nvme2")->nd->name, "nic4");
	/* the target's subnet: the longest prefix (nic4's /24, not nic5's
	 * /16) */
	assert_int_equal(path_of(s, "nvme3")->join, PD_NVME_JOIN_SUBNET);
	assert_string_equal(path_of(s, "nvme3")->nd->name, "nic4");
	/* two interfaces hold 10.10.1.0/24: which one is the route's */
	assert_int_equal(path_of(s, "nvme4")->join, PD_NVME_JOIN_NONE);
	assert_null(path_of(s, "nvme4")->nd);
	assert_non_null(strstr(path_of(s, "nvme4")->join_what, "ambiguous"));
	/* only the /16 holds it */
	assert_string_equal(path_of(s, "nvme5")->nd->name, "nic5");
	/* no interface's subnet: a route the bundle does not show */
	assert_null(path_of(s, "nvme6")->nd);
	/* PCIe paths are not joined to a NIC */
	assert_int_equal(path_of(s, "nvme7")->join, PD_NVME_JOIN_NONE);
	parsed_free(&p);
}

static const char *
lever_pfs(const struct pd_finding *f, char *buf, size_t n)
{
	buf[0] = '\0';
	for (unsigned i = 0; i < f->lever.card->n_pfs; i++)
		if (f->lever.pf_mask >> i & 1u)
			snprintf(buf + strlen(buf), n - strlen(buf), "%s ",
			    f->lever.card->pfs[i]->netdev->name);
	return buf;
}

/* A sample analysed and its ladder climbed, as the report does. */
static void
laddered(struct parsed *p, const char *path)
{
	struct pd_ladder_gap *gaps;

	parsed_analysed(p, path);
	assert_non_null(pd_ladders_build(p->m, &p->fs, &gaps));
}

static void
test_multipath_samples(void **state)
{
	struct parsed p;
	const struct pd_finding *f;
	char buf[64];

	(void)state;
	laddered(&p, "samples/gx10-multipath-numa.tgz");
	assert_int_equal(count_findings(&p, "nvme.multipath-iopolicy"), 1);
	f = find_finding(&p, "nvme.multipath-iopolicy", NULL);
	assert_string_equal(f->subject, "nvme-subsys1, nvme-subsys2");
	assert_int_equal(f->lever.kind, PD_LEVER_PFS);
	assert_string_equal(lever_pfs(f, buf, sizeof(buf)),
	    "nic2 nic4 nic5 nic6 ");
	assert_int_equal(f->ladder_step, 1);
	/* 14.8 GB/s on one link -> 29.6 (99 % of 2 x 14.95 realised, as
	 * measured on this host now) */
	assert_int_equal(f->gain_hi, 1000);
	assert_int_equal(f->confidence, 85);
	assert_non_null(strstr(f->summary, "idle now: nic5 (0002:01:00.0), "
	    "nic6 (0002:01:00.1)"));
	assert_non_null(strstr(f->summary, "one NUMA node"));
	/* the PFs whose paths the policy leaves idle are not idle PFs */
	assert_int_equal(count_findings(&p, "nic.idle-pf"), 0);
	assert_int_equal(count_findings(&p, "nvme.paths-per-pf"), 0);
	parsed_free(&p);

	parsed_analysed(&p, "samples/gx10-multipath-rr.tgz");
	assert_int_equal(count_findings(&p, "nvme.multipath-iopolicy"), 0);
	assert_int_equal(count_findings(&p, "nvme.paths-per-pf"), 0);
	assert_int_equal(count_findings(&p, "nic.idle-pf"), 0);
	parsed_free(&p);
}

/* lscpu's NUMA lines and a list-subsys, as members of one host. */
static void
analyse_pair(struct parsed *p, const char *lscpu, const char *subsys_text)
{
	static const char *const names[] = { "lscpu.txt",
		"nvme/list-subsys.txt" };
	const char *texts[] = { lscpu, subsys_text };

	if (lscpu)
		parsed_members(p, names, texts, 2);
	else
		parsed_members(p, names + 1, texts + 1, 1);
	parsed_analyse(p);
}

#define LSCPU(n) "Architecture:          aarch64\nCPU(s):                20\n" \
	"NUMA node(s):          " n "\n"
#define TWO_PATHS(policy, state2) "nvme-subsys1 - NQN=nqn.x\n" policy \
	"\\\n +- nvme1 tcp traddr=10.0.0.1,trsvcid=4420 live\n" \
	" +- nvme2 tcp traddr=10.0.1.1,trsvcid=4420 " state2 "\n"
#define POLICY(p) "               iopolicy=" p "\n"

static void
test_multipath_thresholds(void **state)
{
	struct parsed p;
	const struct pd_finding *f;

	(void)state;
	/* two live paths at numa, one node: fires; unjoined, standalone:
	 * 0 to +100 % (two paths alike) */
	analyse_pair(&p, LSCPU("1"), TWO_PATHS(POLICY("numa"), "live"));
	f = find_finding(&p, "nvme.multipath-iopolicy", "nvme-subsys1");
	assert_non_null(f);
	assert_int_equal(f->gain_lo, 0);
	assert_int_equal(f->gain_hi, 1000);
	assert_int_equal(f->lever.kind, PD_LEVER_NONE);
	assert_int_equal(f->confidence, 60);	/* paths not tied to NICs */
	parsed_free(&p);
	/* no iopolicy shown (nvme-cli 1.x): numa by default, 45 */
	analyse_pair(&p, LSCPU("1"), TWO_PATHS("", "live"));
	f = find_finding(&p, "nvme.multipath-iopolicy", NULL);
	assert_non_null(f);
	assert_int_equal(f->confidence, 45);
	parsed_free(&p);
	/* the second path is not live: one path, nothing to spread */
	analyse_pair(&p, LSCPU("1"), TWO_PATHS(POLICY("numa"), "connecting"));
	assert_int_equal(count_findings(&p, "nvme.multipath-iopolicy"), 0);
	parsed_free(&p);
	/* round-robin and queue-depth already spread */
	analyse_pair(&p, LSCPU("1"), TWO_PATHS(POLICY("round-robin"),
	    "live"));
	assert_int_equal(count_findings(&p, "nvme.multipath-iopolicy"), 0);
	parsed_free(&p);
	analyse_pair(&p, LSCPU("1"), TWO_PATHS(POLICY("queue-depth"),
	    "live"));
	assert_int_equal(count_findings(&p, "nvme.multipath-iopolicy"), 0);
	parsed_free(&p);
	/* two NUMA nodes, paths' NICs unknown: numa may be right */
	analyse_pair(&p, LSCPU("2"), TWO_PATHS(POLICY("numa"), "live"));
	assert_int_equal(count_findings(&p, "nvme.multipath-iopolicy"), 0);
	parsed_free(&p);
	/* no NUMA layout at all: not judged */
	analyse_pair(&p, NULL, TWO_PATHS(POLICY("numa"), "live"));
	assert_int_equal(count_findings(&p, "nvme.multipath-iopolicy"), 0);
	parsed_free(&p);
}

/* The subject's PFs as a set of names, for comparing two findings. */
static bool
names_pf(const struct pd_finding *f, const char *name)
{
	char pat[32];

	snprintf(pat, sizeof(pat), "%s (", name);
	return strstr(f->subject, pat) != NULL;
}

static void
test_paths_per_pf_agrees_with_idle_pf(void **state)
{
	struct parsed p;
	const struct pd_finding *a, *b;
	static const char *const nd[] = { "nic2", "nic4", "nic5", "nic6" };

	(void)state;
	laddered(&p, "samples/gx10-paths-one-link.tgz");
	a = find_finding(&p, "nvme.paths-per-pf", NULL);
	b = find_finding(&p, "nic.idle-pf", NULL);
	assert_non_null(a);
	assert_non_null(b);
	/* one card: both name the same PFs */
	for (size_t i = 0; i < PD_ARRAY_SIZE(nd); i++)
		assert_int_equal(names_pf(a, nd[i]), names_pf(b, nd[i]));
	assert_string_equal(a->subject, "nic5 (0002:01:00.0), nic6 "
	    "(0002:01:00.1)");
	/* one ladder step for the one fix: the NVMe rule's */
	assert_int_equal(a->lever.kind, PD_LEVER_ALL_PFS);
	assert_int_equal(a->ladder_step, 1);
	assert_int_equal(b->lever.kind, PD_LEVER_NONE);
	assert_non_null(strstr(b->summary, "nvme.paths-per-pf"));
	/* every path joined by subnet only: 85 - 15 */
	assert_int_equal(a->confidence, 70);
	assert_non_null(strstr(a->confidence_note, "subnet only"));
	assert_non_null(strstr(a->summary, "one PCIe link"));
	/* a PF that carries a path is never named by either */
	for (const struct pd_nvme_subsys *s = p.m->hosts->nvme; s;
	    s = s->next)
		for (const struct pd_nvme_path *x = s->paths; x; x = x->next)
			if (x->nd) {
				assert_false(names_pf(a, x->nd->name));
				assert_false(names_pf(b, x->nd->name));
			}
	parsed_free(&p);

	/* without NVMe outputs nic.idle-pf keeps the ladder step */
	parsed_analysed(&p, "samples/gx10-half-after.tgz");
	b = find_finding(&p, "nic.idle-pf", NULL);
	assert_non_null(b);
	assert_int_equal(b->lever.kind, PD_LEVER_ALL_PFS);
	assert_int_equal(count_findings(&p, "nvme.paths-per-pf"), 0);
	parsed_free(&p);
}

/* A sample directory as an in-memory tar with one member's text
 * replaced (the paths of its controllers, here). */
#define SAMPLE_FILES 64

static struct {
	struct tar_entry e[SAMPLE_FILES];
	unsigned char *data[SAMPLE_FILES];
	char path[SAMPLE_FILES][256];
	size_t n;
} sample;

static void
take_file(const char *path, const char *name)
{
	size_t len;

	(void)name;
	assert_true(sample.n < SAMPLE_FILES);
	snprintf(sample.path[sample.n], sizeof(sample.path[0]), "%s", path);
	sample.data[sample.n] = slurp(path, &len);
	sample.e[sample.n] = (struct tar_entry){ .path = sample.path[sample.n],
		.data = sample.data[sample.n], .len = len ? len : 1 };
	sample.n++;
}

static void
sample_with(struct parsed *p, const char *dir, const char *member,
    const char *text)
{
	size_t len;

	sample.n = 0;
	each_file(dir, take_file);
	for (size_t i = 0; i < sample.n; i++)
		if (strstr(sample.path[i], member)) {
			sample.e[i].data = text;
			sample.e[i].len = strlen(text);
		}
	unsigned char *tar = make_tar(sample.e, sample.n, 0, &len);

	parsed_read_memory(p, tar, len, "sample.tar");
	parsed_analyse(p);
	free(tar);
	for (size_t i = 0; i < sample.n; i++)
		free(sample.data[i]);
}

#define SUBSYS(p1, n1, p2, n2) "nvme-subsys1 - NQN=nqn.x:vol1\n" \
	"               iopolicy=round-robin\n\\\n" \
	" +- nvme1 tcp traddr=10.10." n1 ".1,trsvcid=4420,src_addr=10.10." n1 \
	".2 live\n +- nvme2 tcp traddr=10.10." n2 ".1,trsvcid=4420," \
	"src_addr=10.10." n2 ".2 live\n"

static void
test_paths_per_pf_thresholds(void **state)
{
	struct parsed p;
	const struct pd_finding *a, *b;

	(void)state;
	/* a path on each link (nic2, nic5: port 0 only), nic4 busy without
	 * a path, nic6 idle without one: port 1 carries no path, so it
	 * fires by port on nic6, and nic.idle-pf names nic6 alone (nic5
	 * has a path) */
	sample_with(&p, "samples/bundles/gx10-paths-one-link",
	    "list-subsys.json", SUBSYS("nic2", "1", "nic5", "3"));
	a = find_finding(&p, "nvme.paths-per-pf", NULL);
	b = find_finding(&p, "nic.idle-pf", NULL);
	assert_non_null(a);
	assert_non_null(b);
	assert_string_equal(a->subject, "nic6 (0002:01:00.1)");
	assert_string_equal(b->subject, a->subject);
	assert_non_null(strstr(a->summary, "one port"));
	assert_int_equal(a->confidence, 85);	/* joined by address */
	parsed_free(&p);

	/* paths on both links and ports (nic2, nic6): no link or port
	 * without a path: not fired; nic5 idle without a path is
	 * nic.idle-pf's alone, with the ladder step */
	sample_with(&p, "samples/bundles/gx10-paths-one-link",
	    "list-subsys.json", SUBSYS("nic2", "1", "nic6", "4"));
	assert_int_equal(count_findings(&p, "nvme.paths-per-pf"), 0);
	b = find_finding(&p, "nic.idle-pf", NULL);
	assert_non_null(b);
	assert_string_equal(b->subject, "nic5 (0002:01:00.0)");
	assert_int_equal(b->lever.kind, PD_LEVER_ALL_PFS);
	parsed_free(&p);

	/* a path that is not live does not count: nic5's path connecting,
	 * so link B has none and nic5, nic6 are named */
	sample_with(&p, "samples/bundles/gx10-paths-one-link",
	    "list-subsys.json", "nvme-subsys1 - NQN=nqn.x:vol1\n\\\n"
	    " +- nvme1 tcp traddr=10.10.1.1,trsvcid=4420,src_addr=10.10.1.2 "
	    "live\n +- nvme2 tcp traddr=10.10.3.1,trsvcid=4420,"
	    "src_addr=10.10.3.2 connecting\n");
	a = find_finding(&p, "nvme.paths-per-pf", NULL);
	assert_non_null(a);
	assert_string_equal(a->subject, "nic5 (0002:01:00.0), nic6 "
	    "(0002:01:00.1)");
	parsed_free(&p);
}

int
test_group_nvme(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_subsys_text),
		cmocka_unit_test(test_list_subsys_json),
		cmocka_unit_test(test_iopolicy_layouts),
		cmocka_unit_test(test_ip_addr),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_multipath_samples),
		cmocka_unit_test(test_multipath_thresholds),
		cmocka_unit_test(test_paths_per_pf_agrees_with_idle_pf),
		cmocka_unit_test(test_paths_per_pf_thresholds),
	};

	return cmocka_run_group_tests_name("nvme", tests, NULL, NULL);
}
