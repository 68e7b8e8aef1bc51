// `tfsift init`: write a first .tfsift.toml, optionally made from TFLint's
// settings (docs/migrating-from-tflint.md).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <filesystem>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/atomic_write.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/tflint_import.hpp"
#include "tfsift/report/report.hpp"

namespace tfsift::cli {

void add_init_options(CLI::App& cmd, InitOptions& o) {
    cmd.add_option("--from-tflint", o.from_tflint, "Import rule choices from this TFLint file (e.g. .tflint.hcl)");
    cmd.add_option("--output,-o", o.output, "The settings file to write")->capture_default_str();
    cmd.add_flag("--force", o.force, "Replace the settings file when it exists");
}

int run_init(const InitOptions& options) {
    std::error_code ec;
    if (!options.force && std::filesystem::exists(std::filesystem::symlink_status(options.output, ec))) {
        fmt::print(stderr, "tfsift: {} exists; not replaced (use --force)\n",
                   report::escape_control_characters(options.output));
        return exit_failure;
    }
    std::string text =
        "# tfsift settings: docs/configuration.md\n"
        "# preset = \"strict\"   # also the opinionated rules\n"
        "\n[rules]\n";
    if (!options.from_tflint.empty()) {
        const FileContent content = read_regular_file(options.from_tflint, ReadPolicy{});
        if (!content.ok()) {
            fmt::print(stderr, "tfsift: cannot read {}\n", report::escape_control_characters(content.message));
            return exit_failure;
        }
        const lint::TflintImport imported = lint::import_tflint_config(options.from_tflint, content.bytes);
        if (!imported.ok()) {
            fmt::print(stderr, "{}:{}\n", report::escape_control_characters(options.from_tflint),
                       report::escape_control_characters(imported.error));
            return exit_failure;
        }
        for (const auto& note : imported.notes) {
            fmt::print(stderr, "{}:{}\n", report::escape_control_characters(options.from_tflint),
                       report::escape_control_characters(note));
        }
        text = imported.toml;
    }
    auto written = atomic_write_file(options.output, text);
    if (!written.ok()) {
        fmt::print(stderr, "tfsift: cannot write {}: {}\n", report::escape_control_characters(options.output),
                   written.error);
        return exit_failure;
    }
    fmt::print(stderr, "Wrote {}\n", report::escape_control_characters(options.output));
    return exit_clean;
}

}  // namespace tfsift::cli
