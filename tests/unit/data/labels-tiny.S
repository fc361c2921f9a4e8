/* Labels (STT_NOTYPE symbols) for tests/unit/test_profile.c, as ld.so
 * has them: its _start and _dl_start_user are labels, and a return
 * address is _dl_start_user's first byte.  Built in this folder on
 * Debian 12 (gcc 12.2, binutils 2.40; gcc-aarch64-linux-gnu), not
 * stripped:
 *   F="-nostdlib -static -Wl,--build-id -Wl,-z,max-page-size=4096"
 *   gcc $F -o labels-x86_64 labels-tiny.S
 *   aarch64-linux-gnu-gcc $F -o labels-aarch64 labels-tiny.S
 * labels-x86_64 runs: `perf record ./labels-x86_64; perf report --sort
 * sym` (perf 6.1) names its loops lab_user, work, twin_entry, pair and
 * in_mydata, in_stubs's too, as the test expects.  _start calls the
 * labels in the order that puts them in .symtab (gas lists a local
 * symbol where it is first used): twin before twin_entry, pair_entry
 * before pair. */
	.file "labels-tiny.S"
#if defined(__x86_64__)
#define SPIN mov $300000000, %ecx; 9: dec %ecx; jnz 9b; ret
#define CALL(f) call f
#define PUSH_LR
#define POP_LR
#define EXIT mov $60, %eax; xor %edi, %edi; syscall
#else
#define SPIN ldr w9, =300000000; 9: subs w9, w9, #1; b.ne 9b; ret
#define CALL(f) bl f
#define PUSH_LR stp x29, x30, [sp, #-16]!
#define POP_LR ldp x29, x30, [sp], #16
#define EXIT mov x8, #93; mov x0, #0; svc #0
#endif
	.text
	.globl _start
	.type _start, @function
_start:
	CALL(lab_start)
	CALL(twin)
	CALL(pair_entry)
	CALL(in_mydata)
	CALL(in_stubs)
	EXIT
	.size _start, .-_start

	.type work, @function
work:
	SPIN
	.size work, .-work

lab_start:			/* ld.so's _start */
	PUSH_LR
	CALL(work)
lab_user:			/* _dl_start_user: the return address */
	POP_LR
	SPIN

	.type twin, @function	/* a function, then a label at its start */
twin:
twin_entry:
	SPIN
	.size twin, .-twin

pair_entry:			/* a label, then a function at its address */
	.type pair, @function
pair:
	SPIN
	.size pair, .-pair

	.section .mydata, "ax", @progbits	/* "data": perf takes it */
in_mydata:
	SPIN
	.section .stubs, "ax", @progbits	/* neither: perf does not */
in_stubs:
	SPIN
	.section .note.GNU-stack, "", @progbits
