// `tfsift debug parse FILE...`: prints the parse dump of HCL native-syntax files.
#include <cstdio>
#include <exception>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/dump.hpp"
#include "tfsift/source.hpp"

namespace tfsift::cli {

int run_debug_parse(const std::vector<std::string>& files) {
    int status = 0;
    for (const std::string& path : files) {
        std::shared_ptr<const SourceFile> source;
        try {
            source = SourceFile::read(path);
        } catch (const std::system_error& e) {
            fmt::print(stderr, "tfsift: cannot read {}: {}\n", path, e.code().message());
            status = 2;
            continue;
        }
        hcl::File file = hcl::parse(source);
        std::string dump = hcl::dump_file_text(file, files.size() == 1);
        if (files.size() == 1) {
            fmt::print("{}\n", dump);
        } else {
            // {"path": ARG, "dump": DUMP} on one line, as the expected .jsonl files hold them.
            std::string quoted_path = nlohmann::json(path).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            fmt::print("{{\"path\": {}, \"dump\": {}}}\n", quoted_path, dump);
        }
    }
    return status;
}

}  // namespace tfsift::cli
