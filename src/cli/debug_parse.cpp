// `tfsift debug parse FILE...`: prints the parse dump of HCL native-syntax
// files. Exit 1 when a dump holds errors, 2 when a file cannot be read.
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/exit_status.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/dump.hpp"
#include "tfsift/source.hpp"

namespace tfsift::cli {

int run_debug_parse(const std::vector<std::string>& files) {
    int status = exit_clean;
    for (const std::string& path : files) {
        FileContent failure;
        std::shared_ptr<const SourceFile> source = read_source_file(path, ReadPolicy{}, failure);
        if (!source) {
            fmt::print(stderr, "tfsift: cannot read {}\n", failure.message);
            status = exit_failure;
            continue;
        }
        hcl::File file = hcl::parse(source);
        if (file.has_errors() && status == exit_clean) status = exit_findings;
        std::string dump = hcl::dump_file_text(file, files.size() == 1);
        if (files.size() == 1) {
            fmt::print("{}\n", dump);
        } else {
            // {"path": ARG, "dump": DUMP} on one line, as the expected .jsonl files hold them.
            std::string quoted_path =
                nlohmann::json(path).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            fmt::print("{{\"path\": {}, \"dump\": {}}}\n", quoted_path, dump);
        }
    }
    return status;
}

}  // namespace tfsift::cli
