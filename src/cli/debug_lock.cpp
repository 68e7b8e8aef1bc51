// `tfsift debug lock FILE`: reads a dependency lock file as Terraform would,
// prints each diagnostic to stderr as `FILE:LINE:COL: severity: summary:
// detail` and the file as tfsift would write it (SaveLocksToBytes layout) to
// stdout. Exit status 1 when there are errors, 2 when the file cannot be read.
#include <fmt/core.h>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/enum_names.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/providers/lock_file.hpp"

namespace tfsift::cli {

int run_debug_lock(const std::string& file, const std::string& engine_name) {
    FileContent content = read_regular_file(file, ReadPolicy{});
    if (!content.ok()) {
        fmt::print(stderr, "tfsift: cannot read {}\n", content.message);
        return exit_failure;
    }
    // The engine: as asked, else as the header says (spec 1.7), else Terraform.
    providers::Engine engine = providers::Engine::terraform;
    if (auto asked = parse_engine(engine_name)) {
        engine = *asked;
    } else if (engine_name.empty()) {
        std::string_view first_line(content.bytes);
        first_line = first_line.substr(0, first_line.find('\n'));
        engine = providers::engine_of_lock_header(first_line).value_or(providers::Engine::terraform);
    }
    providers::LockReadOptions options;
    options.engine = engine;
    const auto read = providers::read_lock_file(std::make_shared<const SourceFile>(file, content.bytes), options);
    for (const auto& d : read.diagnostics) {
        std::string where = d.filename.empty() ? file : d.filename;
        if (d.subject && read.source) {
            const auto pos = read.source->resolve(d.subject->start);
            where += fmt::format(":{}:{}", pos.line, pos.column);
        }
        fmt::print(stderr, "{}: {}: {}: {}\n", where, to_string(d.severity), d.summary, d.detail);
    }
    fmt::print("{}", providers::write_lock_file(read.locks, engine));
    return read.has_errors() ? exit_findings : exit_clean;
}

}  // namespace tfsift::cli
