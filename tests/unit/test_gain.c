/* The arithmetic against the figures in DESIGN §4. */
#include <math.h>
#include "helpers.h"
#include "base/gain.h"

static void
near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.4f, want %.4f (tolerance %.4f)", got, want, tol);
}

static void
test_pcie_raw_rates(void **state)
{
	(void)state;
	near(pd_pcie_raw_gbs(32000, 4), 15.75, 0.01);	/* Gen5 x4 */
	near(pd_pcie_raw_gbs(2500, 1), 0.25, 1e-9);	/* 8b/10b */
	near(pd_pcie_raw_gbs(5000, 16), 8.0, 1e-9);
	near(pd_pcie_raw_gbs(8000, 8), 7.877, 0.001);	/* 128b/130b */
	near(pd_pcie_raw_gbs(16000, 16), 31.51, 0.01);
	near(pd_pcie_raw_gbs(0, 4), 0, 0);
	near(pd_pcie_raw_gbs(8000, 0), 0, 0);
}

static void
test_tlp_efficiency(void **state)
{
	(void)state;
	near(pd_pcie_tlp_eff(128), 0.865, 0.001);
	near(pd_pcie_tlp_eff(256), 0.928, 0.001);
	near(pd_pcie_tlp_eff(512), 0.962, 0.001);
	near(pd_pcie_tlp_eff(0), 0, 0);
}

static void
test_link_ceilings(void **state)
{
	(void)state;
	/* Gen5 x4: ~13.5 GB/s of payload at MPS 128, ~15.0 at 512 */
	near(pd_pcie_ceiling_gbs(32000, 4, 128), 13.5, 0.05);
	near(pd_pcie_ceiling_gbs(32000, 4, 512), 15.0, 0.05);
	/* 128 -> 512 raises the ceiling by 11.3 % */
	assert_int_equal(pd_gain_tenths(pd_pcie_ceiling_gbs(32000, 4, 512) /
	    pd_pcie_ceiling_gbs(32000, 4, 128)), 113);
	assert_int_equal(pd_gain_tenths(pd_pcie_tlp_eff(256) /
	    pd_pcie_tlp_eff(128)), 72);
}

static void
test_ethernet_and_amdahl(void **state)
{
	(void)state;
	/* MTU 1500: 1448 payload bytes in 1538 wire bytes */
	near(pd_eth_goodput_gbits(10, 1500), 10.0 * 1448 / 1538, 1e-9);
	near(pd_eth_goodput_gbits(2.5, 1500), 2.354, 0.001);
	near(pd_eth_goodput_gbits(10, 40), 0, 0);
	/* GB10: f = 0.57 gives at least 2.3x */
	near(pd_amdahl(0.57), 2.326, 0.001);
	near(pd_amdahl(0), 1, 0);
	assert_true(isinf(pd_amdahl(1)));
	assert_int_equal(pd_gain_tenths(1.0), 0);
	assert_int_equal(pd_gain_tenths(0.9), -100);
}

static void
test_speed_names(void **state)
{
	(void)state;
	assert_string_equal(pd_pcie_speed_name(2500), "2.5GT/s");
	assert_string_equal(pd_pcie_speed_name(32000), "32GT/s");
	assert_string_equal(pd_pcie_speed_name(1), "unknown");
	assert_int_equal(pd_pcie_gen(16000), 4);
	assert_int_equal(pd_pcie_gen(3), 0);
}

int
test_group_gain(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcie_raw_rates),
		cmocka_unit_test(test_tlp_efficiency),
		cmocka_unit_test(test_link_ceilings),
		cmocka_unit_test(test_ethernet_and_amdahl),
		cmocka_unit_test(test_speed_names),
	};
	return cmocka_run_group_tests_name("gain", tests, NULL, NULL);
}
