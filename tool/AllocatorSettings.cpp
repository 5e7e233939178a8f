//===- AllocatorSettings.cpp - jemalloc's settings for coalesce-lint ------===//
//
// Linked only when the program is linked with jemalloc (CMakeLists.txt,
// COALESCE_JEMALLOC). jemalloc reads the global malloc_conf when it starts,
// before the MALLOC_CONF environment variable, which can override it.
//
// Transparent huge pages for its memory: clang's AST and the analysis touch
// a few hundred MiB of heap scattered over many small objects, and 2 MiB
// pages cut the page faults and TLB misses of a run (SHOC's QTC.cu: 14.7k to
// 4.7k page faults, 1.16 s to 0.99 s; cuda-samples' reduction_kernel.cu
// 1.86 s to 1.35 s) for 10-20% more resident memory. Where the kernel's THP
// setting is "never" this changes nothing; MALLOC_CONF=thp:default turns it
// off.
//
//===----------------------------------------------------------------------===//

extern "C" {
/// jemalloc's compiled-in options (its documented hook; a constant).
extern const char *const malloc_conf;
const char *const malloc_conf = "thp:always,metadata_thp:always";
}
