// lint_bench: the whole lint of a corpus, in process, through the same lint
// session `tfsift lint --recursive` runs (lint/session.hpp), on one thread
// and on every processor, beside the time the Go reference parser (hclbench)
// takes to parse the corpus's .tf files, all in one run. Then the same lint
// of generated trees of 1,000 and 10,000 small modules, half of them called
// by several roots, for the cost per module as the run grows.
//
// Usage: lint_bench [--rounds N] [--hclbench PATH] [--no-scaling] [CORPUS_DIR]
//   CORPUS_DIR    default ../shared/corpus
//   --rounds      rounds of timed runs, each round one run of each kind
//                 (the lint on one thread and on every core, Go's parse on
//                 one thread and on every core); the best of each kind is
//                 reported (default 3)
//   --hclbench    the Go reference benchmark (tools/oracle/hclbench); the
//                 HCLBENCH environment variable works too
//   --no-scaling  leave out the generated trees
//
// Each timed run happens in a child process (forked, not executed), so that
// its peak resident memory is its own: finding the modules, reading,
// parsing, loading and merging every module, every default rule, and a JSON
// report (thrown away). hclbench reports its best of two in-process rounds
// of parsing the .tf files it has read, so the ratio flatters Go: it leaves
// out reading, loading and the rules.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tfsift/lint/session.hpp"
#include "tfsift/parallel_for.hpp"
#include "tfsift/report/report.hpp"
#include "tfsift/rules/catalogue.hpp"

extern char** environ;

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::string corpus = "../shared/corpus";
    int rounds = 3;
    std::string hclbench;
    bool scaling = true;
};

[[noreturn]] void usage(const std::string& message) {
    std::fprintf(stderr,
                 "lint_bench: %s\nusage: lint_bench [--rounds N] [--hclbench PATH] [--no-scaling] [CORPUS_DIR]\n",
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
        } else if (arg == "--hclbench") {
            o.hclbench = value();
        } else if (arg == "--no-scaling") {
            o.scaling = false;
        } else if (!arg.empty() && arg[0] == '-') {
            usage("unknown option " + arg);
        } else {
            o.corpus = arg;
        }
    }
    return o;
}

// What one lint run measured.
struct Figures {
    bool ok = false;
    double total = 0;   // wall seconds, session and report
    double cpu = 0;     // processor seconds (user and system, every thread), session and report
    double report = 0;  // wall seconds of the JSON report
    double files = 0;   // configuration files linted
    double findings = 0;
    double config_bytes = 0;
    double peak_rss = 0;  // bytes
    tfsift::lint::SessionTimes stages;
};

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The processor time this process has used so far, user and system, in
// seconds: on a loaded machine it varies less than the wall time.
double cpu_seconds() {
    struct rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// One lint of `paths` with `jobs` jobs in a forked child; the child sends its
// figures back through a pipe, the parent adds the child's peak RSS.
Figures lint_in_child(const std::vector<std::string>& paths, unsigned jobs) {
    Figures figures;
    int fds[2] = {-1, -1};
    if (::pipe(fds) != 0) return figures;
    const pid_t pid = ::fork();
    if (pid < 0) return figures;
    if (pid == 0) {
        ::close(fds[0]);
        const auto start = Clock::now();
        const double cpu_start = cpu_seconds();
        tfsift::lint::LintRequest request;
        request.catalogue = tfsift::lint::builtin_rules();
        request.paths = paths;
        request.recursive = true;
        request.jobs = jobs;
        request.offline = true;
        const tfsift::lint::LintResult result = tfsift::lint::run_session(request);
        const auto report_start = Clock::now();
        std::ostringstream out;
        tfsift::report::ReportInput input{result.findings, result.catalogue};
        input.working_dir = fs::current_path().generic_string();
        input.repository_root = input.working_dir;
        input.files_scanned = result.files.size();
        tfsift::report::write_report(tfsift::report::Format::json, input, out);
        Figures f;
        f.report = seconds_since(report_start);
        f.total = seconds_since(start);
        f.cpu = cpu_seconds() - cpu_start;
        f.ok = result.completed;
        f.stages = result.times;
        f.files = static_cast<double>(result.files.size());
        f.findings = static_cast<double>(result.findings.size());
        for (const auto& file : result.files) {
            std::error_code ec;
            const auto size = fs::file_size(file, ec);
            if (!ec) f.config_bytes += static_cast<double>(size);
        }
        const bool sent = ::write(fds[1], &f, sizeof f) == static_cast<ssize_t>(sizeof f);
        std::_Exit(sent ? 0 : 1);
    }
    ::close(fds[1]);
    Figures received;
    const bool got = ::read(fds[0], &received, sizeof received) == static_cast<ssize_t>(sizeof received);
    ::close(fds[0]);
    int status = 0;
    struct rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return figures;
    received.peak_rss = static_cast<double>(usage.ru_maxrss) * 1024.0;
    return received;
}

// The best of `rounds` runs (by total time); peak RSS is the largest seen.
Figures best_of(const std::vector<std::string>& paths, unsigned jobs, int rounds) {
    Figures best;
    double rss = 0;
    for (int r = 0; r < rounds; ++r) {
        Figures f = lint_in_child(paths, jobs);
        if (!f.ok) return f;
        rss = std::max(rss, f.peak_rss);
        if (!best.ok || f.total < best.total) best = f;
    }
    best.peak_rss = rss;
    return best;
}

// Runs a program with its standard output captured; `ok` when it exits 0.
struct RunResult {
    bool ok = false;
    std::string out;
};

RunResult run(const std::vector<std::string>& argv) {
    RunResult result;
    int pipe_fds[2] = {-1, -1};
    if (::pipe(pipe_fds) != 0) return result;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    if (rc == 0) {
        std::array<char, 4096> chunk{};
        for (ssize_t n; (n = ::read(pipe_fds[0], chunk.data(), chunk.size())) > 0;) {
            result.out.append(chunk.data(), static_cast<std::size_t>(n));
        }
    }
    ::close(pipe_fds[0]);
    if (rc != 0) return result;
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
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

void write_text(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

// `modules` small modules under `dir`: half of them shared modules, the
// other half roots that each call three shared modules by a local path, so
// that every shared module has three callers.
void generate_tree(const fs::path& dir, std::size_t modules) {
    const std::size_t shared = modules / 2;
    for (std::size_t i = 0; i < shared; ++i) {
        std::ostringstream m;
        m << "variable \"name\" {\n  type    = string\n  default = \"m" << i << "\"\n}\n\n"
          << "resource \"null_resource\" \"this\" {\n  triggers = {\n    name = var.name\n  }\n}\n\n"
          << "output \"id\" {\n  value = null_resource.this.id\n}\n";
        write_text(dir / "modules" / ("m" + std::to_string(i)) / "main.tf", m.str());
        write_text(dir / "modules" / ("m" + std::to_string(i)) / "versions.tf",
                   "terraform {\n  required_providers {\n    null = {\n      source  = \"hashicorp/null\"\n"
                   "      version = \">= 3.0\"\n    }\n  }\n}\n");
    }
    for (std::size_t i = 0; i < modules - shared; ++i) {
        std::ostringstream r;
        r << "terraform {\n  required_version = \">= 1.5\"\n  required_providers {\n    null = {\n"
          << "      source  = \"hashicorp/null\"\n      version = \"~> 3.2\"\n    }\n  }\n}\n\n";
        for (std::size_t k = 0; k < 3; ++k) {
            const std::size_t target = (i + k * 7) % shared;
            r << "module \"m" << k << "\" {\n  source = \"../../modules/m" << target << "\"\n  name   = \"r" << i << "-"
              << k << "\"\n}\n\n";
        }
        write_text(dir / "roots" / ("r" + std::to_string(i)) / "main.tf", r.str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse_options(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each figure as soon as it is measured
    if (!fs::is_directory(o.corpus)) usage("no directory " + o.corpus);
    const unsigned cores = tfsift::available_processors();

    std::printf("corpus              %s\n", o.corpus.c_str());
    std::printf("rounds              %d, interleaved (best of each reported)\n", o.rounds);
    lint_in_child({o.corpus}, cores);  // pages in the corpus
    const std::array<unsigned, 2> jobs_of = {1, cores};
    // Round after round, each kind of run once: the lint on one thread and on
    // every core, then Go's parse on one thread and on every core (its best
    // of two in-process rounds, so that its heap has grown). A change in
    // the machine's load within the run then reaches both sides of a ratio
    // alike instead of only the side measured while it lasted.
    std::array<Figures, 2> lint{};
    std::array<double, 2> go = {std::nan(""), std::nan("")};
    double go_files = std::nan("");
    std::array<double, 2> rss{};
    for (int r = 0; r < o.rounds; ++r) {
        for (std::size_t k = 0; k < 2; ++k) {
            Figures f = lint_in_child({o.corpus}, jobs_of[k]);
            if (!f.ok) {
                std::printf("lint --jobs %u failed\n", jobs_of[k]);
                return 1;
            }
            rss[k] = std::max(rss[k], f.peak_rss);
            if (!lint[k].ok || f.total < lint[k].total) lint[k] = f;
        }
        if (o.hclbench.empty()) continue;
        for (std::size_t k = 0; k < 2; ++k) {
            auto res = run({o.hclbench, "-n", "2", "-j", std::to_string(jobs_of[k]), o.corpus});
            const double seconds = res.ok ? field(res.out, "best_seconds") : std::nan("");
            go_files = res.ok ? field(res.out, "files") : std::nan("");
            if (std::isnan(seconds) || std::isnan(go_files)) {
                std::printf("hclbench -j %u failed to run %s\n", jobs_of[k], o.hclbench.c_str());
                return 1;
            }
            if (std::isnan(go[k]) || seconds < go[k]) go[k] = seconds;
        }
    }
    for (std::size_t k = 0; k < 2; ++k) {
        Figures& f = lint[k];
        f.peak_rss = rss[k];
        std::printf(
            "lint --jobs %-4u    %.3f s (report %.3f s; processor time %.3f s)  %.0f files, %.0f findings, "
            "%.1f MB of configuration\n",
            jobs_of[k], f.total, f.report, f.cpu, f.files, f.findings, f.config_bytes / 1e6);
        const auto& t = f.stages;
        std::printf(
            "  stages (s)        targets %.3f (module roles %.3f)  load %.3f (read %.3f  parse %.3f  decode %.3f  "
            "merge %.3f)  rules %.3f (load and rules summed over threads)  report %.3f\n",
            t.targets, t.roles, t.load, t.read, t.parse, t.decode, t.merge, t.rules, f.report);
        std::printf(
            "  loading           %llu module directories loaded, %llu times one was shared instead; %llu "
            "files read for %.0f files linted\n",
            static_cast<unsigned long long>(t.modules_loaded), static_cast<unsigned long long>(t.modules_reused),
            static_cast<unsigned long long>(t.files_read), f.files);
        std::printf("  peak RSS          %.1f MB = %.2fx the configuration bytes\n", f.peak_rss / 1e6,
                    f.peak_rss / f.config_bytes);
    }
    std::printf("speed-up           %.2fx on %u cores\n", lint[0].total / lint[1].total, cores);

    if (o.hclbench.empty()) {
        std::printf("hclbench            not given (--hclbench PATH or HCLBENCH=PATH)\n");
    } else {
        for (std::size_t k = 0; k < 2; ++k) {
            std::printf("Go hcl parse -j %-3u %.3f s (%.0f .tf files, best in-process round)\n", jobs_of[k], go[k],
                        go_files);
        }
        std::printf("lint --jobs 1 / Go parse -j 1        %.3f\n", lint[0].total / go[0]);
        std::printf("lint --jobs %u / Go parse -j 1        %.3f\n", cores, lint[1].total / go[0]);
        std::printf("lint --jobs %u / Go parse -j %u        %.3f\n", cores, cores, lint[1].total / go[1]);
    }

    if (!o.scaling) return 0;
    // The cost per module of a small and a large generated tree, on one thread.
    const fs::path scratch = fs::temp_directory_path() / ("lint_bench." + std::to_string(::getpid()));
    std::array<double, 2> per_module{};
    const std::array<std::size_t, 2> sizes = {1000, 10000};
    for (std::size_t k = 0; k < 2; ++k) {
        const fs::path dir = scratch / std::to_string(sizes[k]);
        generate_tree(dir, sizes[k]);
        const Figures f = best_of({dir.string()}, 1, o.rounds);
        if (!f.ok) {
            std::printf("lint of the generated tree of %zu modules failed\n", sizes[k]);
            fs::remove_all(scratch);
            return 1;
        }
        per_module[k] = f.total / static_cast<double>(sizes[k]);
        std::printf(
            "%5zu modules        %.3f s on one thread, %.1f us per module, %llu directories loaded, %llu "
            "shared, peak RSS %.1f MB (%.2fx)\n",
            sizes[k], f.total, per_module[k] * 1e6, static_cast<unsigned long long>(f.stages.modules_loaded),
            static_cast<unsigned long long>(f.stages.modules_reused), f.peak_rss / 1e6, f.peak_rss / f.config_bytes);
    }
    std::printf("scaling            %.2fx the cost per module from 1,000 to 10,000 modules\n",
                per_module[1] / per_module[0]);
    fs::remove_all(scratch);
    return 0;
}
