/* Libraries loaded when first used (src/base/dynlib.c): every function
 * resolved or a message naming the library or the function missing,
 * and one attempt only. */
#include <math.h>
#include <string.h>
#include "helpers.h"
#include "base/dynlib.h"

static struct {
	double (*cos)(double);
	double (*sqrt)(double);
} m;

static void
test_loaded_and_called(void **state)
{
	const struct pd_dynsym syms[] = {
		PD_DYNSYM(m, cos), PD_DYNSYM(m, sqrt), { NULL, NULL, 0 }
	};
	struct pd_dynlib lib = {
		.what = "the test",
		.sonames = (const char *const[]){ "libpd-none.so.9",
		    "libm.so.6", NULL },
		.syms = syms,
	};

	(void)state;
	assert_true(pd_dynlib_load(&lib));
	assert_true(m.cos(0.0) == 1.0);
	assert_true(m.sqrt(16.0) == 4.0);
	assert_true(pd_dynlib_load(&lib));	/* once loaded, stays */
}

static void
test_library_missing(void **state)
{
	void *slot = NULL;
	const struct pd_dynsym syms[] = {
		{ "cos", &slot, sizeof(slot) }, { NULL, NULL, 0 }
	};
	struct pd_dynlib lib = {
		.what = "PostgreSQL support",
		.sonames = (const char *const[]){ "libpd-none.so.9", NULL },
		.syms = syms,
	};

	(void)state;
	assert_false(pd_dynlib_load(&lib));
	assert_non_null(strstr(lib.err, "PostgreSQL support needs "
	    "libpd-none.so.9, which could not be loaded"));
	assert_null(slot);
	/* one attempt: the message stays, nothing is tried again */
	lib.sonames = (const char *const[]){ "libm.so.6", NULL };
	assert_false(pd_dynlib_load(&lib));
	assert_null(slot);
}

static void
test_function_missing(void **state)
{
	void *a = NULL, *b = NULL;
	const struct pd_dynsym syms[] = {
		{ "cos", &a, sizeof(a) }, { "pd_no_such_function", &b,
		sizeof(b) }, { NULL, NULL, 0 }
	};
	struct pd_dynlib lib = {
		.what = "SQLite support",
		.sonames = (const char *const[]){ "libm.so.6", NULL },
		.syms = syms,
	};

	(void)state;
	assert_false(pd_dynlib_load(&lib));
	assert_non_null(strstr(lib.err, "has no function "
	    "pd_no_such_function"));
	assert_null(lib.handle);
	assert_null(a);		/* all or none */
}

/* A library that loads but lacks a function gives way to the next
 * name, and the first name's failure is what a miss would have said. */
static void
test_next_name(void **state)
{
	void *slot = NULL;
	const struct pd_dynsym syms[] = {
		{ "cos", &slot, sizeof(slot) }, { NULL, NULL, 0 }
	};
	struct pd_dynlib lib = {
		.what = "the test",
		.sonames = (const char *const[]){ "libz.so.1", "libm.so.6",
		    NULL },
		.syms = syms,
	};

	(void)state;
	assert_true(pd_dynlib_load(&lib));
	assert_non_null(slot);
	assert_string_equal(lib.err, "");
}

int
test_group_dynlib(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loaded_and_called),
		cmocka_unit_test(test_library_missing),
		cmocka_unit_test(test_function_missing),
		cmocka_unit_test(test_next_name),
	};

	return cmocka_run_group_tests_name("dynlib", tests, NULL, NULL);
}
