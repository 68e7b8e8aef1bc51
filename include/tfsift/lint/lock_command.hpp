// `tfsift lock`: recording the providers a root module requires in its
// .terraform.lock.hcl, like `terraform providers lock`. The library half of
// the command: the front end maps its flags to a LockCommandRequest and
// prints what comes back; reading the settings, loading the configuration,
// collecting its requirements and repairing the lock file happen here.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"
#include "tfsift/lint/rule.hpp"
#include "tfsift/providers/lock_repair.hpp"

namespace tfsift::lint {

struct LockCommandRequest {
    std::span<const Rule> catalogue;     // for reading the settings file (lint::builtin_rules())
    std::string dir = ".";               // the root module
    std::vector<std::string> platforms;  // OS_ARCH names; none: this platform
    std::string fs_mirror;               // take packages only from this filesystem mirror
    std::string net_mirror;              // take packages only from this network mirror (https URL)
    std::vector<std::string> providers;  // lock only these provider source addresses; none: all required
    bool offline = false;                // only packages already on disk; open no connection
    bool enable_plugin_cache = false;    // also unpack fetched packages into the plugin cache
    std::string cache_dir;               // download cache (providers and modules); empty: the default one
    unsigned jobs = 0;                   // packages fetched at once; 0: the default
    std::string max_package_size;        // "2GiB", "512MiB", bytes...; empty: the default
    bool quiet = false;                  // no progress lines
    bool progress_bar = false;           // draw a progress bar on standard error while fetching
    std::optional<Engine> engine;        // none: the settings', else detected
    // Receives every line to show the user (errors, what changed, progress), in order.
    std::function<void(const std::string& line)> say;
    // Called with true before packages are fetched over the network and with
    // false afterwards (a front end may let Ctrl-C cancel the transfers then).
    std::function<void(bool fetching)> on_fetching;
};

enum class LockCommandOutcome : std::uint8_t {
    done,    // the lock file records every required provider
    failed,  // bad input, or something could not be read, fetched, repaired or written: see the lines said
};

struct LockCommandResult {
    LockCommandOutcome outcome = LockCommandOutcome::failed;
    // What the repair did (the offline repair, or the online one's update);
    // none when the command stopped before repairing.
    std::optional<providers::LockUpdate> update;
};

// Runs `tfsift lock`. Never throws for bad input: it is said and fails the command.
LockCommandResult run_lock_command(const LockCommandRequest& request);

// "1048576", "512KiB", "1MiB", "2GiB" (also KB/MB/GB and K/M/G as powers of
// 1024); none for anything else, zero, or more than 2^62 bytes.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

}  // namespace tfsift::lint
