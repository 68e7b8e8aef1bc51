// `tfsift server`: the language server on standard input and output
// (tfsift/server/language_server.hpp). Flags only; the protocol lives in
// the library.
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/project_links.hpp"
#include "tfsift/server/language_server.hpp"

namespace tfsift::cli {

void add_server_options(CLI::App& cmd, ServerOptions& options) {
    cmd.add_flag("--stdio", options.stdio, "Talk over standard input and output (the default and only transport)");
    cmd.add_option("--debounce", options.debounce_ms,
                   "Milliseconds to wait after a change before linting its module (default 150)")
        ->check(CLI::Range(0, 60000));
}

int run_server(const ServerOptions& options) {
    server::ServerOptions server_options;
    server_options.debounce = std::chrono::milliseconds(options.debounce_ms);
    server_options.links = project_links();
    // Messages are framed by byte counts: no translation, no tie between
    // the streams (the reader must not flush the writer's half-built frame).
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    return server::run_language_server(std::cin, std::cout, server_options);
}

}  // namespace tfsift::cli
