/* See dynlib.h.  A library once loaded is never closed: libpq and
 * OpenSSL keep process-wide state that their own exit handlers tear
 * down. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "base/dynlib.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Every slot filled, or none: a library lacking one function is not
 * used at all. */
static bool
resolve(struct pd_dynlib *lib, void *h, const char *soname)
{
	for (const struct pd_dynsym *s = lib->syms; s->name; s++) {
		if (!dlsym(h, s->name)) {
			snprintf(lib->err, sizeof(lib->err), "%s needs %s, "
			    "and the %s loaded has no function %s", lib->what,
			    lib->sonames[0], soname, s->name);
			return false;
		}
	}
	for (const struct pd_dynsym *s = lib->syms; s->name; s++) {
		void *p = dlsym(h, s->name);

		memcpy(s->slot, &p, sizeof(p));
	}
	return true;
}

/* The first name that loads with every function wins; a library that
 * loaded without them stays loaded, unused (its constructors ran). The
 * message is of the first name's failure, the one to install. */
static bool
load(struct pd_dynlib *lib)
{
	for (const char *const *n = lib->sonames; *n; n++) {
		void *h = dlopen(*n, RTLD_NOW | RTLD_LOCAL);

		if (!h) {
			if (!lib->err[0]) {
				const char *why = dlerror();

				snprintf(lib->err, sizeof(lib->err), "%s needs "
				    "%s, which could not be loaded: %s",
				    lib->what, lib->sonames[0], why ? why :
				    "no library of that name");
			}
			continue;
		}
		if (resolve(lib, h, *n)) {
			lib->handle = h;
			lib->err[0] = '\0';
			return true;
		}
	}
	return false;
}

bool
pd_dynlib_load(struct pd_dynlib *lib)
{
	bool ok;

	pthread_mutex_lock(&lock);
	if (!lib->tried) {
		lib->tried = true;
		(void)load(lib);
	}
	ok = lib->handle != NULL;
	pthread_mutex_unlock(&lock);
	return ok;
}
