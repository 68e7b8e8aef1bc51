// `tfsift fetch`: its flags, and the lines the library says printed on
// standard error (tfsift/lint/fetch_command.hpp does the work).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/enum_names.hpp"
#include "tfsift/lint/fetch_command.hpp"

namespace tfsift::cli {

void add_fetch_options(CLI::App& cmd, FetchOptions& o) {
    cmd.add_option("dirs", o.dirs, "Root module directories (default: .)");
    cmd.add_option("--cache-dir", o.cache_dir,
                   "Cache directory; modules go in its .tfsift-modules (default: TFSIFT_CACHE_DIR, else "
                   "$XDG_CACHE_HOME/tfsift/modules)");
    cmd.add_flag("--offline", o.offline, "Only report what the module cache holds; open no network connection");
    cmd.add_flag("--quiet", o.quiet, "Print only problems and the summary line");
    cmd.add_option("--engine", o.engine, "terraform or opentofu (default: terraform)")
        ->check(CLI::IsMember({"terraform", "opentofu"}));
}

int run_fetch(const FetchOptions& o) {
    lint::FetchCommandRequest request;
    request.dirs = o.dirs;
    request.cache_dir = o.cache_dir;
    request.offline = o.offline || offline_forced();
    request.quiet = o.quiet;
    request.engine = parse_engine(o.engine);
    request.say = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
    const auto result = lint::run_fetch_command(request);
    return result.ok ? exit_clean : exit_failure;
}

}  // namespace tfsift::cli
