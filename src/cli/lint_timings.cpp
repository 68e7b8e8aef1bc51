#include "cli/lint_timings.hpp"

#include <fmt/core.h>
#include <sys/resource.h>

#include <cstdio>

namespace tfsift::cli {

namespace {

double seconds_of(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

}  // namespace

void print_lint_timings(const lint::SessionTimes& times, const LintTimings& command) {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - command.started).count();
    struct rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    const double user = seconds_of(usage.ru_utime);
    const double system = seconds_of(usage.ru_stime);
    const double rss_mb = static_cast<double>(usage.ru_maxrss) * 1024.0 / 1e6;
    std::string out;
    out += "timings (seconds; load and rules are summed over the jobs that ran them)\n";
    out += fmt::format("  command    wall {:.3f}, processor {:.3f} (user {:.3f}, system {:.3f}), peak RSS {:.1f} MB\n",
                       wall, user + system, user, system, rss_mb);
    out += fmt::format("  targets    {:.3f} (of which module roles {:.3f})\n", times.targets, times.roles);
    out += fmt::format("  load       {:.3f} (read {:.3f}, parse {:.3f}, decode {:.3f}, merge {:.3f})\n", times.load,
                       times.read, times.parse, times.decode, times.merge);
    out += fmt::format("  rules      {:.3f}\n", times.rules);
    if (times.fix > 0) out += fmt::format("  fixes      {:.3f}\n", times.fix);
    out += fmt::format("  report     {:.3f}\n", command.report);
    out += fmt::format(
        "  files      {} linted; read {} times by the loaders ({:.1f} MB), {} by the module-role scan "
        "({:.1f} MB)\n",
        command.files_linted, times.files_read, static_cast<double>(times.bytes_read) / 1e6, times.role_scan_files_read,
        static_cast<double>(times.role_scan_bytes_read) / 1e6);
    out += fmt::format("  modules    {} directories loaded, {} times one was shared instead\n", times.modules_loaded,
                       times.modules_reused);
    std::fputs(out.c_str(), stderr);
}

}  // namespace tfsift::cli
