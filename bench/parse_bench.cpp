// parse_bench: how fast hcl::parse turns a corpus of .tf files into syntax
// trees, and how much memory the trees take.
//
// Usage: parse_bench [--rounds N] [--hclbench PATH] [CORPUS_DIR]
//   CORPUS_DIR  walked for *.tf files (default ../shared/corpus)
//   --rounds    timed rounds; the best one is reported (default 5)
//   --hclbench  the Go reference benchmark (tools/oracle/hclbench), run on the
//               same files in the same run; the HCLBENCH environment variable
//               works too
//
// Files are read into memory first; a round parses every file and keeps all
// trees until the round ends, so allocation is part of the cost, release is
// not (as with Go's collector in hclbench).
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tfsift/hcl/ast.hpp"
#include "tfsift/source.hpp"

extern char** environ;

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::string corpus = "../shared/corpus";
    int rounds = 5;
    std::string hclbench;
    bool rss_pass = false;  // internal: the child process that measures memory
};

[[noreturn]] void usage(const char* message) {
    std::fprintf(stderr, "parse_bench: %s\nusage: parse_bench [--rounds N] [--hclbench PATH] [CORPUS_DIR]\n", message);
    std::exit(2);
}

Options parse_options(int argc, char** argv) {
    Options o;
    if (const char* env = std::getenv("HCLBENCH")) o.hclbench = env;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(("missing value after " + arg).c_str());
            return argv[++i];
        };
        if (arg == "--rounds") {
            o.rounds = std::max(1, std::atoi(value().c_str()));
        } else if (arg == "--hclbench") {
            o.hclbench = value();
        } else if (arg == "--rss-pass") {
            o.rss_pass = true;
        } else if (arg.starts_with("--")) {
            usage(("unknown option " + arg).c_str());
        } else {
            o.corpus = arg;
        }
    }
    return o;
}

// Every *.tf regular file under `root`, sorted (the set hclbench walks too).
std::vector<std::string> find_tf_files(const std::string& root) {
    std::vector<std::string> paths;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
        const auto& p = it->path();
        if (p.extension() == ".tf" && it->is_regular_file(ec)) paths.push_back(p.string());
    }
    if (ec) usage(("cannot walk " + root + ": " + ec.message()).c_str());
    std::sort(paths.begin(), paths.end());
    return paths;
}

std::vector<std::shared_ptr<const tfsift::SourceFile>> read_sources(const std::vector<std::string>& paths) {
    std::vector<std::shared_ptr<const tfsift::SourceFile>> sources;
    sources.reserve(paths.size());
    for (const auto& p : paths) sources.push_back(tfsift::SourceFile::read(p));
    return sources;
}

// A field of /proc/self/status in kB (VmRSS, VmHWM), or 0 if absent.
long proc_status_kb(const char* field) {
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::size_t len = std::strlen(field);
    while (std::getline(status, line)) {
        if (line.compare(0, len, field) == 0 && line.size() > len && line[len] == ':') {
            return std::atol(line.c_str() + len + 1);
        }
    }
    return 0;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Parses every source on `workers` threads, each taking the next file in
// turn, keeping all trees until the round is timed. Returns the seconds taken
// and the number of files with errors.
std::pair<double, std::size_t> parse_round(const std::vector<std::shared_ptr<const tfsift::SourceFile>>& sources,
                                           unsigned workers) {
    std::vector<tfsift::hcl::File> trees(sources.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < sources.size();) {
            trees[i] = tfsift::hcl::parse(sources[i]);
        }
    };
    auto start = Clock::now();
    if (workers <= 1) {
        work();
    } else {
        std::vector<std::thread> threads;
        for (unsigned w = 0; w < workers; ++w) threads.emplace_back(work);
        for (auto& t : threads) t.join();
    }
    double secs = seconds_since(start);
    std::size_t with_errors = 0;
    for (const auto& t : trees) with_errors += t.has_errors() ? 1 : 0;
    return {secs, with_errors};
}

// `cat` of the same files: open, read() into one reused buffer, close.
double read_round(const std::vector<std::string>& paths) {
    static std::vector<char> buffer(1 << 20);
    auto start = Clock::now();
    for (const auto& p : paths) {
        int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) usage(("cannot open " + p).c_str());
        while (::read(fd, buffer.data(), buffer.size()) > 0) {
        }
        ::close(fd);
    }
    return seconds_since(start);
}

// Runs a program and returns its standard output, or nullopt if it fails.
std::optional<std::string> capture(const std::vector<std::string>& argv) {
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) return std::nullopt;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    std::string out;
    if (rc == 0) {
        char chunk[4096];
        for (ssize_t n; (n = ::read(pipe_fds[0], chunk, sizeof chunk)) > 0;)
            out.append(chunk, static_cast<std::size_t>(n));
    }
    ::close(pipe_fds[0]);
    if (rc != 0) return std::nullopt;
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
    return out;
}

// The number following `key` in whitespace-separated "key value" output;
// NaN when it is absent.
double field(const std::string& text, const std::string& key) {
    std::istringstream in(text);
    std::string word;
    while (in >> word) {
        if (word == key && in >> word) return std::strtod(word.c_str(), nullptr);
    }
    return std::nan("");
}

// The child process: reads the corpus, parses it once keeping every tree and
// reports the resident set before parsing and at its peak.
int rss_pass(const Options& o) {
    auto sources = read_sources(find_tf_files(o.corpus));
    long before = proc_status_kb("VmRSS");
    std::vector<tfsift::hcl::File> trees;
    trees.reserve(sources.size());
    for (const auto& s : sources) trees.push_back(tfsift::hcl::parse(s));
    std::printf("rss_before_kb %ld peak_kb %ld\n", before, proc_status_kb("VmHWM"));
    return 0;
}

double mb_per_s(std::size_t bytes, double secs) { return static_cast<double>(bytes) / 1e6 / secs; }

}  // namespace

int main(int argc, char** argv) {
    Options o = parse_options(argc, argv);
    if (o.rss_pass) return rss_pass(o);

    auto paths = find_tf_files(o.corpus);
    if (paths.empty()) usage(("no .tf files under " + o.corpus).c_str());
    auto sources = read_sources(paths);
    std::size_t bytes = 0;
    for (const auto& s : sources) bytes += s->size();
    unsigned cores = std::max(1U, std::thread::hardware_concurrency());

    std::printf("corpus            %s\n", o.corpus.c_str());
    std::printf("files             %zu\n", paths.size());
    std::printf("bytes             %zu\n", bytes);

    // Warm-up round: page in the code and let the allocator settle.
    auto [warm_secs, with_errors] = parse_round(sources, 1);
    (void)warm_secs;
    std::printf("files with errors %zu\n", with_errors);

    double best_single = 1e300;
    double best_multi = 1e300;
    double best_read = 1e300;
    for (int r = 0; r < o.rounds; ++r) {
        best_single = std::min(best_single, parse_round(sources, 1).first);
        best_multi = std::min(best_multi, parse_round(sources, cores).first);
        best_read = std::min(best_read, read_round(paths));
    }
    std::printf("rounds            %d (best reported)\n", o.rounds);
    std::printf("parse 1 thread    %.4f s  %.1f MB/s  %.0f files/s\n", best_single, mb_per_s(bytes, best_single),
                static_cast<double>(paths.size()) / best_single);
    std::printf("parse %u threads   %.4f s  %.1f MB/s  (speed-up %.2fx)\n", cores, best_multi,
                mb_per_s(bytes, best_multi), best_single / best_multi);
    std::printf("read() like cat   %.4f s  %.1f MB/s  parse/read time ratio %.1f\n", best_read,
                mb_per_s(bytes, best_read), best_single / best_read);

    // Memory, in a fresh process so the figure holds only the kept trees of
    // one full parse (and not the timing rounds' allocator state).
    std::string self = fs::read_symlink("/proc/self/exe").string();
    if (auto out = capture({self, "--rss-pass", o.corpus})) {
        double before_kb = field(*out, "rss_before_kb");
        double peak_kb = field(*out, "peak_kb");
        if (!std::isnan(before_kb) && !std::isnan(peak_kb)) {
            double peak_bytes = peak_kb * 1024.0;
            std::printf("peak RSS          %.1f MB (%.1f MB before parsing)\n", peak_bytes / 1e6,
                        before_kb * 1024.0 / 1e6);
            std::printf("RSS / bytes       %.2f  (trees alone %.2f)\n", peak_bytes / static_cast<double>(bytes),
                        (peak_kb - before_kb) * 1024.0 / static_cast<double>(bytes));
        }
    } else {
        std::printf("peak RSS          (the measuring process failed)\n");
    }

    if (o.hclbench.empty()) {
        std::printf("hclbench          not given (--hclbench PATH or HCLBENCH=PATH)\n");
        return 0;
    }
    auto rounds = std::to_string(o.rounds);
    for (unsigned workers : {1U, cores}) {
        auto out = capture({o.hclbench, "-n", rounds, "-j", std::to_string(workers), o.corpus});
        double go_mb = out ? field(*out, "MB_per_s") : std::nan("");
        double go_files = out ? field(*out, "files") : std::nan("");
        if (std::isnan(go_mb) || std::isnan(go_files)) {
            std::printf("hclbench -j %u     failed to run %s\n", workers, o.hclbench.c_str());
            return 1;
        }
        double ours = mb_per_s(bytes, workers == 1 ? best_single : best_multi);
        std::printf("Go hcl -j %u       %.1f MB/s on %.0f files  tfsift/Go %.2f\n", workers, go_mb, go_files,
                    ours / go_mb);
    }
    return 0;
}
