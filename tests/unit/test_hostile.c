/* Hostile binary members: offsets and sizes whose sums wrap, in a
 * bundle with a sound sibling member that must still be read. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "decode/profile.h"
#include "helpers.h"
#include "pathdoctor/model.h"
#include "pathdoctor/profile.h"

#define U64_NEAR_MAX(k) (UINT64_MAX - (uint64_t)(k) + 1)

static const char SCRIPT[] =
    "iperf 27409/28744 [000] 441995.133575: cpu-clock: \n"
    "\t          59fef5 copy_user_enhanced_fast_string ([kernel.kallsyms])\n"
    "\t          86bb0e skb_copy_datagram_iter ([kernel.kallsyms])\n"
    "\n"
    "iperf 27409/28744 [000] 441995.134575: cpu-clock: \n"
    "\t          59fef5 copy_user_enhanced_fast_string ([kernel.kallsyms])\n"
    "\n";

static void
put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* A little-endian perf.data header with these fields, then one
 * 120-byte attribute and its (empty) ids section: 240 bytes. */
static unsigned char *
perf_file(uint64_t attr_size, uint64_t attrs_off, uint64_t attrs_size,
    size_t *len)
{
	unsigned char *p = calloc(1, 240);

	memcpy(p, "PERFILE2", 8);
	put64(p + 8, 104);
	put64(p + 16, attr_size);
	put64(p + 24, attrs_off);
	put64(p + 32, attrs_size);
	put64(p + 40, 240);		/* data at the end, empty */
	p[104] = 1;			/* PERF_TYPE_SOFTWARE */
	p[108] = 120;
	*len = 240;
	return p;
}

/* A minimal ELF64 header whose section headers lie at shoff. */
static unsigned char *
elf_file(uint64_t shoff, size_t *len)
{
	unsigned char *p = calloc(1, 320);

	memcpy(p, "\177ELF\2\1\1", 7);
	p[16] = 2;			/* ET_EXEC */
	p[18] = 62;			/* EM_X86_64 */
	p[20] = 1;
	put64(p + 40, shoff);
	p[52] = 64;			/* e_ehsize */
	p[54] = 56;
	p[58] = 64;
	p[60] = 4;			/* e_shnum */
	*len = 320;
	return p;
}

/* One bundle: the hostile member and a perf script beside it. */
static void
read_pair(struct parsed *p, const char *name, const unsigned char *data,
    size_t len)
{
	struct tar_entry e[] = {
		{ .path = name, .data = data, .len = len },
		{ .path = "h/perf-script.txt", .data = SCRIPT },
		{ .path = "h/uname.txt", .data = "Linux db1 6.1.0-13-amd64 #1 "
		    "SMP PREEMPT_DYNAMIC Debian 6.1.55-1 x86_64 GNU/Linux\n" },
	};
	size_t tar_len;
	unsigned char *tar = make_tar(e, 3, 1, &tar_len);

	parsed_read_memory(p, tar, tar_len, "upload.tgz");
	free(tar);
}

/* The sibling perf script was read into a profile with its samples. */
static void
assert_sibling_read(const struct parsed *p)
{
	const struct pd_member_result *r = member_result(p,
	    "h/perf-script.txt");
	const struct pd_profile *pr = NULL;

	assert_non_null(r);
	assert_string_equal(r->format, "perf-script");
	assert_int_equal(r->diag.worst, PD_OK);
	for (unsigned i = 0; i < p->m->n_hosts && !pr; i++)
		for (pr = p->m->hosts[i].profiles; pr; pr = pr->next)
			if (strcmp(pr->reader, "perf script") == 0)
				break;
	assert_non_null(pr);
	assert_int_equal(pr->samples, 2);
}

static void
test_perf_attr_size_wraps(void **state)
{
	/* 2^64 - 8 wraps o + attr_size below o; 2^64 - 104 reads before
	 * the buffer; attrs at 2^64 - 64 wrap attrs_off + attrs_size */
	const uint64_t cases[][3] = {
		{ U64_NEAR_MAX(8), 104, 136 },
		{ U64_NEAR_MAX(104), 104, 136 },
		{ 136, U64_NEAR_MAX(64), 200 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parsed p;
		size_t len;
		unsigned char *f = perf_file(cases[i][0], cases[i][1],
		    cases[i][2], &len);

		read_pair(&p, "h/perf.data", f, len);
		assert_int_equal(p.rc, 0);
		const struct pd_member_result *r = member_result(&p,
		    "h/perf.data");

		assert_non_null(r);
		assert_string_equal(r->path, "h/perf.data");
		assert_string_equal(r->format, "perf.data");
		assert_true(has_note(r, "perf.header"));
		assert_int_equal(r->diag.worst, PD_FAILED);
		assert_sibling_read(&p);
		parsed_free(&p);
		free(f);
	}
}

static void
test_elf_huge_offsets(void **state)
{
	const uint64_t shoffs[] = { U64_NEAR_MAX(64), UINT64_MAX, 1ull << 62 };

	(void)state;
	for (size_t i = 0; i < sizeof(shoffs) / sizeof(shoffs[0]); i++) {
		struct parsed p;
		size_t len;
		unsigned char *f = elf_file(shoffs[i], &len);

		read_pair(&p, "h/.build-id/ab/cdef/elf", f, len);
		assert_int_equal(p.rc, 0);
		const struct pd_member_result *r = member_result(&p,
		    "h/.build-id/ab/cdef/elf");

		assert_non_null(r);
		assert_string_equal(r->format, "elf");
		assert_true(r->diag.notes != NULL);
		assert_sibling_read(&p);
		parsed_free(&p);
		free(f);
	}
}

/* A 5000-byte symbol name is kept to its first 4096 bytes, noted, and
 * the profile's symbol is that cut name. */
static void
test_long_name_cut(void **state)
{
	size_t n = 5000;
	char *text = malloc(n + 200);
	struct parsed p;

	(void)state;
	int k = snprintf(text, 200, "app 100/100 [000] 1000.000001: "
	    "cpu-clock: \n\t          401000 ");
	memset(text + k, 'x', n);
	strcpy(text + k + n, " (/usr/bin/app)\n\n");
	parsed_text(&p, "h/perf-script.txt", text);
	const struct pd_member_result *r = member_result(&p,
	    "h/perf-script.txt");

	assert_non_null(r);
	assert_true(has_note(r, "profile.names"));
	const struct pd_profile *pr = p.m->hosts[0].profiles;

	assert_non_null(pr);
	assert_int_equal(pr->samples, 1);
	assert_true(pr->n_syms >= 1);
	assert_int_equal(strlen(pr->syms[0].name), PD_PROF_NAME_MAX);
	parsed_free(&p);
	free(text);
}

int
test_group_hostile(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_attr_size_wraps),
		cmocka_unit_test(test_elf_huge_offsets),
		cmocka_unit_test(test_long_name_cut),
	};

	return cmocka_run_group_tests_name("hostile", tests, NULL, NULL);
}
