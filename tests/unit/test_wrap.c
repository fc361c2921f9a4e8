/* The terminal layout (src/report/wrap.c): prose wrapped at spaces with
 * a hanging indent, commands cut only where a shell continues them,
 * tables fitted to the width; the width and colour decisions; and the
 * grammar of a profile group's name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "helpers.h"
#include "pathdoctor/arena.h"
#include "pathdoctor/profile.h"
#include "report/wrap.h"

/* What fn printed into a memory stream, for comparing. */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *
mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
	return m->f;
}

static void
mem_check(struct mem *m, const char *want)
{
	fclose(m->f);
	assert_string_equal(m->buf, want);
	free(m->buf);
}

static void
test_text(void **state)
{
	struct mem m;

	(void)state;
	pd_wrap_text(mem_open(&m), 20, 4, 4, "one two three four five six");
	mem_check(&m, "one two three\n    four five six\n");
	/* a word longer than the line is the only one broken */
	pd_wrap_text(mem_open(&m), 12, 2, 2, "ab abcdefghijklmnop cd");
	mem_check(&m, "ab\n  abcdefghij\n  klmnop cd\n");
	/* a number keeps its unit */
	pd_wrap_text(mem_open(&m), 16, 0, 2, "reads at 6.30 GB/s and 57.0 %");
	mem_check(&m, "reads at\n  6.30 GB/s and\n  57.0 %\n");
	/* past a long label, the first word goes to the next line */
	pd_wrap_text(mem_open(&m), 20, 16, 2, "abcdefgh ij");
	mem_check(&m, "\n  abcdefgh ij\n");
	pd_wrap_text(mem_open(&m), 40, 0, 2, "first\nsecond");
	mem_check(&m, "first\n  second\n");
}

static void
test_code(void **state)
{
	struct mem m;

	(void)state;
	/* fits: as it is */
	pd_wrap_code(mem_open(&m), 40, 5, 5, "sudo reboot");
	mem_check(&m, "sudo reboot\n");
	/* cut at a space outside the quotes, with a continuation */
	pd_wrap_code(mem_open(&m), 36, 5, 5,
	    "sudo sed -i 's/a b c d e/x/' /etc/default/grub");
	mem_check(&m, "sudo sed -i 's/a b c d e/x/' \\\n"
	    "       /etc/default/grub\n");
	/* no cut possible: left long */
	pd_wrap_code(mem_open(&m), 20, 5, 5, "printf 'a b c d e f g h i j k'");
	mem_check(&m, "printf \\\n       'a b c d e f g h i j k'\n");
	/* a comment wraps as prose, each piece a comment */
	pd_wrap_code(mem_open(&m), 30, 5, 5,
	    "# persist it: a systemd .link file or nmcli");
	mem_check(&m, "# persist it: a systemd\n     # .link file or nmcli\n");
	/* nothing is cut inside a trailing comment */
	pd_wrap_code(mem_open(&m), 20, 0, 0, "ls # a b c d e f g h i j k");
	mem_check(&m, "ls \\\n  # a b c d e f g h i j k\n");
}

static void
test_table(void **state)
{
	struct pd_arena *a = pd_arena_new();
	static const char *const r0[] = { "PF", "ceiling", "pause" };
	static const char *const r1[] = { "0000:01:00.0",
		"13.5 GB/s (MPS 128)", "rx off, tx off" };
	struct pd_table t;
	struct mem m;

	(void)state;
	pd_table_init(&t, a, 3, 2, 2);
	t.keep[0] = true;
	pd_table_row(&t, r0);
	pd_table_row(&t, r1);
	/* wide enough: laid out from the cells' widths */
	pd_table_print(&t, mem_open(&m), 80);
	mem_check(&m, "  PF            ceiling              pause\n"
	    "  0000:01:00.0  13.5 GB/s (MPS 128)  rx off, tx off\n");
	/* too narrow: the widest columns fold, the kept one stays whole */
	pd_table_print(&t, mem_open(&m), 36);
	mem_check(&m, "  PF            ceiling    pause\n"
	    "  0000:01:00.0  13.5 GB/s  rx off,\n"
	    "                (MPS 128)  tx off\n");
	pd_arena_free(a);
}

static void
test_width(void **state)
{
	int fd[2];

	(void)state;
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(pd_term_width(fd[1], 132), 132);
	setenv("COLUMNS", "100", 1);
	assert_int_equal(pd_term_width(fd[1], 0), 100);
	setenv("COLUMNS", "wide", 1);
	assert_int_equal(pd_term_width(fd[1], 0), 80);
	unsetenv("COLUMNS");
	assert_int_equal(pd_term_width(fd[1], 0), 80);
	/* never colour what is not a terminal */
	unsetenv("NO_COLOR");
	setenv("TERM", "xterm", 1);
	assert_false(pd_term_colour(fd[1]));
	close(fd[0]);
	close(fd[1]);
}

static void
test_group_names(void **state)
{
	struct pd_arena *a = pd_arena_new();

	(void)state;
	assert_true(pd_prof_group_plural(PD_PROF_ALL_CPUS));
	assert_false(pd_prof_group_plural("Cortex-X925"));
	assert_string_equal(pd_prof_group_cores(a, "Cortex-X925", true),
	    "the Cortex-X925 cores");
	assert_string_equal(pd_prof_group_cores(a, "Cortex-X925", false),
	    "Cortex-X925 cores");
	assert_string_equal(pd_prof_group_cores(a, PD_PROF_ALL_CPUS, true),
	    "all CPUs");
	pd_arena_free(a);
}

int
test_group_wrap(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_code),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_group_names),
	};

	return cmocka_run_group_tests_name("wrap", tests, NULL, NULL);
}
