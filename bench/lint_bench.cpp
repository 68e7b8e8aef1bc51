// lint_bench: the wall time of `tfsift lint --recursive` over a whole corpus,
// on one thread and on every processor, beside the time the Go reference
// parser (hclbench) takes to parse the corpus's .tf files, all in one run.
//
// Usage: lint_bench [--rounds N] [--tfsift PATH] [--hclbench PATH] [CORPUS_DIR]
//   CORPUS_DIR  default ../shared/corpus
//   --rounds    timed runs of each; the best one is reported (default 3)
//   --tfsift    the tfsift binary (default: the one beside this program)
//   --hclbench  the Go reference benchmark (tools/oracle/hclbench); the
//               HCLBENCH environment variable works too
//
// A tfsift run is the whole command as a user runs it: finding the modules,
// reading, parsing, loading and merging every module, every default rule, and
// a JSON report (thrown away). hclbench reports its best in-process round of
// parsing the .tf files it has read, so the ratio flatters Go: it leaves out
// start-up, reading, loading and the rules.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tfsift/parallel_for.hpp"

extern char** environ;

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::string corpus = "../shared/corpus";
    int rounds = 3;
    std::string tfsift;
    std::string hclbench;
};

[[noreturn]] void usage(const std::string& message) {
    std::fprintf(stderr,
                 "lint_bench: %s\nusage: lint_bench [--rounds N] [--tfsift PATH] [--hclbench PATH] [CORPUS_DIR]\n",
                 message.c_str());
    std::exit(2);
}

Options parse_options(int argc, char** argv) {
    Options o;
    if (const char* env = std::getenv("HCLBENCH")) o.hclbench = env;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--rounds") {
            o.rounds = std::atoi(value().c_str());
            if (o.rounds < 1) usage("--rounds must be at least 1");
        } else if (arg == "--tfsift") {
            o.tfsift = value();
        } else if (arg == "--hclbench") {
            o.hclbench = value();
        } else if (!arg.empty() && arg[0] == '-') {
            usage("unknown option " + arg);
        } else {
            o.corpus = arg;
        }
    }
    if (o.tfsift.empty()) o.tfsift = (fs::read_symlink("/proc/self/exe").parent_path() / "tfsift").string();
    return o;
}

struct RunResult {
    bool ok = false;
    double seconds = 0;      // wall
    double cpu_seconds = 0;  // user + system of the process and its threads
    std::string out;
};

// Runs a program with its standard output captured (or thrown away) and
// returns its wall time. `ok` when it exits with a status in `accepted`.
RunResult run(const std::vector<std::string>& argv, bool keep_output, std::initializer_list<int> accepted) {
    RunResult result;
    int pipe_fds[2] = {-1, -1};
    if (keep_output && ::pipe(pipe_fds) != 0) return result;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (keep_output) {
        posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    } else {
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    }
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    auto start = Clock::now();
    int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (keep_output) {
        ::close(pipe_fds[1]);
        if (rc == 0) {
            char chunk[4096];
            for (ssize_t n; (n = ::read(pipe_fds[0], chunk, sizeof chunk)) > 0;) {
                result.out.append(chunk, static_cast<std::size_t>(n));
            }
        }
        ::close(pipe_fds[0]);
    }
    if (rc != 0) return result;
    int status = 0;
    struct rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    result.cpu_seconds = secs(usage.ru_utime) + secs(usage.ru_stime);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    result.ok = WIFEXITED(status) && std::find(accepted.begin(), accepted.end(), WEXITSTATUS(status)) != accepted.end();
    return result;
}

// The number following `key` in whitespace-separated "key value" output.
double field(const std::string& text, const std::string& key) {
    std::istringstream in(text);
    std::string word;
    while (in >> word) {
        if (word == key && in >> word) return std::strtod(word.c_str(), nullptr);
    }
    return std::nan("");
}

// The first integer after `"key":` in a JSON text (the report's summary
// comes before its findings); NaN when absent.
double json_count(const std::string& json, const std::string& key) {
    auto at = json.find("\"" + key + "\":");
    if (at == std::string::npos) return std::nan("");
    at += key.size() + 3;
    while (at < json.size() && json[at] == ' ') ++at;
    return std::strtod(json.c_str() + at, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
    Options o = parse_options(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each figure as soon as it is measured
    if (!fs::is_directory(o.corpus)) usage("no directory " + o.corpus);
    if (!fs::exists(o.tfsift)) usage("no tfsift binary at " + o.tfsift + " (give --tfsift PATH)");
    unsigned cores = tfsift::available_processors();

    std::printf("corpus              %s\n", o.corpus.c_str());
    std::printf("tfsift              %s\n", o.tfsift.c_str());
    std::printf("rounds              %d (best reported)\n", o.rounds);

    // One untimed run pages in the binary and the corpus.
    auto lint = [&](unsigned jobs, bool keep_output = false) {
        return run({o.tfsift, "lint", "--recursive", o.corpus, "--format", "json", "--jobs", std::to_string(jobs)},
                   keep_output, {0, 1});
    };
    auto warm = lint(cores, true);
    if (!warm.ok) {
        std::printf("tfsift lint failed (exit status other than 0 or 1)\n");
        return 1;
    }
    std::printf("files linted        %.0f (.tf, .tf.json, .tofu; %.0f findings)\n", json_count(warm.out, "files"),
                json_count(warm.out, "findings"));
    double best[2] = {1e300, 1e300};
    double best_cpu[2] = {1e300, 1e300};
    const unsigned jobs_of[2] = {1, cores};
    for (int r = 0; r < o.rounds; ++r) {
        for (int k = 0; k < 2; ++k) {
            auto res = lint(jobs_of[k]);
            if (!res.ok) {
                std::printf("tfsift lint --jobs %u failed\n", jobs_of[k]);
                return 1;
            }
            best[k] = std::min(best[k], res.seconds);
            best_cpu[k] = std::min(best_cpu[k], res.cpu_seconds);
        }
    }
    // CPU time says how much work was done; it is the steadier figure on a
    // machine that other processes share.
    std::printf("tfsift lint -j 1    %.3f s wall  %.3f s CPU\n", best[0], best_cpu[0]);
    std::printf("tfsift lint -j %-4u %.3f s wall  %.3f s CPU  (wall speed-up %.2fx)\n", cores, best[1], best_cpu[1],
                best[0] / best[1]);

    if (o.hclbench.empty()) {
        std::printf("hclbench            not given (--hclbench PATH or HCLBENCH=PATH)\n");
        return 0;
    }
    for (int k = 0; k < 2; ++k) {
        auto res = run({o.hclbench, "-n", std::to_string(o.rounds), "-j", std::to_string(jobs_of[k]), o.corpus}, true,
                       {0});
        double go_seconds = res.ok ? field(res.out, "best_seconds") : std::nan("");
        double files = res.ok ? field(res.out, "files") : std::nan("");
        if (std::isnan(go_seconds) || std::isnan(files)) {
            std::printf("hclbench -j %u failed to run %s\n", jobs_of[k], o.hclbench.c_str());
            return 1;
        }
        std::printf("Go hcl parse -j %-3u %.3f s (%.0f .tf files, best in-process round)  tfsift lint / Go parse %.2f\n",
                    jobs_of[k], go_seconds, files, best[k] / go_seconds);
    }
    return 0;
}
