#include "tfsift/lint/git_revision.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

extern char** environ;

namespace tfsift::lint {

namespace {

// What git may print before tfsift stops reading: far more than any lock
// file or listing it asks for.
constexpr std::size_t kMaxGitOutput = std::size_t{64} << 20;

struct GitRun {
    int status = -1;  // exit status; -1 when git could not be run or was killed
    std::string out;
    std::string err;
    std::string failure;  // why git could not be run
};

GitRun run_git(const std::filesystem::path& dir, const std::vector<std::string>& args) {
    GitRun run;
    std::vector<std::string> words = {"git", "-C", dir.empty() ? std::string(".") : dir.string()};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    argv.reserve(words.size() + 1);
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    std::array<int, 2> out{-1, -1};
    std::array<int, 2> err{-1, -1};
    if (::pipe2(out.data(), O_CLOEXEC) != 0 || ::pipe2(err.data(), O_CLOEXEC) != 0) {
        run.failure = fmt::format("cannot create a pipe: {}", std::strerror(errno));
        for (int fd : {out[0], out[1], err[0], err[1]}) {
            if (fd >= 0) ::close(fd);
        }
        return run;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    pid_t pid = 0;
    const int spawned = ::posix_spawnp(&pid, "git", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    ::close(err[1]);
    if (spawned != 0) {
        ::close(out[0]);
        ::close(err[0]);
        run.failure = fmt::format("cannot run git: {}", std::strerror(spawned));
        return run;
    }
    std::array<pollfd, 2> fds{pollfd{out[0], POLLIN, 0}, pollfd{err[0], POLLIN, 0}};
    std::array<std::string*, 2> sinks{&run.out, &run.err};
    std::array<char, 65536> buffer{};
    int open_fds = 2;
    bool too_much = false;
    while (open_fds > 0) {
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            const ssize_t n = ::read(fds[i].fd, buffer.data(), buffer.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0 || sinks[i]->size() + static_cast<std::size_t>(n) > kMaxGitOutput) {
                too_much = too_much || n > 0;
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
                continue;
            }
            sinks[i]->append(buffer.data(), static_cast<std::size_t>(n));
        }
    }
    for (const auto& f : fds) {
        if (f.fd >= 0) ::close(f.fd);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (too_much) {
        run.status = -1;
        run.failure = fmt::format("git printed more than {} MiB", kMaxGitOutput >> 20);
    }
    return run;
}

std::string describe_failure(const GitRun& run, const std::string& what) {
    if (!run.failure.empty()) return fmt::format("{}: {}", what, run.failure);
    std::string message = run.err;
    while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
    if (message.empty()) message = fmt::format("git exited with status {}", run.status);
    return fmt::format("{}: {}", what, message);
}

}  // namespace

GitAnswer check_revision(const std::filesystem::path& dir, const std::string& ref) {
    GitAnswer answer;
    if (ref.empty() || ref.front() == '-') {
        answer.error = fmt::format("\"{}\" is not a git revision", ref);
        return answer;
    }
    const auto run = run_git(dir, {"rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"});
    if (run.status != 0) {
        answer.error = run.failure.empty() ? fmt::format("cannot read revision {} in {}: {}", ref, dir.string(),
                                                         run.err.empty() ? "no such commit (or not a git repository)"
                                                                         : describe_failure(run, "git rev-parse"))
                                           : describe_failure(run, "cannot read revision " + ref);
    }
    return answer;
}

GitFileList files_at_revision(const std::filesystem::path& dir, const std::string& ref, const std::string& file_name) {
    GitFileList list;
    const auto run = run_git(dir, {"ls-tree", "-r", "-z", "--name-only", ref, "--", "."});
    if (run.status != 0) {
        list.error = describe_failure(run, fmt::format("cannot list {} at {}", dir.string(), ref));
        return list;
    }
    std::size_t start = 0;
    while (start < run.out.size()) {
        auto end = run.out.find('\0', start);
        if (end == std::string::npos) end = run.out.size();
        std::string path = run.out.substr(start, end - start);
        start = end + 1;
        const auto slash = path.rfind('/');
        const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
        if (base == file_name) list.paths.push_back(std::move(path));
    }
    return list;
}

GitFile file_at_revision(const std::filesystem::path& dir, const std::string& ref, const std::string& relative) {
    GitFile file;
    const std::string object = ref + ":./" + relative;
    const auto exists = run_git(dir, {"cat-file", "-e", object});
    if (!exists.failure.empty()) {
        file.error = describe_failure(exists, "cannot read " + object);
        return file;
    }
    if (exists.status != 0) return file;  // the revision has no such file
    const auto run = run_git(dir, {"show", "--no-textconv", object});
    if (run.status != 0) {
        file.error = describe_failure(run, "cannot read " + object);
        return file;
    }
    file.exists = true;
    file.text = run.out;
    return file;
}

}  // namespace tfsift::lint
