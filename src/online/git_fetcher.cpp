// Running the system git for module packages, fenced and time-bounded.
#include "tfsift/online/git_fetcher.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>

#include <fmt/format.h>

extern char** environ;

namespace tfsift::online {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxOutput = std::size_t{4} << 20;

struct GitRun {
    int status = -1;  // exit code; -1: did not run or was killed
    bool timed_out = false;
    bool spawn_failed = false;
    std::string out;
    std::string err;
};

// The fixed options every git call gets: no hooks, no fsmonitor, no ext::
// even where GIT_ALLOW_PROTOCOL is ignored, stall detection on HTTP.
std::vector<std::string> fenced_args(const GitSettings& settings, const std::vector<std::string>& args) {
    std::vector<std::string> argv{settings.git,
                                  "-c", "core.hooksPath=/dev/null",
                                  "-c", "core.fsmonitor=false",
                                  "-c", "protocol.ext.allow=never",
                                  "-c", "http.lowSpeedLimit=1",
                                  "-c", fmt::format("http.lowSpeedTime={}", std::max<long>(settings.timeout.count(), 1))};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

GitRun run_git(const GitSettings& settings, const std::vector<std::string>& args, const fs::path& cwd = {}) {
    GitRun run;
    int out[2];
    int err[2];
    if (pipe2(out, O_CLOEXEC) != 0) return run;
    if (pipe2(err, O_CLOEXEC) != 0) {
        close(out[0]);
        close(out[1]);
        return run;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // Its own process group, so that a timeout also ends ssh and the
    // remote helpers git started.
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);

    auto words = fenced_args(settings, args);
    std::vector<char*> argv;
    argv.reserve(words.size() + 1);
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_words = settings.environment;
    std::vector<char*> envp;
    envp.reserve(env_words.size() + 1);
    for (auto& e : env_words) envp.push_back(e.data());
    envp.push_back(nullptr);

    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, settings.git.c_str(), &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(out[1]);
    close(err[1]);
    if (rc != 0) {
        close(out[0]);
        close(err[0]);
        run.spawn_failed = true;
        return run;
    }
    const auto deadline = std::chrono::steady_clock::now() + settings.timeout;
    std::array<pollfd, 2> fds{pollfd{out[0], POLLIN, 0}, pollfd{err[0], POLLIN, 0}};
    int open_fds = 2;
    std::array<char, 8192> chunk{};
    while (open_fds > 0) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            run.timed_out = true;
            break;
        }
        const int ready = poll(fds.data(), fds.size(), static_cast<int>(std::min<long>(left.count(), 1000)));
        if (ready < 0 && errno != EINTR) break;
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
            const auto n = read(fds[i].fd, chunk.data(), chunk.size());
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
                continue;
            }
            std::string& sink = i == 0 ? run.out : run.err;
            if (sink.size() < kMaxOutput) sink.append(chunk.data(), static_cast<std::size_t>(n));
        }
    }
    for (auto& p : fds) {
        if (p.fd >= 0) close(p.fd);
    }
    if (run.timed_out) kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!run.timed_out && WIFEXITED(status)) run.status = WEXITSTATUS(status);
    return run;
}

bool is_hex(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    });
}

bool is_full_commit(std::string_view s) { return (s.size() == 40 || s.size() == 64) && is_hex(s); }

// git's last meaningful stderr line, redacted.
std::string git_reason(const GitRun& run, const GitSettings& settings) {
    if (run.spawn_failed) return fmt::format("cannot run \"{}\" (is git installed and on PATH?)", settings.git);
    if (run.timed_out) {
        return fmt::format("git did not finish within {} seconds (a stalled server?)", settings.timeout.count());
    }
    std::string text = run.err;
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (!line.empty() && !line.starts_with("hint:") && !line.starts_with("Cloning into")) lines.push_back(line);
        start = end + 1;
    }
    std::string reason;
    for (const auto& line : lines) {
        if (line.starts_with("fatal:") || line.starts_with("error:")) {
            reason = line;
            break;
        }
    }
    if (reason.empty() && !lines.empty()) reason = lines.back();
    if (reason.empty()) reason = fmt::format("git exited with status {}", run.status);
    if (reason.size() > 400) reason.resize(400);
    return redact_url_credentials(reason);
}

bool starts_with_name(std::string_view entry, std::string_view name) {
    return entry.size() > name.size() && entry.substr(0, name.size()) == name && entry[name.size()] == '=';
}

}  // namespace

std::string redact_url_credentials(std::string text) {
    std::size_t pos = 0;
    while ((pos = text.find("://", pos)) != std::string::npos) {
        const std::size_t start = pos + 3;
        std::size_t end = start;
        while (end < text.size() && text[end] != '/' && text[end] != ' ' && text[end] != '\'' && text[end] != '"' &&
               text[end] != '\n') {
            ++end;
        }
        const auto at = text.rfind('@', end == 0 ? 0 : end - 1);
        if (at != std::string::npos && at >= start && at < end) {
            text.replace(start, at - start, "REDACTED");
            end = start + 8 + (end - at);
        }
        pos = end;
    }
    return text;
}

std::vector<std::string> git_environment(const std::vector<std::string>& base) {
    std::vector<std::string> env;
    std::string ssh_command;
    bool user_ssh = false;
    for (const auto& entry : base) {
        if (starts_with_name(entry, "GIT_TERMINAL_PROMPT") || starts_with_name(entry, "GIT_ASKPASS") ||
            starts_with_name(entry, "SSH_ASKPASS") || starts_with_name(entry, "SSH_ASKPASS_REQUIRE") ||
            starts_with_name(entry, "GIT_ALLOW_PROTOCOL") || starts_with_name(entry, "GIT_PROTOCOL_FROM_USER")) {
            continue;
        }
        if (starts_with_name(entry, "GIT_SSH_COMMAND")) {
            ssh_command = entry.substr(16);
            user_ssh = true;
            continue;
        }
        if (starts_with_name(entry, "GIT_SSH")) user_ssh = true;
        env.push_back(entry);
    }
    env.emplace_back("GIT_TERMINAL_PROMPT=0");
    env.emplace_back("SSH_ASKPASS_REQUIRE=never");
    env.emplace_back("GIT_ALLOW_PROTOCOL=https:ssh:git:file");
    if (!ssh_command.empty()) {
        env.push_back("GIT_SSH_COMMAND=" + ssh_command + " -o BatchMode=yes");
    } else if (!user_ssh) {
        env.emplace_back("GIT_SSH_COMMAND=ssh -o BatchMode=yes");
    }
    return env;
}

GitSettings git_settings_from(const providers::Environment& env, std::string& warning) {
    GitSettings settings;
    std::vector<std::string> base;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) base.emplace_back(*e);
    settings.environment = git_environment(base);
    if (auto value = env("TFSIFT_GIT_TIMEOUT"); value && !value->empty()) {
        const bool digits = value->size() < 7 && std::all_of(value->begin(), value->end(), [](char c) {
                                return c >= '0' && c <= '9';
                            });
        const long seconds = digits ? std::stol(*value) : 0;
        if (seconds > 0) {
            settings.timeout = std::chrono::seconds(seconds);
        } else {
            warning = fmt::format("TFSIFT_GIT_TIMEOUT=\"{}\" is not a positive number of seconds; using {}", *value,
                                  settings.timeout.count());
        }
    }
    return settings;
}

GitRef resolve_git_ref(const GitSettings& settings, const std::string& url, const std::string& ref) {
    GitRef out;
    if (is_full_commit(ref)) {
        out.commit = ref;
        return out;
    }
    const GitRun run = run_git(settings, {"ls-remote", "--", url});
    if (run.status != 0) {
        out.error = git_reason(run, settings);
        return out;
    }
    // "<sha>\t<refname>" lines
    std::string head;
    std::string found;
    int rank = 99;
    const std::array<std::string, 4> wanted{"refs/tags/" + ref + "^{}", "refs/tags/" + ref, "refs/heads/" + ref, ref};
    std::size_t start = 0;
    while (start < run.out.size()) {
        auto end = run.out.find('\n', start);
        if (end == std::string::npos) end = run.out.size();
        const std::string_view line(run.out.data() + start, end - start);
        start = end + 1;
        const auto tab = line.find('\t');
        if (tab == std::string_view::npos) continue;
        const std::string_view sha = line.substr(0, tab);
        const std::string_view name = line.substr(tab + 1);
        if (name == "HEAD") head = std::string(sha);
        if (ref.empty()) continue;
        for (int i = 0; i < static_cast<int>(wanted.size()); ++i) {
            if (name == wanted[static_cast<std::size_t>(i)] && i < rank) {
                rank = i;
                found = std::string(sha);
            }
        }
    }
    if (ref.empty()) {
        if (head.empty()) {
            out.error = fmt::format("the repository {} has no default branch (HEAD)", redact_url_credentials(url));
        }
        out.commit = head;
        return out;
    }
    if (!found.empty()) {
        out.commit = found;
        return out;
    }
    if (ref.size() >= 4 && ref.size() < 40 && is_hex(ref)) {
        out.commit = ref;
        out.unresolved = true;
        return out;
    }
    out.error = fmt::format("git ref \"{}\" not found in {}", ref, redact_url_credentials(url));
    return out;
}

GitClone clone_git_package(const GitSettings& settings, const std::string& url, const std::string& ref,
                           std::optional<unsigned> depth, const fs::path& target) {
    GitClone out;
    std::vector<std::string> args{"clone", "--quiet", "--template="};
    if (depth) {
        args.push_back(fmt::format("--depth={}", *depth));
        if (!ref.empty()) args.push_back("--branch=" + ref);
    }
    args.emplace_back("--");
    args.push_back(url);
    args.push_back(target.string());
    GitRun run = run_git(settings, args);
    if (run.status != 0) {
        out.error = git_reason(run, settings);
        return out;
    }
    if (!depth && !ref.empty()) {
        run = run_git(settings, {"-c", "advice.detachedHead=false", "checkout", "--quiet", ref, "--"}, target);
        if (run.status != 0) {
            out.error = fmt::format("git ref \"{}\" not found in {}: {}", ref, redact_url_credentials(url),
                                    git_reason(run, settings));
            return out;
        }
    }
    std::error_code ec;
    if (fs::exists(target / ".gitmodules", ec)) {
        run = run_git(settings, {"submodule", "update", "--init", "--recursive", "--quiet"}, target);
        if (run.status != 0) {
            out.error = fmt::format("git submodules of {}: {}", redact_url_credentials(url), git_reason(run, settings));
            return out;
        }
    }
    run = run_git(settings, {"rev-parse", "HEAD"}, target);
    if (run.status != 0) {
        out.error = git_reason(run, settings);
        return out;
    }
    out.commit = run.out.substr(0, run.out.find_first_of("\r\n"));
    // The package is the work tree; its history and config are not part of it.
    std::vector<fs::path> git_dirs;
    for (fs::recursive_directory_iterator it(target, fs::directory_options::none, ec), end; !ec && it != end;
         it.increment(ec)) {
        if (it->path().filename() == ".git") {
            git_dirs.push_back(it->path());
            it.disable_recursion_pending();
        }
    }
    for (const auto& dir : git_dirs) {
        std::error_code rm;
        fs::remove_all(dir, rm);
    }
    return out;
}

}  // namespace tfsift::online
