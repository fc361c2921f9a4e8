/* "lspci-vv": lspci -vv (also -vvv, -vvnn, -D), per device: class,
 * vendor/device ids, driver, NUMA node, PCIe capability (DevCap/DevCtl
 * MaxPayload and MaxReadReq, LnkCap/LnkSta speed and width), Device
 * Serial Number, SR-IOV, and bridges' bus numbers.
 *
 * Reference: pciutils ls-caps.c.  Variants handled: DevCtl "Report
 * errors:" (before v3.6.0, aca4810) and "CorrErr-" styles; LnkSta on one
 * line (to v3.5), "(ok)/(downgraded)" marks (v3.6, b47b5bd) and bare or
 * "(downgraded)" (v3.8, 9f76812); "Speed unknown" and "Width x0" (link
 * down); "Capabilities: <access denied>" (not root: unknown, not
 * false); hex dump lines of -x/-xxx ("00: ") and -xxxx ("100: ");
 * indentation by tabs or spaces; lines wrapped by a mail client (a
 * continuation at column 0 is joined back).  What pastes and collectors
 * add at column 0 is not a wrapped line: the command line or a shell
 * prompt before the first device, and lspci's own messages ("lspci:
 * Unable to load libkmod resources: error -12"), which sos keeps in the
 * file, first when stderr came out before stdout.  lspci -v (one v)
 * lists the capabilities without their DevCap/DevCtl/LnkCap/LnkSta
 * lines: read as not readable, with a note, so no check takes the
 * missing lines for zeros.
 */
#include <stdlib.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/diag.h"
#include "pathdoctor/format.h"
#include "pathdoctor/input.h"
#include "pathdoctor/model.h"
#include "pathdoctor/text.h"

struct ctx {
	const struct pd_member *m;
	struct pd_host *h;
	struct pd_diag *d;
	struct pd_arena *a;
	struct pd_pcidev *dev;		/* device block being read */
	bool denied_noted, tool_noted;
	bool details;			/* a DevCap/DevCtl/LnkCap/LnkSta line */
	uint32_t lineno;
	const char *text;		/* the whole line, for evidence */
	size_t text_len;
};

/* "00:1f.3 Audio device: ..." with an optional "0000:" domain. */
static size_t
header_bdf(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
    unsigned *fn)
{
	size_t n = pd_bdf_parse(s, dom, bus, dev, fn);

	return n && s[n] == ' ' ? n : 0;
}

static bool
is_hexdump(const char *s)
{
	/* "00: b5 13 00 01 ..." from lspci -x; "100: ..." from -xxxx, whose
	 * extended space runs to "ff0:" */
	size_t n = strspn(s, "0123456789abcdef");

	return (n == 2 || n == 3) && s[n] == ':' && s[n + 1] == ' ' &&
	    strspn(s + n + 2, "0123456789abcdef") == 2;
}

/* lspci's own message on stderr: "lspci: Unable to load libkmod
 * resources: error -12" (the "Kernel modules:" lines are missing). */
static bool
is_tool_message(const char *s)
{
	return pd_starts_with(s, "lspci: ");
}

/* Before the first device: the command a paste shows ("lspci -vvxxx:",
 * "# lspci -vv", "user@host:~$ sudo lspci -vv") or a bare prompt. */
static bool
is_preamble(const char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0 || n > 200)
		return false;
	return strstr(s, "lspci") != NULL || s[n - 1] == '$' ||
	    s[n - 1] == '#';
}

static void
evidence(struct ctx *c, struct pd_evidence *ev)
{
	pd_evidence_set(ev, c->a, c->m->path, c->lineno, c->text, c->text_len);
}

/* "8GT/s" -> 8000; "2.5GT/s" -> 2500; "unknown" -> 0. */
static int
parse_speed(const char *s)
{
	static const struct { const char *name; int mts; } speeds[] = {
		{ "2.5GT/s", 2500 }, { "5GT/s", 5000 }, { "8GT/s", 8000 },
		{ "16GT/s", 16000 }, { "32GT/s", 32000 }, { "64GT/s", 64000 },
		{ "128GT/s", 128000 },
	};
	for (size_t i = 0; i < PD_ARRAY_SIZE(speeds); i++)
		if (pd_starts_with(s, speeds[i].name))
			return speeds[i].mts;
	return 0;
}

static int
field_int(const char *line, const char *key)
{
	const char *p = strstr(line, key);
	uint64_t v;

	if (!p || !pd_parse_u64(p + strlen(key), 10, &v, NULL) || v > 1 << 20)
		return -1;
	return (int)v;
}

static void
header(struct ctx *c, const char *line, size_t n, unsigned dom, unsigned bus,
    unsigned dev, unsigned fn)
{
	bool created;
	struct pd_pcidev *d = pd_host_pcidev(c->h, c->a, dom, bus, dev, fn,
	    &created);
	const char *p = line + n + 1, *colon = strstr(p, ": ");

	c->dev = d;
	d->member = c->m->path;
	evidence(c, &d->ev_header);
	if (!colon) {
		d->class_name = pd_arena_strdup(c->a, p);
		return;
	}
	const char *cls_end = colon;
	/* -nn: "Ethernet controller [0200]: ... [15b3:1021] (rev 01)" */
	if (cls_end - p > 7 && cls_end[-1] == ']' && cls_end[-6] == '[') {
		uint64_t v;

		if (pd_parse_u64(cls_end - 5, 16, &v, NULL))
			d->class_code = (int)v;
		cls_end -= 7;
	}
	d->class_name = pd_arena_strndup(c->a, p, (size_t)(cls_end - p));
	const char *desc = colon + 2, *end = strstr(desc, " (rev ");

	if (!end)
		end = strstr(desc, " (prog-if ");
	if (!end)
		end = desc + strlen(desc);
	/* the last "[vvvv:dddd]" before the end is the id pair */
	for (const char *q = end - 1; q - desc >= 10; q--) {
		if (*q == ']' && q[-10] == '[' && q[-5] == ':') {
			uint64_t v, w;

			if (pd_parse_u64(q - 9, 16, &v, NULL) &&
			    pd_parse_u64(q - 4, 16, &w, NULL)) {
				d->vendor_id = (int)v;
				d->device_id = (int)w;
				end = q - 10;
				while (end > desc && end[-1] == ' ')
					end--;
			}
			break;
		}
	}
	d->desc = pd_arena_strndup(c->a, desc, (size_t)(end - desc));
	d->is_vf = strstr(desc, "Virtual Function") != NULL;
	d->is_bridge = strcmp(d->class_name, "PCI bridge") == 0 ||
	    strcmp(d->class_name, "CardBus bridge") == 0 ||
	    d->class_code == 0x0604;
}

static const struct { const char *name; enum pd_port_type type; } ports[] = {
	{ "Root Complex Integrated Endpoint", PD_PORT_RCIEP },
	{ "Root Complex Event Collector", PD_PORT_RC_EC },
	{ "Legacy Endpoint", PD_PORT_LEGACY_ENDPOINT },
	{ "Endpoint", PD_PORT_ENDPOINT },
	{ "Root Port", PD_PORT_ROOT },
	{ "Upstream Port", PD_PORT_UPSTREAM },
	{ "Downstream Port", PD_PORT_DOWNSTREAM },
	{ "PCI-Express to PCI", PD_PORT_PCIE_TO_PCI },
	{ "PCI/PCI-X to PCI-Express", PD_PORT_PCI_TO_PCIE },
};

static void
capability(struct ctx *c, const char *s)
{
	struct pd_pcidev *d = c->dev;

	if (strstr(s, "<access denied>")) {
		d->caps_readable = PD_NO;
		if (!c->denied_noted)
			pd_diag_note(c->d, PD_WARN, "lspci-vv.caps-denied",
			    c->lineno, "capabilities not readable (lspci run "
			    "without root); PCIe checks need 'sudo lspci -vv'");
		c->denied_noted = true;
		return;
	}
	d->caps_readable = PD_YES;
	const char *x = strstr(s, "] Express ");

	if (x) {
		/* "(v2) " is printed from -vv on: -v has "Express Endpoint" */
		const char *t = pd_skip_space(x + 10);

		if (*t == '(' && strchr(t, ')'))
			t = pd_skip_space(strchr(t, ')') + 1);
		d->has_express = true;
		for (size_t i = 0; i < PD_ARRAY_SIZE(ports); i++)
			if (pd_starts_with(t, ports[i].name)) {
				d->port = ports[i].type;
				break;
			}
		return;
	}
	const char *dsn = strstr(s, "Device Serial Number ");

	if (dsn) {
		uint64_t v = 0;
		int bytes = 0;

		for (const char *p = dsn + 21; bytes < 8; p += 3, bytes++) {
			uint64_t b;
			const char *e;

			if (!pd_parse_u64(p, 16, &b, &e) || e - p != 2)
				break;
			v = v << 8 | b;
			if (*e != '-')
				{ bytes++; break; }
		}
		if (bytes == 8) {
			d->has_dsn = true;
			d->dsn = v;
			evidence(c, &d->ev_dsn);
		} else {
			pd_diag_note(c->d, PD_WARN, "lspci-vv.bad-dsn",
			    c->lineno, "unreadable serial number in '%s'", s);
		}
	}
}

static void
link_fields(struct ctx *c, const char *s, int *mts, int *width,
    bool is_status)
{
	struct pd_pcidev *d = c->dev;
	const char *sp = strstr(s, "Speed ");
	int w = field_int(s, "Width x");

	if (!sp || w < 0) {
		pd_diag_note(c->d, PD_WARN, "lspci-vv.bad-link", c->lineno,
		    "no speed or width in '%s'", s);
		return;
	}
	*mts = parse_speed(sp + 6);
	*width = w;
	if (!is_status)
		return;
	d->lnk_down = *mts == 0 || w == 0;
	static const char *const marks[] = { "(downgraded)", "(strange)",
		"(overdriven)", "(ok)" };
	for (size_t i = 0; i < PD_ARRAY_SIZE(marks); i++)
		if (strstr(s, marks[i])) {
			d->lnksta_mark = pd_arena_strndup(c->a, marks[i] + 1,
			    strlen(marks[i]) - 2);
			break;
		}
}

static void
indented(struct ctx *c, const char *s)
{
	struct pd_pcidev *d = c->dev;
	int v;

	if (!d)
		return;
	if (pd_starts_with(s, "Capabilities:")) {
		capability(c, s);
	} else if (pd_starts_with(s, "DevCap:")) {
		c->details = true;
		if ((v = field_int(s, "MaxPayload ")) > 0) {
			d->mps_cap = v;
			evidence(c, &d->ev_devcap);
		}
	} else if (strstr(s, "MaxPayload ") && strstr(s, "MaxReadReq ")) {
		c->details = true;
		d->mps = field_int(s, "MaxPayload ");
		d->mrrs = field_int(s, "MaxReadReq ");
		if (d->mps < 0 || d->mrrs < 0) {
			pd_diag_note(c->d, PD_WARN, "lspci-vv.bad-devctl",
			    c->lineno, "unreadable DevCtl sizes in '%s'", s);
			d->mps = d->mrrs = 0;
		}
		evidence(c, &d->ev_devctl);
	} else if (pd_starts_with(s, "LnkCap:")) {
		c->details = true;
		link_fields(c, s, &d->lnkcap_mts, &d->lnkcap_width, false);
		evidence(c, &d->ev_lnkcap);
	} else if (pd_starts_with(s, "LnkSta:")) {
		c->details = true;
		link_fields(c, s, &d->lnksta_mts, &d->lnksta_width, true);
		evidence(c, &d->ev_lnksta);
	} else if (pd_starts_with(s, "Kernel driver in use:")) {
		d->driver = pd_arena_strdup(c->a, pd_skip_space(s + 21));
	} else if (pd_starts_with(s, "Kernel modules:")) {
		d->modules = pd_arena_strdup(c->a, pd_skip_space(s + 15));
	} else if (pd_starts_with(s, "NUMA node:")) {
		d->numa_node = field_int(s, "NUMA node: ");
	} else if (pd_starts_with(s, "IOMMU group:")) {
		d->iommu_group = field_int(s, "IOMMU group: ");
	} else if (pd_starts_with(s, "Bus: primary=")) {
		uint64_t p, sec, sub;
		const char *q = s + 13;

		d->is_bridge = true;
		if (pd_parse_u64(q, 16, &p, &q) &&
		    pd_starts_with(q, ", secondary=") &&
		    pd_parse_u64(q + 12, 16, &sec, &q) &&
		    pd_starts_with(q, ", subordinate=") &&
		    pd_parse_u64(q + 14, 16, &sub, NULL) && p < 256 &&
		    sec < 256 && sub < 256) {
			d->bus_primary = (int)p;
			d->bus_secondary = (int)sec;
			d->bus_subordinate = (int)sub;
		} else {
			pd_diag_note(c->d, PD_WARN, "lspci-vv.bad-bus",
			    c->lineno, "unreadable bus numbers in '%s'", s);
		}
	} else if (pd_starts_with(s, "Initial VFs:")) {
		d->sriov_total = field_int(s, "Total VFs: ");
		d->sriov_num = field_int(s, "Number of VFs: ");
	} else if (pd_starts_with(s, "VF offset:")) {
		d->sriov_offset = field_int(s, "VF offset: ");
		d->sriov_stride = field_int(s, "stride: ");
	}
}

static void
tool_message(struct ctx *c, const char *line)
{
	if (c->tool_noted)
		return;
	c->tool_noted = true;
	pd_diag_note(c->d, PD_WARN, "lspci-vv.tool-message", c->lineno,
	    "lspci's own message in the output: '%.80s'%s", line,
	    strstr(line, "libkmod") ? " ('Kernel modules:' lines are "
	    "missing; the drivers in use are not)" : "");
}

static void
dispatch(struct ctx *c, const char *line, size_t len)
{
	unsigned dom, bus, dev, fn;
	size_t n;

	c->text = line;
	c->text_len = len;
	if (len == 0)
		return;
	if (line[0] == ' ' || line[0] == '\t')
		indented(c, pd_skip_space(line));
	else if ((n = header_bdf(line, &dom, &bus, &dev, &fn)) != 0)
		header(c, line, n, dom, bus, dev, fn);
	else if (is_hexdump(line))
		return;		/* -x output is expected, not odd: no note */
	else if (is_tool_message(line))
		tool_message(c, line);
	else if (c->dev || !is_preamble(line))
		pd_diag_note(c->d, PD_WARN, "lspci-vv.stray-line", c->lineno,
		    "line outside any device block: '%.60s'", line);
}

/* Mail clients wrap long lines: a line at column 0 that is not a device
 * header, a hex dump, lspci's message or a prompt continues the previous
 * one. */
static bool
is_continuation(const char *line, size_t len, bool have_pending)
{
	unsigned a, b, e, f;

	return have_pending && len > 0 && line[0] != ' ' && line[0] != '\t' &&
	    !header_bdf(line, &a, &b, &e, &f) && !is_hexdump(line) &&
	    !is_tool_message(line) && !is_preamble(line);
}

/* lspci -v: capabilities named, none of their detail lines anywhere. */
static void
finish(struct ctx *c, struct pd_host *h, unsigned joined)
{
	bool listed = false;

	for (struct pd_pcidev *d = h->pcidevs; d; d = d->next)
		if (d->member == c->m->path && d->has_express &&
		    d->caps_readable == PD_YES)
			listed = true;
	if (listed && !c->details) {
		for (struct pd_pcidev *d = h->pcidevs; d; d = d->next)
			if (d->member == c->m->path &&
			    d->caps_readable == PD_YES)
				d->caps_readable = PD_NO;
		pd_diag_note(c->d, PD_WARN, "lspci-vv.no-details", 0,
		    "lspci -v output (one v): capabilities without their "
		    "DevCap, DevCtl, LnkCap and LnkSta lines; PCIe checks need "
		    "'lspci -vv'");
	}
	if (joined)
		pd_diag_note(c->d, PD_WARN, "lspci-vv.wrapped-lines", 0,
		    "%u wrapped lines joined back (mail-wrapped output?)",
		    joined);
	if (h->n_pcidevs == 0)
		pd_diag_note(c->d, PD_WARN, "lspci-vv.no-devices", 0,
		    "no PCI devices listed");
}

static enum pd_status
parse_lspci_vv(const struct pd_member *m, struct pd_input *in,
    struct pd_host *h, struct pd_diag *d)
{
	struct ctx c = { .m = m, .h = h, .d = d, .a = d->arena };
	char *pending = NULL;
	size_t plen = 0, pcap = 0;
	uint32_t pline = 0;
	unsigned joined = 0;
	const char *line;
	size_t len;
	int more;

	do {
		more = pd_input_getline(in, &line, &len);
		if (more && is_continuation(line, len, pending && plen)) {
			if (plen + len + 2 <= in->max_line + 2) {
				if (plen + len + 2 > pcap) {
					pcap = plen + len + 2;
					pending = pd_xrealloc(pending, pcap);
				}
				pending[plen++] = ' ';
				memcpy(pending + plen, line, len);
				plen += len;
				pending[plen] = '\0';
			}
			joined++;
			continue;
		}
		if (pending) {
			c.lineno = pline;
			dispatch(&c, pending, plen);
		}
		if (!more)
			break;
		if (len + 1 > pcap) {
			pcap = len + 1;
			pending = pd_xrealloc(pending, pcap);
		}
		memcpy(pending, line, len + 1);
		plen = len;
		pline = in->line_no;
	} while (more);
	free(pending);
	finish(&c, h, joined);
	return PD_OK;
}

static int
bid_lspci_vv(const struct pd_member *m)
{
	static const char *const keys[] = { "Subsystem:", "Control:",
		"Status:", "Capabilities:", "Kernel driver in use:",
		"Latency:", "Flags:", "Physical Slot:", NULL };
	char line[512];
	unsigned dom, bus, dev, fn;
	int bid = 0, extra = 0;
	unsigned preamble = 0;

	if (!pd_text_plausible(m->head, m->head_len))
		return 0;
	for (unsigned i = 0; i < 64 && extra < 3 &&
	    pd_text_head_line(m->head, m->head_len, i, line, sizeof(line));
	    i++) {
		if (bid == 0) {
			if (line[0] == '\0')
				continue;
			/* at most four lines of a paste's command, prompt or
			 * lspci's own message before the first device */
			if (preamble < 4 &&
			    !header_bdf(line, &dom, &bus, &dev, &fn) &&
			    (is_preamble(line) || is_tool_message(line))) {
				preamble++;
				continue;
			}
			if (!header_bdf(line, &dom, &bus, &dev, &fn) ||
			    !strstr(line, ": "))
				return 0;
			bid = 48;
			continue;
		}
		const char *s = pd_skip_space(line);

		if (s == line)
			continue;
		for (const char *const *k = keys; *k; k++)
			if (pd_starts_with(s, *k)) {
				extra++;
				break;
			}
	}
	return bid ? bid + 8 * extra : 0;
}

static const char *const hints[] = { "lspci_-nnvv", "lspci_-vv",
	"lspci-nnvv", "lspci-vvv", "lspci", NULL };

const struct pd_format pd_format_lspci_vv = {
	.name = "lspci-vv",
	.summary = "PCI devices: MaxPayload, MaxReadReq, link speed/width, "
	    "serial number, driver, NUMA node, bridges",
	.command = "lspci -vv (as root; -nn and -D welcome)",
	.hints = hints,
	.gives = PD_HAVE_PCI | PD_HAVE_PCIE_LINK | PD_HAVE_NETDEV_PCI,
	.collect = "lspci -vv output",
	.bid = bid_lspci_vv,
	.parse = parse_lspci_vv,
};
