// What the module loaders of this process have done so far, summed over
// threads: files read, and the time spent reading, parsing, decoding and
// merging. A lint session takes the difference over its run to say where
// its time went (lint/session.hpp, bench/lint_bench.cpp).
#pragma once

#include <atomic>
#include <cstdint>

namespace tfsift::config {

struct LoadCounters {
    std::atomic<std::uint64_t> modules_loaded{0};  // module directories read, parsed, decoded and merged
    std::atomic<std::uint64_t> modules_reused{0};  // taken loaded from another tree or caller instead
    std::atomic<std::uint64_t> files_read{0};      // configuration, test, query, mock and migration files read
    std::atomic<std::uint64_t> bytes_read{0};
    std::atomic<std::uint64_t> read_ns{0};
    std::atomic<std::uint64_t> parse_ns{0};
    std::atomic<std::uint64_t> decode_ns{0};
    std::atomic<std::uint64_t> merge_ns{0};  // merging a module's files and its own checks
    // Configuration files the module-role scans read (lint/module_roles.hpp)
    // to find every local module call of a repository, and their bytes.
    std::atomic<std::uint64_t> role_scan_files_read{0};
    std::atomic<std::uint64_t> role_scan_bytes_read{0};
};

// The counters of this process.
LoadCounters& load_counters();

}  // namespace tfsift::config
