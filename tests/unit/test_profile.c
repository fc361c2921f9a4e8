/* Profiles: the perf.data reader on the corpus and on files written here
 * (either byte order, file and pipe mode, broken sizes), kallsyms, and
 * the per-symbol and per-core-type sums. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "base/bigmem.h"
#include "pathdoctor/profile.h"
#include "pathdoctor/text.h"
#include "pathdoctor/input.h"
#include "../../formats/elf_image.h"

/* A perf.data writer just big enough for the tests. */
struct out {
	unsigned char b[32768];
	size_t n;
	bool le;
};

static void
put(struct out *o, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		o->b[o->n + i] = (unsigned char)(v >> 8 * (o->le ? i :
		    bytes - 1 - i));
	o->n += bytes;
}

static void
put_at(struct out *o, size_t at, uint64_t v)
{
	size_t n = o->n;

	o->n = at;
	put(o, v, 8);
	o->n = n;
}

#define ST_CHAIN_LAYOUT (1 | 2 | 4 | 128 | 256 | 32) /* IP TID TIME CPU PERIOD CALLCHAIN */
#define KERNEL_CTX ((uint64_t)-128)
#define USER_CTX ((uint64_t)-512)
#define MISC_KERNEL 1
#define MISC_USER 2
#define USER_PID 42

static void
attr(struct out *o)
{
	put(o, 0, 4);			/* type: hardware */
	put(o, 64, 4);			/* size */
	put(o, 0, 8);			/* config: cycles */
	put(o, 4000, 8);		/* sample_freq */
	put(o, ST_CHAIN_LAYOUT, 8);
	put(o, 0, 8);			/* read_format */
	put(o, 1u << 10, 8);		/* flags: freq */
	put(o, 0, 8);			/* wakeup, bp_type */
	put(o, 0, 8);			/* config1 */
}

/* A sample on cpu with the given period: leaf, then callers; in the
 * kernel (misc MISC_KERNEL) by the swapper, else by USER_PID. */
static void
sample_by(struct out *o, unsigned misc, unsigned pid, unsigned cpu,
    uint64_t period, uint64_t leaf, uint64_t caller)
{
	put(o, 9, 4);
	put(o, misc, 2);
	put(o, 8 + 6 * 8 + 3 * 8, 2);	/* header, six fields, chain */
	put(o, leaf, 8);
	put(o, pid, 4);
	put(o, pid, 4);
	put(o, 1000, 8);		/* time */
	put(o, cpu, 4);
	put(o, 0, 4);
	put(o, period, 8);
	put(o, 3, 8);			/* callchain: marker, leaf, caller */
	put(o, misc == MISC_KERNEL ? KERNEL_CTX : USER_CTX, 8);
	put(o, leaf, 8);
	put(o, caller, 8);
}

static void
sample_in(struct out *o, unsigned misc, unsigned cpu, uint64_t period,
    uint64_t leaf, uint64_t caller)
{
	sample_by(o, misc, misc == MISC_KERNEL ? 0 : USER_PID, cpu, period,
	    leaf, caller);
}

static void
sample(struct out *o, unsigned cpu, uint64_t period, uint64_t leaf,
    uint64_t caller)
{
	sample_in(o, MISC_KERNEL, cpu, period, leaf, caller);
}

static void
samples(struct out *o)
{
	/* cpu 0 (X925): 3 in smmu under dma_unmap, 1 in copy; cpu 1
	 * (A725): 1 in copy, 1 idle */
	for (int i = 0; i < 3; i++)
		sample(o, 0, 100, 0xffff800080001010, 0xffff800080003000);
	sample(o, 0, 100, 0xffff800080002000, 0xffff800080003000);
	sample(o, 1, 100, 0xffff800080002004, 0xffff800080003000);
	sample(o, 1, 100, 0xffff800080004000, 0xffff800080003000);
}

/* perf's MMAP record: name mapped at start for len bytes from pgoff, by
 * the kernel (pid -1) or by USER_PID */
static void
map_record(struct out *o, unsigned misc, uint64_t start, uint64_t len,
    uint64_t pgoff, const char *name)
{
	size_t n = (strlen(name) + 8) & ~(size_t)7;	/* NUL, padding */

	put(o, 1, 4);
	put(o, misc, 2);
	put(o, 8 + 4 + 4 + 8 + 8 + 8 + n, 2);
	put(o, misc == MISC_KERNEL ? 0xffffffff : USER_PID, 4);
	put(o, misc == MISC_KERNEL ? 0 : USER_PID, 4);
	put(o, start, 8);
	put(o, len, 8);
	put(o, pgoff, 8);
	memset(o->b + o->n, 0, n);
	memcpy(o->b + o->n, name, strlen(name));
	o->n += n;
}

/* perf's record of where the kernel ran: "[kernel.kallsyms]_text" with
 * its runtime _text as the offset, then the samples */
static void
kernel_map_samples(struct out *o)
{
	map_record(o, MISC_KERNEL, 0xffff800080000000, 0x100000,
	    0xffff800080000000, "[kernel.kallsyms]_text");
	samples(o);
}

/* A perf.data file of the records that records() writes. */
static size_t
write_file_of(struct out *o, bool le, void (*records)(struct out *))
{
	memset(o, 0, sizeof(*o));
	o->le = le;
	memcpy(o->b, "PERFILE2", 8);
	if (!le)
		memcpy(o->b, "2ELIFREP", 8);
	o->n = 8;
	put(o, 104, 8);			/* header size */
	put(o, 64 + 16, 8);		/* attr_size */
	put(o, 104, 8);			/* attrs */
	put(o, 80, 8);
	put(o, 184, 8);			/* data, size patched below */
	put(o, 0, 8);
	put(o, 0, 8);			/* event_types */
	put(o, 0, 8);
	put(o, 1u << 6, 8);		/* features: arch */
	put(o, 0, 8);
	put(o, 0, 8);
	put(o, 0, 8);
	attr(o);
	put(o, 0, 8);			/* ids section */
	put(o, 0, 8);
	records(o);
	put_at(o, 48, o->n - 184);
	size_t table = o->n;

	put(o, table + 16, 8);		/* feature arch */
	put(o, 12, 8);
	put(o, 8, 4);
	memcpy(o->b + o->n, "aarch64", 8);
	o->n += 8;
	return o->n;
}

static size_t
write_file(struct out *o, bool le)
{
	return write_file_of(o, le, samples);
}

static size_t
write_pipe(struct out *o)
{
	memset(o, 0, sizeof(*o));
	o->le = true;
	memcpy(o->b, "PERFILE2", 8);
	o->n = 8;
	put(o, 16, 8);
	put(o, 64, 4);			/* HEADER_ATTR: attr, no ids */
	put(o, 0, 2);
	put(o, 8 + 64, 2);
	attr(o);
	samples(o);
	return o->n;
}

static const char kallsyms[] =
    "ffff800080001000 T arm_smmu_cmdq_issue_cmdlist\n"
    "ffff800080002000 T __arch_copy_to_user\n"
    "ffff800080003000 T __iommu_dma_unmap\n"
    "ffff800080003000 t __iommu_dma_unmap_alias\n"
    "ffff800080004000 T cpu_do_idle\n"
    "ffff800080005000 T _etext\n";

static const char cpuinfo[] =
    "processor\t: 0\nCPU implementer\t: 0x41\nCPU architecture: 8\n"
    "CPU part\t: 0xd85\n\n"
    "processor\t: 1\nCPU implementer\t: 0x41\nCPU architecture: 8\n"
    "CPU part\t: 0xd87\n\n";

static void
check_written(const unsigned char *data, size_t len)
{
	struct parsed p;
	struct tar_entry e[] = {
		{ .path = "h/perf.data", .data = data, .len = len },
		{ .path = "h/kallsyms", .data = kallsyms },
		{ .path = "h/cpuinfo", .data = cpuinfo },
	};
	size_t tlen;
	unsigned char *tar = make_tar(e, 3, 0, &tlen);

	parsed_read_memory(&p, tar, tlen, "t.tar");
	assert_int_equal(p.rc, 0);
	const struct pd_member_result *r = member_result(&p, "perf.data");

	assert_string_equal(r->format, "perf.data");
	if (r->diag.notes)
		fail_msg("%s: %s", r->diag.notes->id, r->diag.notes->msg);
	const struct pd_profile *pr = p.m->hosts->profiles;

	assert_non_null(pr);
	assert_int_equal(pr->samples, 6);
	assert_true(pr->has_callchain && pr->has_cpu);
	assert_string_equal(pr->syms[0].name, "arm_smmu_cmdq_issue_cmdlist");
	assert_true(pr->syms[0].self == 300);
	assert_true(pr->syms[0].inclusive == 300);
	/* the caller: every sample below it, once each; the alias that
	 * perf would not show is not used */
	for (unsigned i = 0; i < pr->n_syms; i++) {
		assert_string_not_equal(pr->syms[i].name,
		    "__iommu_dma_unmap_alias");
		if (strcmp(pr->syms[i].name, "__iommu_dma_unmap") == 0)
			assert_true(pr->syms[i].inclusive == 600);
		if (strcmp(pr->syms[i].name, "cpu_do_idle") == 0)
			assert_true(pr->syms[i].idle);
	}
	/* per core type from cpuinfo: X925 all busy, A725 half idle */
	assert_int_equal(pr->n_groups, 2);
	for (unsigned g = 0; g < pr->n_groups; g++) {
		if (strcmp(pr->groups[g].name, "Cortex-X925") == 0) {
			assert_true(pr->groups[g].total == 400);
			assert_true(pr->groups[g].idle == 0);
		} else {
			assert_string_equal(pr->groups[g].name, "Cortex-A725");
			assert_true(pr->groups[g].idle == 100);
		}
	}
	assert_int_equal(p.m->hosts->arch, PD_ARCH_ARM64);
	parsed_free(&p);
	free(tar);
}

static void
test_written_files(void **state)
{
	struct out o;

	(void)state;
	check_written(o.b, write_file(&o, true));
	check_written(o.b, write_file(&o, false));	/* big-endian */
	check_written(o.b, write_pipe(&o));
}

static void
test_broken_files(void **state)
{
	struct out o;
	size_t len = write_file(&o, true);
	struct parsed p;

	(void)state;
	/* cut inside the data section: the samples before it count */
	parsed_read_memory(&p, o.b, len - 12 - 16 - 40, "perf.data");
	assert_string_equal(p.cov.members->format, "perf.data");
	assert_non_null(p.cov.members->diag.notes);
	assert_true(p.m->hosts->profiles->samples >= 4);
	parsed_free(&p);
	/* a record size below its header */
	write_file(&o, true);
	o.b[184 + 6] = 4;
	o.b[184 + 7] = 0;
	parsed_read_memory(&p, o.b, len, "perf.data");
	assert_string_equal(p.cov.members->diag.notes->id,
	    "perf.record-size");
	assert_int_equal(p.m->hosts->profiles->samples, 0);
	parsed_free(&p);
	/* a call chain longer than its record: that sample is left out */
	write_file(&o, true);
	put_at(&o, 184 + 48, 100);
	parsed_read_memory(&p, o.b, len, "perf.data");
	assert_string_equal(p.cov.members->diag.notes->id, "perf.bad-sample");
	assert_int_equal(p.m->hosts->profiles->samples, 5);
	parsed_free(&p);
	/* attrs past the data section */
	write_file(&o, true);
	put_at(&o, 24, 4000);
	parsed_read_memory(&p, o.b, len, "perf.data");
	assert_string_equal(p.cov.members->diag.notes->id, "perf.header");
	parsed_free(&p);
}

static void
test_corpus_perf_data(void **state)
{
	static const struct {
		const char *file, *event;
		uint64_t samples;
		bool chains;
	} cases[] = {
		{ "perf-data/aliyun-ecs-x86-webserver-cpu-clock-perf5.10."
		    "perf.data.gz", "cpu-clock:pppH", 47596, false },
		{ "perf-data/io_uring-tcp-server-perf6.16-attr136-cyclesPu."
		    "perf.data", "cycles:Pu", 1249, true },
		{ "perf-data/xdp-testenv-python-perf-newabi.perf.data.gz",
		    "cycles:P", 15393, false },
	};

	(void)state;
	REQUIRE_CORPUS();
	for (size_t i = 0; i < PD_ARRAY_SIZE(cases); i++) {
		struct parsed p;

		parsed_corpus(&p, cases[i].file);
		assert_string_equal(p.cov.members->format, "perf.data");
		if (p.cov.members->diag.notes)
			fail_msg("%s: %s", cases[i].file,
			    p.cov.members->diag.notes->msg);
		const struct pd_profile *pr = p.m->hosts->profiles;

		assert_int_equal(pr->samples, cases[i].samples);
		assert_string_equal(pr->event, cases[i].event);
		assert_int_equal(pr->has_callchain, cases[i].chains);
		/* a symbol's samples all hold it: inclusive >= self, also
		 * with precise events whose chain starts elsewhere */
		for (unsigned k = 0; pr->has_callchain && k < pr->n_syms; k++)
			assert_true(pr->syms[k].inclusive >=
			    pr->syms[k].self - 1e-6);
		parsed_free(&p);
	}
	/* perf report 6.1 on the first: 80.42 % at one kernel address */
	struct parsed p;

	parsed_corpus(&p, cases[0].file);
	const struct pd_profile *pr = p.m->hosts->profiles;

	assert_string_equal(pr->syms[0].name, "0xffffffffb5a2e4c3");
	assert_true(fabs(100 * pr->syms[0].self / pr->period - 80.42) < 0.005);
	parsed_free(&p);
}

static void
corpus_text(const char *path, const char *name)
{
	struct parsed p;
	const char *want = strstr(path, "/perf-script/") ? "perf-script" :
	    "perf-report";

	(void)name;
	parsed_read(&p, path);
	assert_int_equal(p.rc, 0);
	assert_string_equal(p.cov.members->format, want);
	if (p.cov.members->diag.notes)
		fail_msg("%s: %s", path, p.cov.members->diag.notes->msg);
	assert_non_null(p.m->hosts->profiles);
	for (const struct pd_profile *pr = p.m->hosts->profiles; pr;
	    pr = pr->next)
		assert_true(pr->samples > 0 && pr->n_syms > 0);
	parsed_free(&p);
}

static void
test_corpus_texts(void **state)
{
	char dir[512];
	struct parsed p;

	(void)state;
	REQUIRE_CORPUS();
	snprintf(dir, sizeof(dir), "%s/perf-script", corpus_dir());
	each_file(dir, corpus_text);
	snprintf(dir, sizeof(dir), "%s/perf-report", corpus_dir());
	each_file(dir, corpus_text);
	/* two events in one perf script stream: two profiles */
	parsed_corpus(&p, "perf-script/flamegraph-cycles-instructions-"
	    "multi-event.txt");
	const struct pd_profile *a = p.m->hosts->profiles, *b = a->next;

	/* in the order the stream shows them first */
	assert_non_null(b);
	assert_string_equal(a->event, "instructions");
	assert_string_equal(b->event, "cycles");
	assert_int_equal(a->samples + b->samples, 111 + 333);
	parsed_free(&p);
	/* perf top lines: the shares as printed */
	parsed_corpus(&p, "perf-report/mlx5-xdp-drop-perf-top-kernel5.15.txt");
	a = p.m->hosts->profiles;
	assert_string_equal(a->syms[0].name,
	    "mlx5e_skb_from_cqe_mpwrq_linear");
	assert_true(fabs(100 * a->syms[0].self / a->period - 19.27) < 1e-9);
	parsed_free(&p);
}

/* No kallsyms but a vmlinux: its symbols, relocated by where the kernel
 * ran (linked 2 MiB lower here). */
static void
test_vmlinux(void **state)
{
	struct out o;
	size_t len = write_file_of(&o, true, kernel_map_samples), vlen;
	unsigned char *vm = slurp("tests/unit/data/vmlinux-tiny", &vlen);
	struct tar_entry e[] = {
		{ .path = "h/perf.data", .data = o.b, .len = len },
		{ .path = "h/vmlinux", .data = vm, .len = vlen },
	};
	size_t tlen;
	unsigned char *tar;
	struct parsed p;

	(void)state;
	assert_non_null(vm);
	tar = make_tar(e, 2, 0, &tlen);
	parsed_read_memory(&p, tar, tlen, "t.tar");
	const struct pd_profile *pr = p.m->hosts->profiles;

	assert_string_equal(pr->syms[0].name, "arm_smmu_cmdq_issue_cmdlist");
	assert_false(pr->kernel_unnamed);
	assert_non_null(strstr(pr->symbols, "h/vmlinux"));
	parsed_free(&p);
	free(tar);
	free(vm);
}

/* Symbols an ELF file of tests/unit/data should give, in address order. */
struct sym_fact {
	uint64_t addr, size;
	const char *name;
};

/* perf's NAME@plt stubs in tests/unit/data/plt-tiny.c's builds: where
 * objdump -d puts each, named by the relocation (readelf -r) of the GOT
 * slot that it jumps through. */
static const struct sym_fact plt_x86_64[] = {
	{ 0x310, 16, ".plt" },			/* PLT0 */
	{ 0x320, 16, "ext_one@plt" },
	{ 0x330, 16, "offset_0x330@plt" },	/* IRELATIVE, listed last */
	{ 0x340, 16, "ext_two@plt" },
	{ 0x350, 16, "offset_0x350@plt" },
}, plt_x86_64_ibt[] = {
	{ 0x3e0, 0x50, ".plt" },		/* all of it lazy binding */
	{ 0x440, 16, "ext_one@plt" },		/* .plt.sec */
	{ 0x450, 16, "tpl@plt" },		/* the IFUNC at its addend */
	{ 0x460, 16, "ext_two@plt" },
	{ 0x470, 16, "offset_0x470@plt" },	/* a static IFUNC */
}, plt_aarch64[] = {
	{ 0x380, 32, ".plt" },
	{ 0x3a0, 16, "ext_one@plt" },
	{ 0x3b0, 16, "ext_three@plt" },
	{ 0x3c0, 16, "ext_two@plt" },
	{ 0x3d0, 16, "offset_0x3d0@plt" },	/* perf names IFUNCs on */
	{ 0x3e0, 16, "offset_0x3e0@plt" },	/* x86_64 only */
};

/* The PLT stubs (plt) or the function symbols of tests/unit/data/name. */
static void
check_syms(const char *name, bool plt, const struct sym_fact *want,
    unsigned n)
{
	char path[256];
	size_t len;
	struct parsed p;

	snprintf(path, sizeof(path), "tests/unit/data/%s", name);
	unsigned char *elf = slurp(path, &len);

	assert_non_null(elf);
	parsed_read_memory(&p, elf, len, name);
	const struct pd_elf *e = p.m->hosts->elfs;

	assert_non_null(e);
	const struct pd_sym *v = plt ? e->plt : e->syms;

	assert_int_equal(plt ? e->n_plt : e->n_syms, n);
	for (unsigned i = 0; i < n; i++) {
		assert_string_equal(v[i].name, want[i].name);
		assert_int_equal(v[i].addr, want[i].addr);
		assert_int_equal(v[i].size, want[i].size);
	}
	parsed_free(&p);
	free(elf);
}

#define N_FACTS(v) (unsigned)(sizeof(v) / sizeof((v)[0]))

/* A large real symbol table, this test binary's own (thousands of
 * functions, locals by file, then globals): one symbol an address, in
 * address order, the test's own functions among them, and _init (crti's
 * label, without a size) sized up to the function after it, as perf
 * sizes it: only the symbols' sort by address gives that one. */
static void
test_large_symtab(void **state)
{
	size_t len;
	struct parsed p;
	unsigned char *elf = slurp("/proc/self/exe", &len);
	bool found = false;
	unsigned labels = 0;

	(void)state;
	assert_non_null(elf);
	parsed_read_memory(&p, elf, len, "unit-tests");
	const struct pd_elf *e = p.m->hosts->elfs;

	assert_non_null(e);
	assert_true(e->n_syms > 1000);
	for (unsigned i = 0; i < e->n_syms; i++) {
		if (i)
			assert_true(e->syms[i - 1].addr < e->syms[i].addr);
		found |= strcmp(e->syms[i].name, "test_large_symtab") == 0;
		if (strcmp(e->syms[i].name, "_init") == 0 && i + 1 < e->n_syms) {
			assert_int_equal(e->syms[i].size, e->syms[i + 1].addr -
			    e->syms[i].addr);
			labels++;
		}
	}
	assert_true(found);
	assert_int_equal(labels, 1);
	parsed_free(&p);
	free(elf);
}

/* An ELF file's image read (formats/elf_image.c) from memory, size
 * being what the member's header says. */
struct image_case {
	const unsigned char *elf;
	size_t len;
	int64_t size;
	bool heap;		/* still in the heap once read */
	size_t same;		/* image bytes that equal the file's */
	int rc;
};

static void
read_image(struct image_case *c)
{
	struct pd_memsrc ms;
	struct pd_input in;
	struct elf_image im;
	const char *why = NULL;

	pd_input_init(&in, pd_memsrc(&ms, c->elf, c->len), NULL, 0, 1u << 20,
	    NULL);
	c->rc = pd_elf_image_read(&in, 64u << 20, c->size, &im, &why);
	c->heap = im.heap_cap != 0;
	size_t n = im.len < (1u << 20) ? im.len : 1u << 20;

	c->same = c->rc == 0 && memcmp(im.p, c->elf, n) == 0 ? n : 0;
	pd_elf_image_free(&im);
	pd_input_release(&in);
}

/* In a thread of its own no image range is kept yet. */
static void *
read_images(void *arg)
{
	struct image_case *c = arg;

	for (unsigned i = 0; i < 3; i++)
		read_image(&c[i]);
	return NULL;
}

/* A small file read where no range is kept stays in the heap; one whose
 * size said small but is larger moves to the range part way, every byte
 * kept; a file of unknown size goes to the range (kept by then). */
static void
test_image_leaves_heap(void **state)
{
	size_t small_len, big_len;
	unsigned char *small = slurp("tests/unit/data/plt-x86_64.so",
	    &small_len);
	unsigned char *big = slurp("/proc/self/exe", &big_len);
	struct image_case c[3] = {
		{ small, small_len, (int64_t)small_len, false, 0, -1 },
		{ big, big_len, 4096, true, 0, -1 },	/* the size lied */
		{ small, small_len, -1, true, 0, -1 },
	};
	pthread_t t;

	(void)state;
	assert_non_null(small);
	assert_non_null(big);
	assert_true(big_len > (1u << 20));
	assert_int_equal(pthread_create(&t, NULL, read_images, c), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(c[0].rc, 0);
	assert_true(c[0].heap);
	assert_int_equal(c[0].same, small_len);
	assert_int_equal(c[1].rc, 0);
	assert_false(c[1].heap);
	assert_int_equal(c[1].same, 1u << 20);
	assert_int_equal(c[2].rc, 0);
	assert_false(c[2].heap);
	assert_int_equal(c[2].same, small_len);
	free(small);
	free(big);
}

static void
test_plt_stubs(void **state)
{
	(void)state;
	check_syms("plt-x86_64.so", true, plt_x86_64, N_FACTS(plt_x86_64));
	check_syms("plt-x86_64-ibt.so", true, plt_x86_64_ibt,
	    N_FACTS(plt_x86_64_ibt));
	check_syms("plt-aarch64.so", true, plt_aarch64, N_FACTS(plt_aarch64));
}

#define PLT_BASE 0x7f0000000000u

/* USER_PID runs plt-x86_64.so: samples in two stubs and in PLT0, all
 * called from 0x380 in its .text, where no symbol is (it exports none,
 * as a stripped executable). */
static void
plt_records(struct out *o)
{
	map_record(o, MISC_USER, PLT_BASE, 0x1000, 0,
	    "/usr/lib/plt-x86_64.so");
	sample_in(o, MISC_USER, 0, 100, PLT_BASE + 0x33f, PLT_BASE + 0x380);
	sample_in(o, MISC_USER, 0, 200, PLT_BASE + 0x344, PLT_BASE + 0x380);
	sample_in(o, MISC_USER, 0, 300, PLT_BASE + 0x310, PLT_BASE + 0x380);
}

/* 100 processes with no mapping and no parent sample first, then 100
 * children of USER_PID (fork records, no mapping of their own), which
 * run in its mapping of app: more processes than the table of them
 * holds, so that some are looked up without it. */
static void
fork_records(struct out *o)
{
	map_record(o, MISC_USER, 0x400000, 0x10000, 0, "/usr/bin/app");
	for (unsigned i = 0; i < 100; i++) {
		put(o, 7, 4);		/* FORK: pid, ppid, tid, ptid, time */
		put(o, 0, 2);
		put(o, 8 + 4 * 4 + 8, 2);
		put(o, 1000 + i, 4);
		put(o, USER_PID, 4);
		put(o, 1000 + i, 4);
		put(o, USER_PID, 4);
		put(o, 1000, 8);
	}
	for (unsigned i = 0; i < 100; i++)
		sample_by(o, MISC_USER, 5000 + i, 0, 100, 0x401000, 0x402000);
	for (unsigned i = 0; i < 100; i++)
		sample_by(o, MISC_USER, 1000 + i, 0, 100, 0x401000, 0x402000);
}

static const struct pd_prof_sym *
sym_named(const struct pd_profile *pr, const char *name)
{
	for (unsigned i = 0; i < pr->n_syms; i++)
		if (strcmp(pr->syms[i].name, name) == 0)
			return &pr->syms[i];
	fail_msg("no symbol %s", name);
	return NULL;
}

/* The profile of a bundle holding the perf.data that records() writes
 * and tests/unit/data/name as h/name, read into *p; *tar to free after
 * parsed_free(p). */
static const struct pd_profile *
read_with_elf(struct parsed *p, void (*records)(struct out *),
    const char *name, unsigned char **tar)
{
	struct out o;
	char path[256], member[256];
	size_t len = write_file_of(&o, true, records), elen, tlen;

	snprintf(path, sizeof(path), "tests/unit/data/%s", name);
	snprintf(member, sizeof(member), "h/%s", name);
	unsigned char *elf = slurp(path, &elen);
	struct tar_entry e[] = {
		{ .path = "h/perf.data", .data = o.b, .len = len },
		{ .path = member, .data = elf, .len = elen },
	};

	assert_non_null(elf);
	*tar = make_tar(e, 2, 0, &tlen);
	free(elf);
	parsed_read_memory(p, *tar, tlen, "t.tar");
	assert_non_null(p->m->hosts->profiles);
	return p->m->hosts->profiles;
}

/* A forked child without mappings of its own is named by its parent's;
 * a process with neither is not. */
static void
test_fork_maps(void **state)
{
	struct out o;
	struct parsed p;
	size_t len = write_file_of(&o, true, fork_records);

	(void)state;
	struct tar_entry e[] = {
		{ .path = "h/perf.data", .data = o.b, .len = len },
	};
	size_t tlen;
	unsigned char *tar = make_tar(e, 1, 0, &tlen);

	parsed_read_memory(&p, tar, tlen, "t.tar");
	const struct pd_profile *pr = p.m->hosts->profiles;

	assert_non_null(pr);
	const struct pd_prof_sym *in_app = sym_named(pr, "0x0000000000001000");
	const struct pd_prof_sym *alone = sym_named(pr, "0x0000000000401000");

	assert_string_equal(in_app->dso, "app");
	assert_true(in_app->self == 10000);
	assert_true(sym_named(pr, "0x0000000000002000")->inclusive == 10000);
	assert_string_equal(alone->dso, "[unknown]");
	assert_true(alone->self == 10000);
	parsed_free(&p);
	free(tar);
}

/* A sample in a PLT stub of a file without function symbols gets the
 * stub's name, as perf report gives it. */
static void
test_plt_profile(void **state)
{
	unsigned char *tar;
	struct parsed p;
	const struct pd_profile *pr = read_with_elf(&p, plt_records,
	    "plt-x86_64.so", &tar);

	(void)state;
	assert_true(sym_named(pr, "offset_0x330@plt")->self == 100);
	assert_true(sym_named(pr, "ext_two@plt")->self == 200);
	assert_true(sym_named(pr, ".plt")->self == 300);
	assert_string_equal(sym_named(pr, ".plt")->dso, "plt-x86_64.so");
	assert_true(sym_named(pr, "0x0000000000000380")->inclusive == 600);
	parsed_free(&p);
	free(tar);
}

/* The functions perf loads from tests/unit/data/labels-tiny.S's builds
 * (readelf -s): labels in text and "data" sections, each up to the next
 * symbol and the last up to 4 KiB past the next page boundary; a label
 * listed after a function at its address wins by its longer name, one
 * listed before does not; no label in .stubs, no linker end markers, no
 * mapping symbols. */
static const struct sym_fact labels_x86_64[] = {
	{ 0x401000, 34, "_start" },
	{ 0x401022, 10, "work" },
	{ 0x40102c, 5, "lab_start" },
	{ 0x401031, 10, "lab_user" },
	{ 0x40103b, 10, "twin_entry" },
	{ 0x401045, 10, "pair" },
	{ 0x40104f, 0x403000 - 0x40104f, "in_mydata" },
}, labels_aarch64[] = {
	{ 0x40010c, 32, "_start" },		/* not its "$x" */
	{ 0x40012c, 16, "work" },
	{ 0x40013c, 8, "lab_start" },
	{ 0x400144, 0x14, "lab_user" },
	{ 0x400158, 16, "twin_entry" },
	{ 0x400168, 16, "pair" },
	{ 0x40017c, 0x402000 - 0x40017c, "in_mydata" },	/* not "$d" */
};

static void
test_label_symbols(void **state)
{
	(void)state;
	check_syms("labels-x86_64", false, labels_x86_64,
	    N_FACTS(labels_x86_64));
	check_syms("labels-aarch64", false, labels_aarch64,
	    N_FACTS(labels_aarch64));
}

/* USER_PID runs labels-x86_64, its code mapped from file offset 0x1000:
 * work called from lab_start returns to lab_user's first byte, as
 * _dl_start at ld.so's _start returns to _dl_start_user; samples in
 * twin and in .stubs, both called from _start. */
static void
label_records(struct out *o)
{
	map_record(o, MISC_USER, 0x401000, 0x1000, 0x1000,
	    "/usr/bin/labels-x86_64");
	sample_in(o, MISC_USER, 0, 100, 0x401026, 0x401031);
	sample_in(o, MISC_USER, 0, 200, 0x40103d, 0x40100a);
	sample_in(o, MISC_USER, 0, 300, 0x40105b, 0x401019);
}

/* A return address at a label is named by the label, as perf report
 * names ld.so's _dl_start_user in every process's children. */
static void
test_label_profile(void **state)
{
	unsigned char *tar;
	struct parsed p;
	const struct pd_profile *pr = read_with_elf(&p, label_records,
	    "labels-x86_64", &tar);
	const struct pd_prof_sym *user = sym_named(pr, "lab_user");

	(void)state;
	assert_true(user->self == 0 && user->inclusive == 100);
	assert_string_equal(user->dso, "labels-x86_64");
	assert_true(sym_named(pr, "work")->self == 100);
	assert_true(sym_named(pr, "twin_entry")->self == 200);
	assert_true(sym_named(pr, "in_mydata")->self == 300);
	assert_true(sym_named(pr, "_start")->inclusive == 500);
	parsed_free(&p);
	free(tar);
}

static void
test_kallsyms_unreadable(void **state)
{
	struct parsed p;

	(void)state;
	parsed_text(&p, "kallsyms", "0000000000000000 T _text\n"
	    "0000000000000000 t foo\n0000000000000000 T bar\n");
	assert_string_equal(p.cov.members->format, "kallsyms");
	assert_string_equal(p.cov.members->diag.notes->id, "kallsyms.zero");
	parsed_free(&p);
}

static void
test_iommu_rule(void **state)
{
	struct parsed p;

	(void)state;
	parsed_analysed(&p, "samples/gx10-before.tgz");
	const struct pd_finding *f = find_finding(&p,
	    "iommu.strict-invalidation", NULL);

	assert_non_null(f);
	assert_int_equal(f->confidence, 85);
	/* f = 0.57 of the big cores' busy samples: Amdahl 2.33x */
	assert_true(f->gain_lo >= 1300 && f->gain_lo <= 1350);
	assert_true(f->gain_hi > 2800 && f->gain_hi < 3000);
	assert_non_null(strstr(f->summary, "Cortex-X925 spends 57."));
	assert_non_null(strstr(f->fix[1], "--args=iommu.strict=0"));
	assert_null(strstr(f->fix[0], "in place of"));
	parsed_free(&p);

	parsed_analysed(&p, "samples/gx10-after.tgz");
	assert_null(find_finding(&p, "iommu.strict-invalidation", NULL));
	parsed_free(&p);

	/* already lazy on the command line: explained, nothing to gain */
	struct out o;
	size_t len = write_file(&o, true);
	struct tar_entry e[] = {
		{ .path = "h/perf.data", .data = o.b, .len = len },
		{ .path = "h/kallsyms", .data = kallsyms },
		{ .path = "h/cmdline", .data = "BOOT_IMAGE=/vmlinuz "
		    "iommu.strict=0\n" },
	};
	size_t tlen;
	unsigned char *tar = make_tar(e, 3, 0, &tlen);

	parsed_read_memory(&p, tar, tlen, "t.tar");
	parsed_analyse(&p);
	f = find_finding(&p, "iommu.strict-invalidation", NULL);
	assert_non_null(f);
	assert_int_equal(f->gain_hi, 0);
	assert_non_null(strstr(f->summary, "already lazy"));
	parsed_free(&p);
	free(tar);
}


/* kallsyms with data symbols only: no function symbol to sort (the
 * empty table once reached qsort as NULL). */
static void
test_kallsyms_data_only(void **state)
{
	struct parsed p;

	(void)state;
	parsed_text(&p, "h/kallsyms.txt", "ffffffff81000000 D foo\n"
	    "ffffffff81000010 d bar\nffffffff81000020 b baz\n");
	assert_non_null(p.m->hosts);
	assert_int_equal(p.m->hosts->n_ksyms, 0);
	parsed_free(&p);
}

/* The lines a kallsyms reader keeps and the ones it refuses, 64-bit
 * addresses (read 16 digits at once) beside 32-bit ones (one by one). */
static void
test_kallsyms_lines(void **state)
{
	struct parsed p;

	(void)state;
	parsed_text(&p, "h/kallsyms.txt",
	    "ffffffff81000000 T _text\n"
	    "ffffffff81000010 t local_one\n"
	    "ffffffffc0a01000 t mlx5_eq_int\t[mlx5_core]\n"
	    "ffffffffc0a01010 t mlx5_eq_other\t[mlx5_core]\n"
	    "ffffffffc0a02000 t nvme_irq\t[nvme]\n"
	    "ffffffffc0a03000 t mlx5_late [mlx5_core]\n"
	    "ffffffff81000020 W weak_one\n"
	    "ffffffff81000030 D data_one\n"
	    "FFFFFFFF81000040 T upper_case\n"
	    "0ffffffff81000050 T seventeen_digits\n"
	    "ffffffff8100006g T not_hex\n"
	    "ffffffff81000070 T\n"
	    "ffffffff81000080  T two_spaces\n"
	    "c1000000 T thirty_two_bit\n"
	    "c100000 T seven_digits\n"
	    "0000000000000000 T zero\n");
	const struct pd_host *h = p.m->hosts;

	assert_non_null(h);
	assert_int_equal(h->n_ksyms, 8);
	/* settled: by address */
	assert_true(h->ksyms[0].addr == 0xc1000000u);
	assert_string_equal(h->ksyms[0].name, "thirty_two_bit");
	assert_true(h->ksyms[1].addr == 0xffffffff81000000u);
	assert_string_equal(h->ksyms[1].name, "_text");
	assert_int_equal(h->ksyms[1].bind, 1);
	assert_string_equal(h->ksyms[2].name, "local_one");
	assert_int_equal(h->ksyms[2].bind, 0);
	assert_string_equal(h->ksyms[3].name, "weak_one");
	assert_int_equal(h->ksyms[3].bind, 2);
	assert_true(h->ksyms[4].addr == 0xffffffffc0a01000u);
	assert_string_equal(h->ksyms[4].name, "mlx5_eq_int");
	assert_int_equal(h->n_kmods, 3);
	assert_int_equal(h->ksyms[4].module, 1);
	assert_string_equal(h->kmods[0], "[mlx5_core]");
	/* a module's symbols in a row share one copy of its name */
	assert_int_equal(h->ksyms[5].module, 1);
	assert_string_equal(h->ksyms[6].name, "nvme_irq");
	assert_string_equal(h->kmods[h->ksyms[6].module - 1], "[nvme]");
	assert_string_equal(h->ksyms[7].name, "mlx5_late");
	assert_string_equal(h->kmods[h->ksyms[7].module - 1],
	    "[mlx5_core]");
	assert_int_equal(h->ksyms[3].module, 0);
	parsed_free(&p);
}

static bool
hex16_reference(const char *p, uint64_t *out)
{
	uint64_t v = 0;

	for (int i = 0; i < 16; i++) {
		char c = p[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uint64_t)(c - 'a' + 10);
		else
			return false;
	}
	*out = v;
	return true;
}

/* The digits read eight at a time agree with the digits read one by
 * one: every byte value at every position of a valid address, and
 * random strings drawn mostly from the digits and their neighbours. */
static void
test_hex16_lower(void **state)
{
	static const char near[] = "0123456789abcdef/:`gAF@G \x7f\x80\xb0\xff";
	char s[17] = "ffffffff81000000";
	uint64_t got, want;
	uint32_t seed = 12345;

	(void)state;
	assert_true(pd_hex16_lower(s, &got));
	assert_true(got == 0xffffffff81000000u);
	for (int pos = 0; pos < 16; pos++)
		for (int b = 0; b < 256; b++) {
			char t[17];

			memcpy(t, "0123456789abcdef", 17);
			t[pos] = (char)b;
			bool ok = hex16_reference(t, &want);

			assert_int_equal(pd_hex16_lower(t, &got), ok);
			if (ok)
				assert_true(got == want);
		}
	for (int n = 0; n < 200000; n++) {
		for (int i = 0; i < 16; i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly digits, so that many strings are valid */
			unsigned r = seed >> 16;
			s[i] = r % 8 ? near[r / 8 % 16] :
			    near[r / 8 % (sizeof(near) - 1)];
		}
		bool ok = hex16_reference(s, &want);

		assert_int_equal(pd_hex16_lower(s, &got), ok);
		if (ok)
			assert_true(got == want);
	}
}

/* Tables are zeroed however their memory came: a mapping let go and
 * kept is written below its old size only, and cleared there; a table
 * shrunk in place reads zeros above its new size when it grows again.
 * (Under AddressSanitizer every table is the heap's: the same contract,
 * a plainer path.) */
static bool
all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void
test_big_tables_zeroed(void **state)
{
	const size_t sizes[] = { 300u << 10, 700u << 10, 1u << 20, 2u << 20,
		5u << 20 };

	(void)state;
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
			unsigned char *p = pd_big_alloc(sizes[i]);

			assert_true(all_zero(p, sizes[i]));
			memset(p, 0xa5, sizes[i]);
			pd_big_free(p, sizes[i]);
		}
	unsigned char *t = pd_big_alloc(1u << 20);

	memset(t, 0x5a, 1u << 20);
	t = pd_big_grow(t, 1u << 20, 400u << 10);
	assert_int_equal(t[(400u << 10) - 1], 0x5a);
	t = pd_big_grow(t, 400u << 10, 1536u << 10);
	assert_int_equal(t[(400u << 10) - 1], 0x5a);
	assert_true(all_zero(t + (400u << 10), (1536u - 400u) << 10));
	pd_big_free(t, 1536u << 10);
}

int
test_group_profile(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written_files),
		cmocka_unit_test(test_kallsyms_data_only),
		cmocka_unit_test(test_kallsyms_lines),
		cmocka_unit_test(test_hex16_lower),
		cmocka_unit_test(test_broken_files),
		cmocka_unit_test(test_corpus_perf_data),
		cmocka_unit_test(test_corpus_texts),
		cmocka_unit_test(test_kallsyms_unreadable),
		cmocka_unit_test(test_vmlinux),
		cmocka_unit_test(test_plt_stubs),
		cmocka_unit_test(test_large_symtab),
		cmocka_unit_test(test_image_leaves_heap),
		cmocka_unit_test(test_plt_profile),
		cmocka_unit_test(test_fork_maps),
		cmocka_unit_test(test_label_symbols),
		cmocka_unit_test(test_label_profile),
		cmocka_unit_test(test_iommu_rule),
		cmocka_unit_test(test_big_tables_zeroed),
	};

	return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
