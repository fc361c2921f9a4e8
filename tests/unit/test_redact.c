/* --redact (src/report/redact.c): known values as whole words, the
 * address, UUID and user patterns, what stays, one token a value across
 * calls and escape functions, the bounded map. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include "helpers.h"
#include "pathdoctor/arena.h"
#include "report/escape.h"
#include "report/redact.h"

struct red_case {
	const char *in, *want;
};

static int
setup(void **state)
{
	(void)state;
	pd_redact_reset();
	pd_redact_enable();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	pd_redact_reset();
	return 0;
}

static void
each(const struct red_case *c, size_t n)
{
	struct pd_arena *a = pd_arena_new();

	for (size_t i = 0; i < n; i++)
		assert_string_equal(pd_redact(a, c[i].in), c[i].want);
	pd_arena_free(a);
}

static void
test_off(void **state)
{
	const char *s = "gx10 10.0.0.1";

	(void)state;
	pd_redact_reset();
	pd_redact_known(PD_RK_HOST, "gx10");
	assert_ptr_equal(pd_redact(NULL, s), s);
	assert_null(pd_redact(NULL, NULL));
}

static void
test_known_words(void **state)
{
	static const struct red_case c[] = {
		{ "gx10", "{host-1}" },
		{ "Linux gx10 6.11.0", "Linux {host-1} 6.11.0" },
		{ "gx10-before/uname.txt", "{host-1}-before/uname.txt" },
		{ "sosreport-GX10-20251124/sos", "sosreport-{host-1}-20251124/sos" },
		{ "gx100 agx10 gx10x", "gx100 agx10 gx10x" },
		{ "gx10.lab.example: up", "{host-1}.lab.example: up" },
		{ "serial 3c1a9f0003ab5e2c", "serial {serial-1}" },
		{ "Serial Number 3C-1A-9F-00-03-AB-5E-2C", "Serial Number {serial-1}" },
		{ "x3c1a9f0003ab5e2c", "x3c1a9f0003ab5e2c" },
	};

	(void)state;
	pd_redact_known(PD_RK_HOST, "gx10");
	pd_redact_known(PD_RK_SERIAL, "3c1a9f0003ab5e2c");
	pd_redact_known(PD_RK_HOST, "x");	/* too short: ignored */
	each(c, sizeof(c) / sizeof(c[0]));
}

static void
test_longest_known(void **state)
{
	static const struct red_case c[] = {
		{ "pve-gso and pve", "{host-2} and {host-1}" },
		{ "{pve-2}", "{{host-1}-2}" },
	};

	(void)state;
	pd_redact_known(PD_RK_HOST, "pve");
	pd_redact_known(PD_RK_HOST, "pve-gso");
	each(c, sizeof(c) / sizeof(c[0]));
}

static void
test_patterns(void **state)
{
	static const struct red_case c[] = {
		{ "flow 192.168.1.20:5201 <-> 192.168.1.100:58636",
		    "flow {ipv4-1}:5201 <-> {ipv4-2}:58636" },
		{ "IP 10.0.0.2.4420 > x", "IP {ipv4-3}.4420 > x" },
		{ "to 192.168.1.20.", "to {ipv4-1}." },
		{ "ip=[2001:db8::17]:::64", "ip=[{ipv6-1}]:::64" },
		{ "fe80::3e1a:9fff:fe00:3ab%eth0", "{ipv6-2}%eth0" },
		{ "2001:DB8:0:0:0:0:0:17", "{ipv6-1}" },
		{ "link/ether 3c:1a:9f:00:03:ab brd ff:ff:ff:ff:ff:ff",
		    "link/ether {mac-1} brd ff:ff:ff:ff:ff:ff" },
		{ "ifname=net0:3C-1A-9F-00-03-AB", "ifname=net0:{mac-1}" },
		{ "root=UUID=6f1c6a2e-2d4b-4c43-9a57-3a9d1e0c2b11 ro",
		    "root=UUID={uuid-1} ro" },
		{ "/home/alice/bin/app /Users/bob", "/home/{user-1}/bin/app "
		    "/Users/{user-2}" },
		{ "alice@build-3:~$ sudo lspci", "{user-1}@{host-1}:~$ sudo lspci" },
	};

	(void)state;
	each(c, sizeof(c) / sizeof(c[0]));
}

static void
test_kept(void **state)
{
	static const struct red_case c[] = {
		{ "0000:01:00.0 0002:00:00.0", "0000:01:00.0 0002:00:00.0" },
		{ "16:05:12 12:34:56.789", "16:05:12 12:34:56.789" },
		{ "std::vector a::b dead::beef", "std::vector a::b dead::beef" },
		{ "6.11.0-1016-nvidia 1.2.3.4.5.6 v1.2.3.4",
		    "6.11.0-1016-nvidia 1.2.3.4.5.6 v1.2.3.4" },
		{ "127.0.0.1 0.0.0.0 255.255.255.255 :: ::1",
		    "127.0.0.1 0.0.0.0 255.255.255.255 :: ::1" },
		{ "00:00:00:00:00:00 ff:ff:ff:ff:ff:ff",
		    "00:00:00:00:00:00 ff:ff:ff:ff:ff:ff" },
		{ "00000000-0000-0000-0000-000000000000",
		    "00000000-0000-0000-0000-000000000000" },
		{ "/home/root/x nic5@1764000000.txt 256.1.1.1",
		    "/home/root/x nic5@1764000000.txt 256.1.1.1" },
		{ "{host-7} {redacted} {ipv4-1}", "{host-7} {redacted} {ipv4-1}" },
		{ "{uuid-12}x {host-}", "{uuid-12}x {{host-1}-}" },
	};

	(void)state;
	pd_redact_known(PD_RK_HOST, "host");
	each(c, sizeof(c) / sizeof(c[0]));
}

/* One token a value whichever escape function prints it, and a second
 * pass changes nothing. */
static void
test_consistent(void **state)
{
	struct pd_arena *a = pd_arena_new();
	json_t *j;

	(void)state;
	pd_redact_known(PD_RK_HOST, "pve");
	assert_string_equal(pd_md_text(a, "pve_1 10.1.2.3"),
	    "{host-1}\\_1 {ipv4-1}");
	assert_string_equal(pd_term_text(a, "10.1.2.3 pve"),
	    "{ipv4-1} {host-1}");
	assert_string_equal(pd_md_code(a, "pve"), "`{host-1}`");
	assert_string_equal(pd_md_fenced(a, "at 10.1.2.3"), "at {ipv4-1}");
	j = pd_json_str("pve at 10.1.2.3");
	assert_string_equal(json_string_value(j), "{host-1} at {ipv4-1}");
	json_decref(j);
	const char *once = pd_redact(a, "pve 10.9.9.9");

	assert_string_equal(pd_redact(a, once), once);
	pd_arena_free(a);
}

static void
test_model(void **state)
{
	struct parsed p;
	struct pd_arena *a = pd_arena_new();

	(void)state;
	parsed_text(&p, "uname.txt", "Linux db-7.example.com 6.8.0-45-generic "
	    "#45-Ubuntu SMP x86_64 x86_64 x86_64 GNU/Linux\n");
	pd_redact_model(p.m);
	assert_string_equal(pd_redact(a, "db-7 and db-7.example.com"),
	    "{host-1} and {host-1}");
	parsed_free(&p);
	pd_arena_free(a);
}

static void
test_map(void **state)
{
	struct pd_arena *a = pd_arena_new();
	char buf[512] = "";
	FILE *f = tmpfile();

	(void)state;
	pd_redact_known(PD_RK_HOST, "gx10");
	pd_redact(a, "10.0.0.2 10.0.0.1 ga\tp");
	pd_redact_known(PD_RK_HOST, "ga\tp");
	assert_int_equal(pd_redact_write_map(f), 0);
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	assert_string_equal(buf, "# token\tkind\toriginal\n"
	    "{host-1}\thost\tgx10\n"
	    "{host-2}\thost\tga\\x09p\n"
	    "{ipv4-1}\tipv4\t10.0.0.2\n"
	    "{ipv4-2}\tipv4\t10.0.0.1\n");
	pd_arena_free(a);
}

/* Past PD_REDACT_MAX values, {redacted}, counted. */
static void
test_bounded(void **state)
{
	struct pd_arena *a = pd_arena_new();
	char ip[32];

	(void)state;
	for (unsigned i = 0; i < PD_REDACT_MAX; i++) {
		snprintf(ip, sizeof(ip), "10.%u.%u.%u", i >> 16, (i >> 8) & 255,
		    i & 255);
		pd_redact(a, ip);
	}
	assert_int_equal(pd_redact_overflow(), 0);
	assert_string_equal(pd_redact(a, "10.0.0.0"), "{ipv4-1}");
	assert_string_equal(pd_redact(a, "at 10.200.0.1"), "at {redacted}");
	assert_int_equal(pd_redact_overflow(), 1);
	pd_arena_free(a);
}

int
test_group_redact(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_off, setup, teardown),
		cmocka_unit_test_setup_teardown(test_known_words, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_longest_known, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_patterns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_consistent, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_model, setup, teardown),
		cmocka_unit_test_setup_teardown(test_map, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bounded, setup, teardown),
	};
	return cmocka_run_group_tests_name("redact", tests, NULL, NULL);
}
