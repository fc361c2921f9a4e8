/* See mapped.h.  The note is formatted when the watch starts, so that
 * the handler only writes it: write(2) and _exit(2) are safe in a
 * signal handler, snprintf is not. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "bundle/mapped.h"

static char bus_note[512];
static size_t bus_note_len;

static void
on_bus(int sig)
{
	(void)sig;
	(void)!write(STDERR_FILENO, bus_note, bus_note_len);
	_exit(3);
}

void
pd_mapped_watch(const char *path, struct sigaction *old)
{
	struct sigaction sa;
	int n = snprintf(bus_note, sizeof(bus_note), "pathdoctor: %s: the file "
	    "became shorter while it was read (another program is writing "
	    "it?); read it once it is complete\n", path);

	bus_note_len = n < 0 ? 0 : (size_t)n < sizeof(bus_note) ? (size_t)n :
	    sizeof(bus_note) - 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_bus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, old);
}

void
pd_mapped_unwatch(const struct sigaction *old)
{
	sigaction(SIGBUS, old, NULL);
	bus_note_len = 0;
}
