#!/usr/bin/env python3
"""make_traces.py - regenerates the small example graphs in traces/ (a developer tool; the
files are committed, so nothing in the build or tests needs Python)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "traces")


def write(name, header, ops):
    with open(os.path.join(OUT, name + ".jsonl"), "w") as f:
        f.write(json.dumps(header) + "\n")
        for op in ops:
            f.write(json.dumps(op) + "\n")


def out(name, shape, dtype="FLOAT16"):
    return {"dir": "out", "tensor": name, "dtype": dtype, "shape": shape}


def inp(name, **view):
    return dict({"dir": "in", "tensor": name}, **view)


def fan200():
    # 200 independent AIV tasks of 500 us: 48 AIV cores take them in ceil(200/48) = 5 waves
    hdr = {"ptosim_graph": 1, "name": "fan200",
           "kernels": [{"id": 0, "name": "vexp", "core": "aiv", "cost": {"cycles": 900000}}]}
    write("fan200", hdr, [{"op": "submit", "kernel": "vexp"} for _ in range(200)])


def forkjoin():
    # one AIC producer, 8 AIV workers on disjoint row blocks, one AIV join
    hdr = {"ptosim_graph": 1, "name": "forkjoin",
           "kernels": [{"id": 0, "name": "matmul", "core": "aic", "cost": {"cycles": 36000}},
                       {"id": 1, "name": "gelu", "core": "aiv", "cost": {"cycles": 9000}},
                       {"id": 2, "name": "reduce", "core": "aiv", "cost": {"cycles": 5400}}],
           "tensors": [{"name": "x", "dtype": "FLOAT16", "shape": [2048, 64]},
                       {"name": "w", "dtype": "FLOAT16", "shape": [64, 64]}]}
    ops = [{"op": "scope_begin", "site": "forkjoin.py:10"},
           {"op": "submit", "id": "prod", "kernel": "matmul",
            "args": [inp("x"), inp("w"), out("h", [2048, 64])]}]
    for k in range(8):
        ops.append({"op": "submit", "kernel": "gelu",
                    "args": [inp("h", shape=[256, 64], offset=[256 * k, 0]), out("g%d" % k, [256, 64])]})
    ops.append({"op": "submit", "id": "join", "kernel": "reduce",
                "args": [inp("g%d" % k) for k in range(8)] + [out("y", [64])]})
    ops.append({"op": "scope_end"})
    write("forkjoin", hdr, ops)


def mix_spmd():
    hdr = {"ptosim_graph": 1, "name": "mix_spmd",
           "kernels": [{"id": 0, "name": "qk_mm", "core": "aic", "cost": {"cycles": 27000}},
                       {"id": 1, "name": "softmax", "core": "aiv", "cost": {"cycles": 18000}},
                       {"id": 2, "name": "scale", "core": "aiv", "cost": {"cycles": 9000}},
                       {"id": 3, "name": "proj", "core": "aic", "cost": {"cycles": 18000}}],
           "tensors": [{"name": "q", "dtype": "BFLOAT16", "shape": [4, 128, 128]},
                       {"name": "k", "dtype": "BFLOAT16", "shape": [4, 128, 128]}]}
    ops = [{"op": "scope_begin", "site": "mix_spmd.py:20"},
           # MIX: AIC + both AIVs of one cluster per block, 4 blocks = 4 clusters
           {"op": "submit", "kernels": ["qk_mm", "softmax", "softmax"], "block_num": 4,
            "args": [inp("q"), inp("k"), out("s", [4, 128, 128], "FLOAT32")]},
           # SPMD AIV with 96 blocks: two waves on 48 AIV cores
           {"op": "submit", "kernel": "scale", "block_num": 96,
            "args": [inp("s"), out("p", [4, 128, 128])]},
           # SPMD AIC with one block per cluster
           {"op": "submit", "kernel": "proj", "block_num": 24,
            "args": [inp("p"), out("o", [4, 128, 128])]},
           {"op": "scope_end"}]
    write("mix_spmd", hdr, ops)


def default():
    # a small decoder: 8 layers, each in its own scope (ring 1), with the usual chain of
    # norm -> qkv -> rope -> attention (MIX) -> out-proj -> add -> up -> act -> down -> add
    H = 1024
    # pipe-form costs: decode moves weights and KV once, so GM traffic (MTE2) paces the matmuls
    def aiv(tiles, mte2, elems, mte3):
        return {"tiles": tiles, "mte2": {"bytes": mte2}, "vector": {"elems": elems}, "mte3": {"bytes": mte3}}

    def aic(tiles, mte2, m, n, k, out):
        return {"tiles": tiles, "mte2": {"bytes": mte2}, "mte1": {"bytes": mte2},
                "cube": {"m": m, "n": n, "k": k}, "fixpipe": {"bytes": out}}

    hdr = {"ptosim_graph": 1, "name": "default", "orchestrator": "mini_decoder",
           "kernels": [{"id": 0, "name": "rmsnorm", "core": "aiv", "cost": aiv(4, 8192, 8192, 8192)},
                       {"id": 1, "name": "qkv_proj", "core": "aic", "cost": aic(8, 65536, 16, 256, 128, 8192)},
                       {"id": 2, "name": "rope", "core": "aiv", "cost": aiv(2, 16384, 16384, 16384)},
                       {"id": 3, "name": "attn_qk_pv", "core": "aic", "cost": aic(8, 65536, 16, 128, 256, 4096)},
                       {"id": 4, "name": "attn_softmax", "core": "aiv", "cost": aiv(8, 8192, 32768, 8192)},
                       {"id": 5, "name": "o_proj", "core": "aic", "cost": aic(6, 65536, 16, 256, 128, 8192)},
                       {"id": 6, "name": "residual_add", "core": "aiv", "cost": aiv(2, 16384, 8192, 8192)},
                       {"id": 7, "name": "up_gate", "core": "aic", "cost": aic(12, 65536, 16, 256, 128, 8192)},
                       {"id": 8, "name": "swiglu", "core": "aiv", "cost": aiv(4, 16384, 16384, 8192)},
                       {"id": 9, "name": "down_proj", "core": "aic", "cost": aic(12, 65536, 16, 256, 128, 8192)}],
           "tensors": [{"name": "x", "dtype": "BFLOAT16", "shape": [16, H]},
                       {"name": "kv_cache", "dtype": "BFLOAT16", "shape": [8, 2, 4096, 128]}]}
    ops = [{"op": "alloc", "id": "ws", "tensors": [{"name": "scratch", "dtype": "FLOAT32", "shape": [16, H]}]}]
    h = "x"
    for layer in range(8):
        ops.append({"op": "scope_begin", "site": "decoder.py:%d" % (40 + layer)})
        ops.append({"op": "user_code", "ns": 300})
        ops.append({"op": "submit", "kernel": "rmsnorm", "args": [inp(h), out("n", [16, H])]})
        ops.append({"op": "submit", "kernel": "qkv_proj", "block_num": 8, "args": [inp("n"), out("qkv", [16, 3 * H])]})
        ops.append({"op": "submit", "kernel": "rope", "block_num": 8, "args": [inp("qkv"), out("qr", [16, 3 * H])]})
        ops.append({"op": "submit", "kernels": ["attn_qk_pv", "attn_softmax", "attn_softmax"], "block_num": 8,
                    "args": [inp("qr"), inp("kv_cache", shape=[1, 2, 4096, 128], offset=[layer, 0, 0, 0]),
                             out("a", [16, H])]})
        ops.append({"op": "submit", "kernel": "o_proj", "block_num": 8, "args": [inp("a"), out("o", [16, H])]})
        ops.append({"op": "submit", "kernel": "residual_add", "args": [inp(h), inp("o"), out("r", [16, H])]})
        ops.append({"op": "submit", "kernel": "up_gate", "block_num": 16, "args": [inp("r"), out("u", [16, 4 * H])]})
        ops.append({"op": "submit", "kernel": "swiglu", "block_num": 16, "args": [inp("u"), out("s", [16, 2 * H])]})
        ops.append({"op": "submit", "kernel": "down_proj", "block_num": 8, "args": [inp("s"), out("d", [16, H])]})
        ops.append({"op": "submit", "id": "layer_out", "kernel": "residual_add",
                    "args": [inp("r"), inp("d"), out("h%d" % layer, [16, H])]})
        ops.append({"op": "dummy", "deps": ["layer_out"]})
        ops.append({"op": "scope_end"})
        h = "h%d" % layer
    write("default", hdr, ops)


def granularity(name, tasks, block_num=1):
    # one elementwise pass over x[4800, 256] into y, cut into `tasks` row chunks of
    # `block_num` SPMD blocks each: the same 4.8 ms of AIV work (4800 rows x 1 us) whatever
    # the cut; only the grain changes
    rows = 4800 // (tasks * block_num)
    hdr = {"ptosim_graph": 1, "name": name,
           "kernels": [{"id": 0, "name": "silu", "core": "aiv", "cost": {"cycles": 1800 * rows}}],
           "tensors": [{"name": "x", "dtype": "FLOAT16", "shape": [4800, 256]},
                       {"name": "y", "dtype": "FLOAT16", "shape": [4800, 256]}]}
    ops = [{"op": "scope_begin", "site": name + ".py:12"}]
    for k in range(tasks):
        view = {"shape": [rows * block_num, 256], "offset": [k * rows * block_num, 0]}
        op = {"op": "submit", "kernel": "silu",
              "args": [inp("x", **view), dict({"dir": "out_existing", "tensor": "y"}, **view)]}
        if block_num > 1:
            op["block_num"] = block_num
        ops.append(op)
    ops.append({"op": "scope_end"})
    write(name, hdr, ops)


def dump_stall(batches=64, ctx=8192, chunk=1024, name="dump_stall"):
    # paged attention after the #860 report: 64 batch x 8192 context, 8 bindings of which the
    # key and value caches are 1 GiB each (4096 blocks x 128 tokens x 8 heads x 128 dim, BF16).
    # Every QK / PV task takes a whole cache, as the kernel indexes it through the block table,
    # so a full args dump copies (the arena's half of) 1 GiB per task. Two small tensors carry
    # dump tags: context_lens on each batch's first QK, and out on each batch's last update.
    cache = [4096, 128, 8, 128]
    hdr = {"ptosim_graph": 1, "name": name, "orchestrator": "paged_attention",
           "kernels": [{"id": 0, "name": "qk_matmul", "core": "aic",
                        "cost": {"tiles": 8, "mte2": {"bytes": 65536}, "mte1": {"bytes": 65536},
                                 "cube": {"m": 16, "n": 128, "k": 128}, "fixpipe": {"bytes": 8192}}},
                       {"id": 1, "name": "softmax", "core": "aiv",
                        "cost": {"tiles": 4, "mte2": {"bytes": 16384}, "vector": {"elems": 16384},
                                 "mte3": {"bytes": 8192}}},
                       {"id": 2, "name": "pv_matmul", "core": "aic",
                        "cost": {"tiles": 8, "mte2": {"bytes": 65536}, "mte1": {"bytes": 65536},
                                 "cube": {"m": 16, "n": 128, "k": 128}, "fixpipe": {"bytes": 8192}}},
                       {"id": 3, "name": "online_update", "core": "aiv",
                        "cost": {"tiles": 2, "mte2": {"bytes": 16384}, "vector": {"elems": 8192},
                                 "mte3": {"bytes": 8192}}}],
           "tensors": [{"name": "query", "dtype": "BFLOAT16", "shape": [batches, 8, 128]},
                       {"name": "key_cache", "dtype": "BFLOAT16", "shape": cache},
                       {"name": "value_cache", "dtype": "BFLOAT16", "shape": cache},
                       {"name": "block_table", "dtype": "INT32", "shape": [batches, ctx // 128]},
                       {"name": "context_lens", "dtype": "INT32", "shape": [batches]},
                       {"name": "out", "dtype": "BFLOAT16", "shape": [batches, 8, 128]},
                       {"name": "m_state", "dtype": "FLOAT32", "shape": [batches, 8]},
                       {"name": "l_state", "dtype": "FLOAT32", "shape": [batches, 8]}]}
    ops = []
    chunks = ctx // chunk
    for b in range(batches):
        ops.append({"op": "scope_begin", "site": "paged_attention.cpp:%d" % (60 + b % 4)})
        row = {"shape": [1, 8, 128], "offset": [b, 0, 0]}
        for c in range(chunks):
            ops.append({"op": "scope_begin", "site": "paged_attention.cpp:71"})
            qk_args = [inp("query", **row), inp("key_cache"),
                       inp("block_table", shape=[1, ctx // 128], offset=[b, 0]),
                       dict(inp("context_lens"), dump=True) if c == 0 else inp("context_lens"),
                       out("s", [8, chunk], "FLOAT32")]
            ops.append({"op": "submit", "kernel": "qk_matmul", "args": qk_args + [{"scalar": 0.0883883, "dtype": "FLOAT32"}]})
            ops.append({"op": "submit", "kernel": "softmax", "args": [inp("s"), out("p", [8, chunk], "BFLOAT16"),
                                                                     out("mi", [8], "FLOAT32"), out("li", [8], "FLOAT32")]})
            ops.append({"op": "submit", "kernel": "pv_matmul",
                        "args": [inp("p"), inp("value_cache"),
                                 inp("block_table", shape=[1, ctx // 128], offset=[b, 0]),
                                 out("oi", [8, 128], "FLOAT32")]})
            upd = {"dir": "inout", "tensor": "out", "shape": [1, 8, 128], "offset": [b, 0, 0]}
            if c == chunks - 1:
                upd["dump"] = True
            ops.append({"op": "submit", "kernel": "online_update",
                        "args": [inp("oi"), inp("mi"), inp("li"),
                                 {"dir": "inout", "tensor": "m_state", "shape": [1, 8], "offset": [b, 0]},
                                 {"dir": "inout", "tensor": "l_state", "shape": [1, 8], "offset": [b, 0]}, upd]})
            ops.append({"op": "scope_end"})
        ops.append({"op": "scope_end"})
    write(name, hdr, ops)


def kv_pair(blocks=8, bs=128, hd=128, hidden=1024):
    """A prefill and a decode program sharing one worker-resident KV cache
    (docs/howto/several-programs.md): prefill writes KV blocks 0..blocks-1; decode appends its token's
    K/V at row blocks*bs and attends over every block, reading what prefill wrote."""
    rows = (blocks + 1) * bs
    kernels = [
        {"id": 0, "name": "kv_proj", "core": "aic",
         "cost": {"tiles": 8, "mte2": {"bytes": 262144}, "mte1": {"bytes": 262144},
                  "cube": {"m": 16, "n": 256, "k": 128}, "fixpipe": {"bytes": 65536}}},
        {"id": 1, "name": "q_proj", "core": "aic",
         "cost": {"tiles": 8, "mte2": {"bytes": 131072}, "mte1": {"bytes": 131072},
                  "cube": {"m": 16, "n": 128, "k": 128}, "fixpipe": {"bytes": 32768}}},
        {"id": 2, "name": "attn", "core": "aic",
         "cost": {"tiles": 8, "mte2": {"bytes": 131072}, "mte1": {"bytes": 131072},
                  "cube": {"m": 16, "n": 128, "k": 128}, "fixpipe": {"bytes": 32768}}},
        {"id": 3, "name": "qk", "core": "aic",
         "cost": {"tiles": 1, "mte2": {"bytes": 32768}, "mte1": {"bytes": 32768},
                  "cube": {"m": 16, "n": 128, "k": 128}, "fixpipe": {"bytes": 512}}},
        {"id": 4, "name": "softmax", "core": "aiv",
         "cost": {"tiles": 1, "mte2": {"bytes": 512}, "vector": {"elems": 1024}, "mte3": {"bytes": 512}}},
        {"id": 5, "name": "pv", "core": "aic",
         "cost": {"tiles": 1, "mte2": {"bytes": 32768}, "mte1": {"bytes": 32768},
                  "cube": {"m": 16, "n": 128, "k": 128}, "fixpipe": {"bytes": 512}}},
        {"id": 6, "name": "update", "core": "aiv",
         "cost": {"tiles": 1, "mte2": {"bytes": 1024}, "vector": {"elems": 2048}, "mte3": {"bytes": 512}}},
    ]
    kv = [{"name": "k_cache", "dtype": "BFLOAT16", "shape": [rows, hd], "resident": True},
          {"name": "v_cache", "dtype": "BFLOAT16", "shape": [rows, hd], "resident": True}]

    def cache(d, name, row, n):
        return {"dir": d, "tensor": name, "shape": [n, hd], "offset": [row, 0]}

    hdr = {"ptosim_graph": 1, "name": "kv_prefill", "orchestrator": "prefill", "kernels": kernels,
           "tensors": kv + [{"name": "x", "dtype": "BFLOAT16", "shape": [blocks * bs, hidden]}]}
    ops = [{"op": "scope_begin", "site": "prefill.py:12"}]
    for b in range(blocks):
        xb = inp("x", shape=[bs, hidden], offset=[b * bs, 0])
        ops += [{"op": "scope_begin", "site": "prefill.py:20"},
                {"op": "submit", "kernel": "kv_proj",
                 "args": [xb, cache("out_existing", "k_cache", b * bs, bs),
                          cache("out_existing", "v_cache", b * bs, bs)]},
                {"op": "submit", "kernel": "q_proj", "args": [xb, out("q%d" % b, [bs, hd], "BFLOAT16")]},
                {"op": "submit", "kernel": "attn",
                 "args": [inp("q%d" % b), cache("in", "k_cache", 0, (b + 1) * bs),
                          cache("in", "v_cache", 0, (b + 1) * bs), out("o%d" % b, [bs, hd], "BFLOAT16")]},
                {"op": "scope_end"}]
    ops.append({"op": "scope_end"})
    write("kv_prefill", hdr, ops)

    hdr = {"ptosim_graph": 1, "name": "kv_decode", "orchestrator": "decode", "kernels": kernels,
           "tensors": kv + [{"name": "xt", "dtype": "BFLOAT16", "shape": [1, hidden]},
                            {"name": "acc", "dtype": "FLOAT32", "shape": [1, hd]}]}
    t = blocks * bs  # the new token's row
    ops = [{"op": "scope_begin", "site": "decode.py:30"},
           {"op": "submit", "kernel": "kv_proj",
            "args": [inp("xt"), cache("out_existing", "k_cache", t, 1), cache("out_existing", "v_cache", t, 1)]},
           {"op": "submit", "kernel": "q_proj", "args": [inp("xt"), out("qt", [1, hd], "BFLOAT16")]}]
    for b in range(blocks + 1):
        n = bs if b < blocks else 1
        ops += [{"op": "scope_begin", "site": "decode.py:41"},
                {"op": "submit", "kernel": "qk",
                 "args": [inp("qt"), cache("in", "k_cache", b * bs, n), out("s%d" % b, [1, n], "FLOAT32")]},
                {"op": "submit", "kernel": "softmax", "args": [inp("s%d" % b), out("p%d" % b, [1, n], "BFLOAT16")]},
                {"op": "submit", "kernel": "pv",
                 "args": [inp("p%d" % b), cache("in", "v_cache", b * bs, n), out("ob%d" % b, [1, hd], "FLOAT32")]},
                {"op": "submit", "kernel": "update", "args": [inp("ob%d" % b), {"dir": "inout", "tensor": "acc"}]},
                {"op": "scope_end"}]
    ops.append({"op": "scope_end"})
    write("kv_decode", hdr, ops)


if __name__ == "__main__":
    granularity("grain_fine", 4800)
    granularity("grain_right", 48)
    granularity("grain_spmd", 1, 48)
    dump_stall()
    granularity("grain_coarse", 24)
    fan200()
    forkjoin()
    mix_spmd()
    default()
    kv_pair()
