/* Unit test runner: every group, then one exit status. */
#include "helpers.h"


int
main(void)
{
	int failed = 0;

	failed += test_group_input();
	failed += test_group_gunzip();
	failed += test_group_gain();
	failed += test_group_cmdline();
	failed += test_group_lspci();
	failed += test_group_sniff();
	failed += test_group_rules();
	failed += test_group_bundle();
	failed += test_group_nic();
	failed += test_group_softnet();
	failed += test_group_irqcpu();
	failed += test_group_sysval();
	failed += test_group_capture();
	failed += test_group_flows();
	failed += test_group_populate();
	failed += test_group_profile();
	failed += test_group_profile_events();
	failed += test_group_workload();
	failed += test_group_ladder();
	failed += test_group_diff();
	failed += test_group_wlrules();
	failed += test_group_uploads();
	failed += test_group_escape();
	failed += test_group_wrap();
	failed += test_group_redact();
	failed += test_group_snmp();
	failed += test_group_nvme();
	failed += test_group_nic_counters();
	failed += test_group_link();
	failed += test_group_hostile();
	failed += test_group_filter();
	failed += test_group_hash();
	failed += test_group_dynlib();
	failed += test_group_prof_memo();
	failed += test_group_map_ranges();
	failed += test_group_fleet();
	failed += test_group_window();
	failed += test_group_archive_src();
	failed += test_group_mapped();
	return failed ? 1 : 0;
}
