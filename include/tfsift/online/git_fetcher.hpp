// git module sources through the user's own `git` binary, as Terraform's
// go-getter does, so that their git configuration, credential helpers and
// SSH agent keep working, but fenced: git never prompts
// (GIT_TERMINAL_PROMPT=0, SSH in batch mode, no askpass programs), no hook
// or fsmonitor command runs (core.hooksPath=/dev/null, an empty clone
// template), only the https, ssh, git and file transports are allowed
// (GIT_ALLOW_PROTOCOL; never ext::), and every git call is killed with its
// process group when it outlives the time bound.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/providers/package_sources.hpp"

namespace tfsift::online {

struct GitSettings {
    std::string git = "git";                 // looked up on PATH
    std::chrono::seconds timeout{300};       // per git call (TFSIFT_GIT_TIMEOUT)
    std::vector<std::string> environment;    // "NAME=value" for git; see git_environment()
};

// The settings from the process environment: TFSIFT_GIT_TIMEOUT (seconds; an
// invalid value is named in `warning` and the default kept) and the fenced
// environment git runs with.
[[nodiscard]] GitSettings git_settings_from(const providers::Environment& env, std::string& warning);

// `base` (this process's "NAME=value" list) with the fences added: prompts
// off, askpass programs removed, BatchMode SSH unless the user set
// GIT_SSH_COMMAND or GIT_SSH themselves (then theirs is kept and BatchMode
// is added to GIT_SSH_COMMAND), GIT_ALLOW_PROTOCOL=https:ssh:git:file.
[[nodiscard]] std::vector<std::string> git_environment(const std::vector<std::string>& base);

// The commit `ref` names on the remote (`git ls-remote`): a tag (peeled), a
// branch, a full ref name, or HEAD when `ref` is empty. A full hexadecimal
// commit ID is returned as it is, and so is (with `unresolved` set) a short
// one the remote does not advertise, for clone_at to check out.
struct GitRef {
    std::string commit;
    bool unresolved = false;
    std::string error;  // "git ref \"v9\" not found in REPO", or git's own (redacted) reason
    [[nodiscard]] bool ok() const { return error.empty(); }
};
[[nodiscard]] GitRef resolve_git_ref(const GitSettings& settings, const std::string& url, const std::string& ref);

// Clones `url` into `target` (which must not exist) and checks out `ref`
// (with `depth`, a shallow clone of that branch or tag), initialises
// submodules when there are any, records the commit checked out and removes
// the .git directories.
struct GitClone {
    std::string commit;
    std::string error;
    [[nodiscard]] bool ok() const { return error.empty(); }
};
[[nodiscard]] GitClone clone_git_package(const GitSettings& settings, const std::string& url, const std::string& ref,
                                         std::optional<unsigned> depth, const std::filesystem::path& target);

// Replaces the user information of every URL in `text` ("https://u:p@h/"
// becomes "https://REDACTED@h/"), for messages that quote git or a URL.
[[nodiscard]] std::string redact_url_credentials(std::string text);

}  // namespace tfsift::online
