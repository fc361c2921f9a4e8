/* Host naming by member path: the directories before the first command
 * directory (or a directory named after a format) name the host; and
 * the outputs a sosreport ran in another network namespace, which are
 * not that host's own interfaces. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "bundle/bundle.h"
#include "pathdoctor/format.h"
#include "pathdoctor/model.h"

/* Directory names that hold command outputs rather than name a host. */
static const char *const command_dirs[] = {
	"sos_commands", "proc", "sys", "etc", "boot", "var", "commands",
	"cmd", "ethtool", "pci", "networking", "kernel", "hardware",
	"processor", "captures", "pcaps", "perf", "profiles", "cpu",
	"uname", "workload", "nvme", "sysfs", NULL,
};

static bool
is_command_dir(const char *comp, size_t n)
{
	for (const char *const *d = command_dirs; *d; d++)
		if (strlen(*d) == n && memcmp(*d, comp, n) == 0)
			return true;
	for (const struct pd_format *const *f = pd_formats; *f; f++) {
		size_t k = strlen((*f)->name);

		if (k <= n && memcmp((*f)->name, comp, k) == 0 &&
		    (k == n || comp[k] == '.' || comp[k] == '_'))
			return true;
	}
	return false;
}

struct pd_host *
pd_model_host_for_path(struct pd_model *m, const char *path)
{
	const char *end = path, *p = path;

	/* The key is every directory before the first command directory;
	 * the last component (the file itself) never counts. */
	for (;;) {
		const char *slash = strchr(p, '/');

		if (!slash)
			break;
		if (is_command_dir(p, (size_t)(slash - p)))
			break;
		end = slash;
		p = slash + 1;
	}
	char key[1024];
	size_t n = (size_t)(end - path);

	if (n >= sizeof(key))
		n = sizeof(key) - 1;
	memcpy(key, path, n);
	key[n] = '\0';
	return pd_model_host(m, key);
}

/* sos names the commands it runs in a namespace "ip netns exec NS CMD":
 * ip_netns_exec_NS_ip_-d_link in sos_commands/networking (older sos), or
 * under sos_commands/networking/namespaces/NS/ (sos 4).  The namespace
 * name ends where a command the networking plugin runs begins. */
bool
pd_path_netns(const char *path, char *ns, size_t cap)
{
	static const char *const cmds[] = { "_ip_", "_ip6tables", "_iptables",
		"_ethtool", "_netstat", "_nstat", "_ss_", "_tc_", "_bridge_",
		"_sysctl_", "_conntrack", "_bpftool", NULL };
	static const char prefix[] = "ip_netns_exec_";
	const char *base = strrchr(path, '/'), *dir;

	base = base ? base + 1 : path;
	if (strncmp(base, prefix, sizeof(prefix) - 1) == 0) {
		const char *n = base + sizeof(prefix) - 1, *end = NULL;

		for (const char *const *c = cmds; *c; c++) {
			const char *p = strstr(n, *c);

			if (p && p > n && (!end || p < end))
				end = p;
		}
		if (!end)
			end = n + strcspn(n, "_");
		snprintf(ns, cap, "%.*s", (int)(end - n), n);
		return end > n;
	}
	if ((dir = strstr(path, "networking/namespaces/"))) {
		const char *n = dir + 22;
		size_t len = strcspn(n, "/");

		if (len && n[len] == '/') {
			snprintf(ns, cap, "%.*s", (int)len, n);
			return true;
		}
	}
	return false;
}
