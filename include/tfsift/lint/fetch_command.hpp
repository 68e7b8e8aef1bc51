// `tfsift fetch [DIR...]`: fills tfsift's module cache with every remote
// module call of each root module, the way `terraform get` fills
// .terraform/modules, so that later offline runs (`lint`, the language
// server, CI jobs restoring a cached directory) see the whole module tree.
// The library half of the command: the front end maps its flags to a
// FetchCommandRequest and prints the lines said.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/engine.hpp"

namespace tfsift::lint {

struct FetchCommandRequest {
    std::vector<std::string> dirs;  // root modules; none: "."
    std::string cache_dir;          // --cache-dir; empty: the default module cache
    std::optional<Engine> engine;   // none: terraform
    bool offline = false;           // only report what the cache holds; open no connection
    bool quiet = false;             // no line per module, only problems and the summary
    // Receives every line to show the user, in order.
    std::function<void(const std::string& line)> say;
};

struct FetchCommandResult {
    std::uint64_t modules = 0;      // remote calls answered (installed, cached or fetched)
    std::uint64_t fetched = 0;      // of them, fetched by this run
    std::uint64_t unsupported = 0;  // calls of sources tfsift does not fetch (a notice each)
    std::uint64_t failed = 0;       // calls that could not be fetched (an error each)
    bool ok = false;                // every root was read and no call failed
};

// Runs `tfsift fetch`. Never throws for bad input: it is said and fails the command.
FetchCommandResult run_fetch_command(const FetchCommandRequest& request);

}  // namespace tfsift::lint
