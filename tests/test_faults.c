/* test_faults.c - what the program does when things go wrong around it: huge sizes, full disks, signals,
 * concurrent runs, FIFOs and endless lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define HDR                                                                                                  \
    "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": \"vadd\", \"core\": "        \
    "\"aiv\", \"cost\": {\"cycles\": 1800}}]}\n"

START_TEST(a_tensor_of_2_64_bytes_is_a_graph_error_not_an_ok_run)
{
    /* its byte count wrapped to 0: "ok", makespan 3.190 us, exit 0 */
    const char *dir = tu_tmpdir();
    char *g =
        tu_write(dir, "g.jsonl",
                 HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"out\", \"tensor\": "
                     "\"o\", \"dtype\": \"FLOAT32\", \"shape\": [4294967296, 1073741824]}]}\n");
    char out[300];
    snprintf(out, sizeof(out), "%s/out", dir);
    const char *args[] = {"run", g, "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.out, "");
    char want[600];
    snprintf(want, sizeof(want),
             "ptosim: %s:2: args[0].shape: [4294967296, 1073741824] x FLOAT32 is more than 2^53 bytes "
             "(GRAPH_MAX_BYTES)\n",
             g);
    ck_assert_str_eq(r.err, want);
    ck_assert(!tu_exists(out));
    tu_run_free(&r);
    free(g);
}
END_TEST

Suite *suite_faults(void)
{
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create("faults");
    tcase_add_test(tc, a_tensor_of_2_64_bytes_is_a_graph_error_not_an_ok_run);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
