/* run_tests.c - the one test runner: every suite, fork mode, one closing summary line. */
#include <stdlib.h>

#include "testutil.h"

int main(void)
{
    SRunner *sr = srunner_create(suite_basics());
    srunner_add_suite(sr, suite_graph());
    srunner_add_suite(sr, suite_platform());
    srunner_add_suite(sr, suite_runcfg());
    srunner_add_suite(sr, suite_errors());
    srunner_add_suite(sr, suite_chip());
    srunner_add_suite(sr, suite_alone());
    srunner_add_suite(sr, suite_rings());
    srunner_add_suite(sr, suite_deps());
    srunner_add_suite(sr, suite_pipe());
    srunner_add_suite(sr, suite_roofline());
    srunner_add_suite(sr, suite_pmu());
    srunner_add_suite(sr, suite_hbm());
    srunner_add_suite(sr, suite_dump());
    srunner_add_suite(sr, suite_import());
    srunner_add_suite(sr, suite_perfsim());
    srunner_add_suite(sr, suite_kcost());
    srunner_add_suite(sr, suite_conform());
    srunner_add_suite(sr, suite_jstream());
    srunner_add_suite(sr, suite_sched());
    srunner_add_suite(sr, suite_calib());
    srunner_add_suite(sr, suite_ohm());
    srunner_add_suite(sr, suite_vary());
    srunner_add_suite(sr, suite_gen());
    srunner_add_suite(sr, suite_worker());
    srunner_add_suite(sr, suite_tune());
    srunner_add_suite(sr, suite_perfetto());
    srunner_add_suite(sr, suite_report());
    srunner_add_suite(sr, suite_e2e());
    srunner_add_suite(sr, suite_install());
    srunner_add_suite(sr, suite_sweep());
    srunner_add_suite(sr, suite_whatif());
    srunner_add_suite(sr, suite_faults());
    srunner_add_suite(sr, suite_cli());
    srunner_add_suite(sr, suite_opts());
    srunner_add_suite(sr, suite_links());
    srunner_add_suite(sr, suite_diff());
    srunner_add_suite(sr, suite_mkp());
    srunner_add_suite(sr, suite_oom());
    srunner_add_suite(sr, suite_docs());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
