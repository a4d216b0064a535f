# hbm_streams.awk - `make bench`'s shared-HBM case: N independent tasks that all stream GM (awk -v n=N).
# Two AIV streams to every AIC cube kernel, each moving its own 64 KiB tiles, so all 72 cores keep GM
# flows running together and the die's bandwidth is re-shared at every start and end; each task writes a
# new buffer, so the TensorMap stays small and the HBM model is what the case measures.
BEGIN {
    printf "{\"ptosim_graph\": 1, \"name\": \"hbm_streams\", \"description\": \"scripts/bench/hbm_streams.awk n=%d\", \"kernels\": [", n
    printf "{\"id\": 0, \"name\": \"stream\", \"core\": \"aiv\", \"cost\": {\"tiles\": 64, \"buffers\": 2, \"mte2\": {\"bytes\": 65536}, \"vector\": {\"elems\": 16384, \"dtype\": \"FLOAT32\"}, \"mte3\": {\"bytes\": 16384}}}, "
    printf "{\"id\": 1, \"name\": \"gemm\", \"core\": \"aic\", \"cost\": {\"tiles\": 32, \"buffers\": 2, \"mte2\": {\"bytes\": 65536}, \"mte1\": {\"bytes\": 65536}, \"cube\": {\"m\": 128, \"n\": 128, \"k\": 128, \"dtype\": \"BFLOAT16\"}, \"fixpipe\": {\"bytes\": 32768}}}], "
    printf "\"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [4096, 16]}]}\n"
    for (i = 0; i < n; i++) {
        if (i % 64 == 0)
            print "{\"op\": \"scope_begin\", \"site\": \"hbm_streams:1\"}"
        printf "{\"op\": \"submit\", \"kernel\": \"%s\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", \"shape\": [1, 16], \"offset\": [%d, 0]}, {\"dir\": \"out\", \"tensor\": \"y\", \"dtype\": \"FLOAT32\", \"shape\": [16]}]}\n", (i % 3 == 2 ? "gemm" : "stream"), i % 4096
        if (i % 64 == 63 || i == n - 1)
            print "{\"op\": \"scope_end\"}"
    }
}
