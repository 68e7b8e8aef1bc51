// `tfsift server`: the Language Server Protocol over a byte stream (the
// CLI gives it stdin and stdout). Documents the editor opens are linted
// with their unsaved text: the module directory of a changed document is
// linted through the lint session (lint/session.hpp) with every open
// buffer overlaying its file, and diagnostics are published for every file
// of that module. Work is debounced, and a result that a newer change has
// made stale is dropped rather than published. Each module's last result is
// kept for code actions and hover, and its parsed files for the next lint
// (config/load_cache.hpp), which parses only the files that changed. Which
// modules are called by others (lint/module_roles.hpp) is kept for the
// server's life and read again where files change.
//
// Nothing the client sends ends the server but `exit` or the end of the
// stream: a malformed frame, bad JSON, an unknown method or an exception in
// one lint become a `window/logMessage` (and an error response when the
// message was a request). The server never writes a file: fixes reach the
// editor as WorkspaceEdits it may apply.
#pragma once

#include <chrono>
#include <istream>
#include <ostream>

#include "tfsift/lint/rule.hpp"

namespace tfsift::server {

struct ServerOptions {
    // How long after the last change of a module it is linted.
    std::chrono::milliseconds debounce{150};
    // Modules loaded at once within one lint (LintRequest::jobs).
    unsigned jobs = 1;
    // Where rule documentation is published (diagnostics' codeDescription);
    // no home page, no links.
    lint::ProjectLinks links;
};

// Serves one client until `exit` or the end of `in`. Returns the exit code
// the protocol asks for: 0 when `shutdown` came before `exit`, else 1.
int run_language_server(std::istream& in, std::ostream& out, const ServerOptions& options = {});

}  // namespace tfsift::server
