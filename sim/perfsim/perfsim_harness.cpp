// perfsim_harness.cpp - ptosim's driver of one kernel under pto-isa's Perf-Sim: builds each task
// signature's ChipTensor args, launches kernel_entry once per signature, prints one result line each.
//
// Not part of ptosim's build: `ptosim import --costs perf-sim` compiles it at run time with the
// user's C++ compiler, -D__DAV_CUBE__ (AIC) or -D__DAV_VEC__ (AIV), -DPTOSIM_KERNEL="<kernel source>"
// and pto-isa's and the runtime's include directories (sim/perfsim/perfsim.c lists the flags).
//
//   harness RESULTS_FILE OUT_DIR < SPEC
//
// SPEC, one signature after another (numbers in decimal, contents in hex):
//   sig ID
//   b BLOCK_IDX BLOCK_NUM                 (the SPMD block priced, of how many)
//   t SLOT DTYPE NDIMS SHAPE... STRIDE... START_OFFSET BUFFER_ELEMS CONTENT_BYTES HEX|-
//   s SLOT VALUE
//   go
// RESULTS_FILE gets, per signature:
//   r ID TOTAL INSTRUCTIONS SYNC_EVENTS SCALAR MTE2 MTE1 CUBE FIXP VEC MTE3 GM_MTE2 GM_MTE3 GM_FIXP
#include <pto/pto-inst.hpp>
#include <pto/costmodel/perf_sim/launch.hpp>
// the costmodel build leaves TFillPad out; kernels that pad tiles need it
#include <pto/npu/a2a3/TFillPad.hpp>
// the runtime's pipe_sync.h drains through EVENT_ID7; some pto-isa stubs stop at EVENT_ID3
#ifndef EVENT_ID4
#define EVENT_ID4 4
#endif
#ifndef EVENT_ID5
#define EVENT_ID5 5
#endif
#ifndef EVENT_ID6
#define EVENT_ID6 6
#endif
#ifndef EVENT_ID7
#define EVENT_ID7 7
#endif

#include PTOSIM_KERNEL

#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static const int HARNESS_SLOTS = 48; // args[] slots a task can fill (tensors, then scalars)
// The runtime's dispatch puts the block's local context (block_idx, block_num) in args[48] and the global
// one (sub_block_id) in args[49]: what get_block_idx(args) / get_block_num(args) read.
static const int LOCAL_CONTEXT_SLOT = 48, GLOBAL_CONTEXT_SLOT = 49;
struct HarnessLocalContext {
    int32_t block_idx, block_num;
};
struct HarnessGlobalContext {
    int32_t sub_block_id;
};
static int64_t harness_args[64];
static HarnessLocalContext harness_local;
static HarnessGlobalContext harness_global;

// One block of the task, as the runtime runs it: on subblock 0 only (Perf-Sim calls every subblock).
static void ptosim_block()
{
    if (::pto::perf_sim::current_subblock_id != 0)
        return;
    kernel_entry(reinterpret_cast<__gm__ int64_t *>(harness_args));
}

// The runtime's headers leave their assertion handler to each program that links them.
[[noreturn]] void assert_impl(const char *condition, const char *file, int line)
{
    std::fprintf(stderr, "ptosim perf-sim harness: %s:%d: assertion failed: %s\n", file, line, condition);
    std::exit(3);
}

static void die(const char *what)
{
    std::fprintf(stderr, "ptosim perf-sim harness: %s\n", what);
    std::exit(3);
}

static uint64_t bits_of(const std::string &dtype)
{
    // "fp32", "bf16", "int8", "uint16", "fp8": the trailing number is the element's bits
    size_t i = dtype.size();
    while (i > 0 && dtype[i - 1] >= '0' && dtype[i - 1] <= '9')
        i--;
    return i < dtype.size() ? std::strtoull(dtype.c_str() + i, nullptr, 10) : 8;
}

struct HarnessTensor {
    ChipTensor t;
    void *mem = nullptr;
    size_t len = 0;
};

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// Places the view's contents (logically contiguous, as the args dump stores them) at its elements.
static void fill(HarnessTensor &h, const std::string &hex, uint64_t esize)
{
    size_t nbytes = hex.size() / 2;
    std::vector<unsigned char> bytes(nbytes);
    for (size_t i = 0; i < nbytes; i++) {
        int a = hexval(hex[2 * i]), b = hexval(hex[2 * i + 1]);
        if (a < 0 || b < 0)
            die("bad hex contents");
        bytes[i] = (unsigned char)(a * 16 + b);
    }
    uint32_t nd = h.t.ndims;
    uint64_t n = nbytes / esize, idx[5] = {0, 0, 0, 0, 0};
    unsigned char *base = static_cast<unsigned char *>(h.mem);
    for (uint64_t e = 0; e < n; e++) {
        uint64_t off = h.t.start_offset;
        for (uint32_t d = 0; d < nd; d++)
            off += idx[d] * h.t.strides[d];
        if ((off + 1) * esize <= h.len)
            std::memcpy(base + off * esize, &bytes[e * esize], esize);
        for (int d = (int)nd - 1; d >= 0; d--) { // next logical index, row-major
            if (++idx[d] < h.t.shapes[d])
                break;
            idx[d] = 0;
        }
    }
}

// The row of the kernel's unit in Perf-Sim's pipeline summary.
static bool read_summary(const std::string &path, const char *unit, std::vector<uint64_t> &out)
{
    std::ifstream in(path);
    std::string header, line;
    if (!std::getline(in, header))
        return false;
    std::vector<std::string> cols;
    std::stringstream hs(header);
    for (std::string c; std::getline(hs, c, ',');)
        cols.push_back(c);
    static const char *const want[] = {"total_cycles", "scalar_cycles", "mte2_aic_cycles", "mte2_aiv_cycles",
                                       "mte1_cycles",  "cube_cycles",   "fixp_cycles",     "vec_cycles",
                                       "mte3_cycles"};
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream ls(line);
        for (std::string c; std::getline(ls, c, ',');)
            f.push_back(c);
        size_t u = 0;
        while (u < cols.size() && cols[u] != "unit")
            u++;
        if (u >= f.size() || f[u] != unit)
            continue;
        out.clear();
        for (const char *w : want) {
            size_t i = 0;
            while (i < cols.size() && cols[i] != w)
                i++;
            if (i >= f.size())
                return false;
            out.push_back(std::strtoull(f[i].c_str(), nullptr, 10));
        }
        return true;
    }
    return false;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        die("usage: harness RESULTS_FILE OUT_DIR < SPEC");
    FILE *res = std::fopen(argv[1], "w");
    if (!res)
        die("cannot write the results file");
    std::vector<HarnessTensor> tensors(HARNESS_SLOTS);
    std::string word, id;
    while (std::cin >> word) {
        if (word == "sig") {
            std::cin >> id;
            std::memset(harness_args, 0, sizeof(harness_args));
            harness_local = {0, 1};
            harness_global = {0};
            harness_args[LOCAL_CONTEXT_SLOT] = reinterpret_cast<int64_t>(&harness_local);
            harness_args[GLOBAL_CONTEXT_SLOT] = reinterpret_cast<int64_t>(&harness_global);
            for (auto &h : tensors) {
                if (h.mem)
                    munmap(h.mem, h.len);
                h = HarnessTensor();
            }
        } else if (word == "t") {
            int slot, dtype;
            uint32_t nd;
            std::cin >> slot >> dtype >> nd;
            if (!std::cin || slot < 0 || slot >= HARNESS_SLOTS || nd < 1 || nd > 5)
                die("bad tensor line");
            uint32_t shapes[5], strides[5];
            for (uint32_t d = 0; d < nd; d++)
                std::cin >> shapes[d];
            for (uint32_t d = 0; d < nd; d++)
                std::cin >> strides[d];
            uint64_t start, elems, nbytes;
            std::string hex;
            std::cin >> start >> elems >> nbytes >> hex;
            if (!std::cin)
                die("bad tensor line");
            HarnessTensor &h = tensors[slot];
            uint64_t esize = get_element_size(static_cast<DataType>(dtype));
            h.len = elems * esize ? elems * esize : 1;
            // untouched pages cost nothing: a KV cache view of gigabytes maps lazily
            h.mem = mmap(nullptr, h.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (h.mem == MAP_FAILED)
                die("cannot map a tensor's buffer");
            h.t = make_tensor_strided(h.mem, shapes, strides, nd, static_cast<DataType>(dtype));
            h.t.start_offset = start;
            h.t.buffer.size = elems * esize;
            if (hex != "-")
                fill(h, hex, esize);
            harness_args[slot] = reinterpret_cast<int64_t>(&h.t);
        } else if (word == "b") {
            std::cin >> harness_local.block_idx >> harness_local.block_num;
            if (!std::cin || harness_local.block_num < 1 || harness_local.block_idx < 0 ||
                harness_local.block_idx >= harness_local.block_num)
                die("bad block line");
        } else if (word == "s") {
            int slot;
            uint64_t v;
            std::cin >> slot >> v;
            if (!std::cin || slot < 0 || slot >= HARNESS_SLOTS)
                die("bad scalar line");
            harness_args[slot] = static_cast<int64_t>(v);
        } else if (word == "go") {
            std::string dir = std::string(argv[2]) + "/" + id;
            if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
                die("cannot make a signature's output folder");
            ::pto::perf_sim::GetConfig().output_dir = dir;
            LAUNCH_KERNEL(ptosim_block, , (1, nullptr, nullptr));
            uint64_t instr = 0, sync = 0, gm[3] = {0, 0, 0};
            using ::pto::perf_sim::PipeStage;
            for (const auto &core : ::pto::perf_sim::PtoRecorder::AllCoreRecords())
                for (const auto &r : core) {
                    instr++;
                    uint64_t bytes = (uint64_t)r.rows * (uint64_t)r.cols * bits_of(r.dtype) / 8;
                    bool load = r.opcode.rfind("TLOAD", 0) == 0, store = r.opcode.rfind("TSTORE", 0) == 0;
                    if (load && (r.stage == PipeStage::MTE2_AIC || r.stage == PipeStage::MTE2_AIV))
                        gm[0] += bytes;
                    else if (store && r.stage == PipeStage::MTE3)
                        gm[1] += bytes;
                    else if (store && r.stage == PipeStage::Fixpipe)
                        gm[2] += bytes;
                }
            for (const auto &core : ::pto::perf_sim::SyncRecorder::AllCoreRecords())
                sync += core.size();
            std::vector<uint64_t> v;
#if defined(__DAV_CUBE__)
            const char *unit = "AIC";
#else
            const char *unit = "AIV0";
#endif
            if (!read_summary(dir + "/ptosim_block_pipeline_summary.csv", unit, v))
                die("Perf-Sim wrote no pipeline summary");
            // total scalar mte2 mte1 cube fixp vec mte3; MTE2 is the unit's own
            std::fprintf(res, "r %s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n", id.c_str(),
                         (unsigned long long)v[0], (unsigned long long)instr, (unsigned long long)sync,
                         (unsigned long long)v[1], (unsigned long long)(v[2] + v[3]), (unsigned long long)v[4],
                         (unsigned long long)v[5], (unsigned long long)v[6], (unsigned long long)v[7],
                         (unsigned long long)v[8], (unsigned long long)gm[0], (unsigned long long)gm[1],
                         (unsigned long long)gm[2]);
            std::fflush(res);
        } else {
            die("unknown spec line");
        }
    }
    if (std::fclose(res) != 0)
        die("cannot write the results file");
    return 0;
}
