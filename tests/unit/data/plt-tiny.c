/* PLT stubs for tests/unit/test_profile.c: calls through the PLT to
 * three functions from elsewhere and to two local IFUNCs, whose GOT
 * slots get IRELATIVE relocations that ld lists after the others.
 * Built in this folder on Debian 12 (gcc 12.2, binutils 2.40; the
 * aarch64 one with gcc-aarch64-linux-gnu), stripped like a distribution
 * binary:
 *   F="-O1 -fPIC -shared -nostdlib -s -Wl,-z,noseparate-code
 *      -Wl,-z,max-page-size=4096"
 *   gcc $F -fvisibility=hidden -o plt-x86_64.so plt-tiny.c
 *   gcc $F -fvisibility=protected -fcf-protection=full -Wl,-z,ibtplt \
 *       -o plt-x86_64-ibt.so plt-tiny.c
 *   aarch64-linux-gnu-gcc $F -fvisibility=protected -o plt-aarch64.so \
 *       plt-tiny.c
 * plt-x86_64.so exports no function, as a stripped executable; the
 * other two export entry and the IFUNC tpl.  The stub addresses the
 * test expects are objdump -d's, their names readelf -r's GOT slots. */
extern int ext_one(int), ext_two(int), ext_three(int);
static int twice(int x) { return 2 * x; }
static int (*pick_twice(void))(int) { return twice; }
static int (*pick_thrice(void))(int) { return ext_three; }
static int dbl(int) __attribute__((ifunc("pick_twice"), used));
int tpl(int) __attribute__((ifunc("pick_thrice")));
int entry(int x) { return dbl(ext_one(x)) + tpl(ext_two(x)) + ext_three(x); }
