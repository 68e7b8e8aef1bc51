// jemalloc's settings for the tfsift binary, read when the allocator starts
// (its `malloc_conf`; the MALLOC_CONF environment variable still overrides
// them). A lint allocates and frees millions of small objects on each
// worker thread. Each thread's cache of freed objects keeps more of each
// small size (up to 1,000 rather than 200, and twice the default share of
// a slab) and is trimmed after 1 MiB of allocations rather than 64 KiB, so
// fewer objects make the trip back to the shared arenas and out again: on
// a lint of the corpus, 1.6 % fewer instructions for 1 to 2 MB more peak
// memory (docs/benchmarks.md). A build without jemalloc
// (-DTFSIFT_JEMALLOC=OFF, the sanitizers) ignores the variable.

extern "C" {
// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): the allocator's interface
const char* malloc_conf = "tcache_gc_incr_bytes:1048576,tcache_nslots_small_max:1000,lg_tcache_nslots_mul:2";
}
