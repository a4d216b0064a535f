# deep_scopes.awk - `make bench`'s scope and TensorMap case: N tasks in scopes nested 8 deep (awk -v n=N).
# Per group of 8 tasks an alloc'd 64 x 64 tile at the outer scope, then one task per nesting level, each
# reading three row bands of the tile (its producers found through the TensorMap by overlap) and updating
# a fourth in place; every scope_end releases its task. Rings 1 to 3 all carry tasks.
BEGIN {
    printf "{\"ptosim_graph\": 1, \"name\": \"deep_scopes\", \"description\": \"scripts/bench/deep_scopes.awk n=%d\", \"kernels\": [", n
    printf "{\"id\": 0, \"name\": \"band\", \"core\": \"aiv\", \"cost\": {\"ns\": 3000}}], \"tensors\": []}\n"
    for (i = 0; i < n; i += 8) {
        print "{\"op\": \"scope_begin\", \"site\": \"deep_scopes:1\"}"
        print "{\"op\": \"alloc\", \"tensors\": [{\"name\": \"t\", \"dtype\": \"FLOAT32\", \"shape\": [64, 64]}]}"
        for (d = 0; d < 8 && i + d < n; d++) {
            printf "{\"op\": \"scope_begin\", \"site\": \"deep_scopes:%d\"}\n", d + 2
            r = (d * 8) % 64
            printf "{\"op\": \"submit\", \"kernel\": \"band\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t\", \"shape\": [8, 64], \"offset\": [%d, 0]}, {\"dir\": \"in\", \"tensor\": \"t\", \"shape\": [16, 64], \"offset\": [%d, 0]}, {\"dir\": \"in\", \"tensor\": \"t\", \"shape\": [4, 32], \"offset\": [%d, 16]}, {\"dir\": \"inout\", \"tensor\": \"t\", \"shape\": [8, 64], \"offset\": [%d, 0]}]}\n", (r + 56) % 64, (r + 40) % 48, (r + 20) % 60, r
        }
        for (e = 0; e < d; e++)
            print "{\"op\": \"scope_end\"}"
        print "{\"op\": \"scope_end\"}"
    }
}
