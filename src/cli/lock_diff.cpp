// `tfsift lock diff`: its flags, and the review printed in the format asked
// for (tfsift/lint/lock_review.hpp does the work, docs/lock-review.md tells
// the user).
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string_view>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "cli/project_links.hpp"
#include "tfsift/atomic_write.hpp"
#include "tfsift/enum_names.hpp"
#include "tfsift/lint/lock_review.hpp"
#include "tfsift/net/http_client.hpp"
#include "tfsift/report/lock_review_report.hpp"
#include "tfsift/report/report.hpp"
#include "tfsift/rules/catalogue.hpp"
#include "tfsift/rules/review_catalogue.hpp"

namespace fs = std::filesystem;

namespace tfsift::cli {

namespace {

extern "C" void on_review_interrupt(int /*signal*/) { net::request_cancel(); }

constexpr std::string_view kFormats = "text, markdown, json, sarif, github";

bool known_format(std::string_view name) {
    return name == "text" || name == "markdown" || name == "json" || name == "sarif" || name == "github";
}

std::string render(std::string_view format, const lint::LockReview& review, const std::string& base, bool color,
                   const std::vector<lint::Rule>& rules, const lint::Findings& findings, int exit_code) {
    std::ostringstream buf;
    const report::LockReviewReportInput input{review, base, color};
    if (format == "text") {
        report::write_lock_review_text(input, buf);
    } else if (format == "markdown") {
        report::write_lock_review_markdown(input, buf);
    } else if (format == "json") {
        report::write_lock_review_json(input, buf);
    } else {
        const std::string cwd = fs::current_path().generic_string();
        report::ReportInput ri{findings, rules};
        ri.repository_root = report::report_root({cwd});
        ri.working_dir = cwd;
        ri.files_scanned = review.files.size();
        ri.exit_code = exit_code;
        ri.trusted_roots = {ri.repository_root};
        ri.links = project_links();
        report::write_report(format == "sarif" ? report::Format::sarif : report::Format::github, ri, buf);
    }
    return std::move(buf).str();
}

bool use_color(const std::string& mode) {
    if (mode == "always") return true;
    if (mode == "never") return false;
    const char* no_color = std::getenv("NO_COLOR");
    if (no_color != nullptr && *no_color != '\0') return false;
    return isatty(STDOUT_FILENO) != 0;
}

}  // namespace

void add_lock_diff_options(CLI::App& cmd, LockDiffOptions& o) {
    cmd.add_option("paths", o.paths, "Directories to search for lock files, or lock files (default: .)");
    auto* base = cmd.add_option("--base", o.base, "The git revision to compare with (read with git show)");
    cmd.add_option("--base-file", o.base_file, "Compare one lock file with this older copy (no git)")->excludes(base);
    cmd.add_flag("--offline", o.offline, "Show the changes without verifying any hash; open no network connection");
    cmd.add_option("--format,-f", o.format, "Output format: text, markdown, json, sarif or github")
        ->check(CLI::IsMember({"text", "markdown", "json", "sarif", "github"}))
        ->each([&o](const std::string&) { o.format_given = true; });
    cmd.add_option("--output,-o", o.outputs, "Also write the review to a file, as FORMAT:PATH (repeatable)");
    cmd.add_option("--jobs", o.jobs, "Provider versions verified at once (default: 8)")->check(CLI::Range(1U, 64U));
    cmd.add_option("--cache-dir", o.cache_dir,
                   "Download cache (default: TFSIFT_CACHE_DIR, else $XDG_CACHE_HOME/tfsift/providers)");
    cmd.add_option("--engine", o.engine, "terraform or opentofu (default: from the lock file's header)")
        ->check(CLI::IsMember({"terraform", "opentofu"}));
    cmd.add_option("--color", o.color, "Colour the text output: auto, always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
}

int run_lock_diff(const LockDiffOptions& o) {
    if (o.base.empty() && o.base_file.empty()) {
        fmt::print(stderr, "tfsift: lock diff needs --base REF or --base-file OLD\n");
        return exit_failure;
    }
    struct Output {
        std::string format;
        std::string path;
    };
    std::vector<Output> outputs;
    for (const auto& spec : o.outputs) {
        const auto colon = spec.find(':');
        if (colon == std::string::npos || colon + 1 >= spec.size() || !known_format(spec.substr(0, colon))) {
            fmt::print(stderr, "tfsift: --output takes FORMAT:PATH with FORMAT one of {} (got \"{}\")\n", kFormats,
                       report::escape_control_characters(spec));
            return exit_failure;
        }
        outputs.push_back({spec.substr(0, colon), spec.substr(colon + 1)});
    }
    lint::LockReviewRequest request;
    request.rules = lint::builtin_review_rules();
    request.catalogue = lint::builtin_rules();
    request.paths = o.paths;
    request.base_ref = o.base;
    request.base_file = o.base_file;
    request.offline = o.offline || offline_forced();
    if (!o.engine.empty()) request.engine = parse_engine(o.engine);
    request.jobs = o.jobs;
    request.cache_dir = o.cache_dir;

    // Ctrl-C stops the transfers; nothing is written but the reports.
    const auto previous = std::signal(SIGINT, &on_review_interrupt);
    const auto previous_term = std::signal(SIGTERM, &on_review_interrupt);
    const lint::LockReview review = lint::review_lock_changes(request);
    std::signal(SIGINT, previous);
    std::signal(SIGTERM, previous_term);

    const lint::Findings findings = review.findings();
    int exit_code = exit_clean;
    for (const auto& f : findings) {
        if (f.severity == Severity::error) exit_code = exit_findings;
    }
    if (!review.errors.empty()) exit_code = exit_failure;
    const std::string base = o.base_file.empty() ? o.base : o.base_file;
    const auto catalogue = lint::builtin_rules();
    const std::vector<lint::Rule> rules(catalogue.begin(), catalogue.end());

    for (const auto& out : outputs) {
        const std::string text = render(out.format, review, base, false, rules, findings, exit_code);
        auto written = atomic_write_file(out.path, text);
        if (!written.ok()) {
            fmt::print(stderr, "tfsift: cannot write {}: {}\n", report::escape_control_characters(out.path),
                       written.error);
            return exit_failure;
        }
    }
    if (outputs.empty() || o.format_given) {
        const std::string text =
            render(o.format, review, base, o.format == "text" && use_color(o.color), rules, findings, exit_code);
        if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
            return finish_standard_output(exit_failure, errno);
        }
    }
    for (const auto& e : review.errors) fmt::print(stderr, "tfsift: {}\n", report::escape_control_characters(e));
    if (request.offline) {
        fmt::print(stderr, "tfsift: offline: the lock-file changes were not verified against any registry\n");
    }
    return finish_standard_output(exit_code);
}

}  // namespace tfsift::cli
