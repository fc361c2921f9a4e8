/* The NVMe subsystems and paths of a host, and the host's addresses:
 * lookups that merge what several readers say of one subsystem (the
 * text and JSON of nvme list-subsys, the sysfs iopolicy files), and the
 * address arithmetic the path-to-netdev join uses. */
#include <arpa/inet.h>
#include <string.h>
#include "pathdoctor/arena.h"
#include "pathdoctor/model.h"

struct pd_nvme_subsys *
pd_host_nvme_subsys(struct pd_host *h, struct pd_arena *a, const char *name)
{
	struct pd_nvme_subsys **pp = &h->nvme;

	for (; *pp; pp = &(*pp)->next)
		if (strcmp((*pp)->name, name) == 0)
			return *pp;
	if (h->n_nvme >= PD_NVME_MAX_SUBSYS)
		return NULL;
	*pp = pd_arena_alloc(a, sizeof(**pp));
	memset(*pp, 0, sizeof(**pp));
	(*pp)->name = pd_arena_strdup(a, name);
	h->n_nvme++;
	return *pp;
}

struct pd_nvme_path *
pd_nvme_subsys_path(struct pd_nvme_subsys *s, struct pd_arena *a,
    const char *ctrl)
{
	struct pd_nvme_path **pp = &s->paths;

	for (; *pp; pp = &(*pp)->next)
		if (strcmp((*pp)->ctrl, ctrl) == 0)
			return *pp;
	if (s->n_paths >= PD_NVME_MAX_PATHS)
		return NULL;
	*pp = pd_arena_alloc(a, sizeof(**pp));
	memset(*pp, 0, sizeof(**pp));
	(*pp)->ctrl = pd_arena_strdup(a, ctrl);
	s->n_paths++;
	return *pp;
}

struct pd_ipaddr *
pd_host_ipaddr(struct pd_host *h, struct pd_arena *a)
{
	struct pd_ipaddr **pp = &h->ipaddrs;

	if (h->n_ipaddrs >= PD_IPADDR_MAX)
		return NULL;
	while (*pp)
		pp = &(*pp)->next;
	*pp = pd_arena_alloc(a, sizeof(**pp));
	memset(*pp, 0, sizeof(**pp));
	h->n_ipaddrs++;
	return *pp;
}

unsigned
pd_ip_parse(const char *s, size_t n, uint8_t out[16])
{
	char buf[64];
	const char *pct = memchr(s, '%', n);

	if (pct)		/* a zone: "fe80::1%nic2" */
		n = (size_t)(pct - s);
	if (n == 0 || n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	memset(out, 0, 16);
	if (inet_pton(AF_INET, buf, out) == 1)
		return 4;
	if (inet_pton(AF_INET6, buf, out) == 1)
		return 6;
	return 0;
}

bool
pd_ip_in_prefix(const uint8_t *a, const uint8_t *b, unsigned family,
    unsigned prefix)
{
	unsigned bits = family == 4 ? 32 : 128;

	if (prefix > bits)
		return false;
	for (unsigned i = 0; i < prefix / 8; i++)
		if (a[i] != b[i])
			return false;
	if (prefix % 8) {
		uint8_t m = (uint8_t)(0xff << (8 - prefix % 8));

		return (a[prefix / 8] & m) == (b[prefix / 8] & m);
	}
	return true;
}

const char *
pd_nvme_join_name(enum pd_nvme_join j)
{
	switch (j) {
	case PD_NVME_JOIN_IFACE:
		return "host_iface";
	case PD_NVME_JOIN_ADDR:
		return "host address";
	case PD_NVME_JOIN_SUBNET:
		return "subnet";
	case PD_NVME_JOIN_NONE:
		break;
	}
	return NULL;
}
