/* Libraries only some commands use (the findings database's SQLite
 * and libpq, OpenSSL's SHA-256 for the fleet's bundle hashes), loaded
 * when first needed rather than at every start: libpq alone brings
 * some twenty libraries (Kerberos, LDAP, GnuTLS) whose loading and
 * relocation cost each analysis of one bundle about 4 ms. */
#ifndef PD_BASE_DYNLIB_H
#define PD_BASE_DYNLIB_H

#include <stdbool.h>
#include <stddef.h>

/* One function of the library and where its address goes.  size is
 * taken from an assignment of the real function that is never
 * evaluated (sizeof's operand), so the compiler checks the pointer's
 * type against the library's own header: an error in the check build,
 * a warning in a plain one.  That check is all size is for: its value,
 * a pointer's size, is never read. */
struct pd_dynsym {
	const char *name;
	void *slot;
	size_t size;
};

#define PD_DYNSYM(api, f) { #f, &(api).f, sizeof((api).f = f) }

struct pd_dynlib {
	const char *what;		/* "PostgreSQL support" */
	const char *const *sonames;	/* tried in order; NULL-ended */
	const struct pd_dynsym *syms;	/* NULL-named end */
	void *handle;			/* kept for the process's life */
	bool tried;
	char err[512];
};

/* Loads lib and fills every slot, once; false, with lib->err saying
 * which library or function is missing, when it cannot. */
bool pd_dynlib_load(struct pd_dynlib *lib);

#endif
