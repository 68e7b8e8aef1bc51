// lint_bench: the whole lint of a corpus as users run it, the `tfsift lint
// -r CORPUS` process (text report to /dev/null), with its processor time and
// peak memory, beside the Go reference parser (hclbench) parsing the
// corpus's .tf files in the same minute, and beside tfsift's own one-thread
// parse of the same files (a ratio no Go round can move). Then the lint in
// process, through the same lint session (lint/session.hpp), per stage, on
// one thread and on every processor; then the same lint of generated trees
// of 1,000 and 10,000 small modules, half of them called by several roots,
// for the cost per module as the run grows.
//
// Usage: lint_bench [--rounds N] [--hclbench PATH] [--tfsift PATH] [--instructions]
//                   [--no-scaling] [CORPUS_DIR]
//   CORPUS_DIR      default ../shared/corpus
//   --rounds        rounds of timed runs, each round one run of each kind
//                   (the command with the default jobs and with --jobs 1,
//                   Go's parse on one thread, the lint in process on one
//                   thread and on every core, Go's parse on every core); the
//                   best of each kind is reported (default 3)
//   --hclbench      the Go reference benchmark (tools/oracle/hclbench); the
//                   HCLBENCH environment variable works too
//   --tfsift        the tfsift command (default: the one beside this program)
//   --instructions  also count the instructions of `tfsift lint -r --jobs 1`
//                   under valgrind's callgrind (slow: about 40 times the run)
//   --no-scaling    leave out the generated trees
//
// Every figure is printed with the processor time (user and system) beside
// the wall time: on a loaded machine the wall time of each side moves, Go's
// more than the lint's, and only the processor time says so. Print `uptime`
// before and after: a ratio from a loaded machine is not a result.
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
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tfsift/config/decode.hpp"
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
    std::string tfsift;
    bool instructions = false;
    bool scaling = true;
};

[[noreturn]] void usage(const std::string& message) {
    std::fprintf(stderr,
                 "lint_bench: %s\nusage: lint_bench [--rounds N] [--hclbench PATH] [--tfsift PATH] [--instructions] "
                 "[--no-scaling] [CORPUS_DIR]\n",
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
        } else if (arg == "--tfsift") {
            o.tfsift = value();
        } else if (arg == "--instructions") {
            o.instructions = true;
        } else if (arg == "--no-scaling") {
            o.scaling = false;
        } else if (!arg.empty() && arg[0] == '-') {
            usage("unknown option " + arg);
        } else {
            o.corpus = arg;
        }
    }
    if (o.tfsift.empty()) o.tfsift = (fs::read_symlink("/proc/self/exe").parent_path() / "tfsift").string();
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

// One run of a program as a user runs it: its standard output and error go
// to files read back afterwards; the wall time is taken around the whole
// process, its processor time comes from wait4. The program is started by a
// shell that forks it, not by this process directly: a process's peak RSS
// keeps the high-water mark of the memory it ran in before exec, so a child
// of this (large) process would report this process's size. The peak RSS is
// the one the program reports itself (`tfsift lint --timings`); NaN when it
// reports none.
struct ProcessFigures {
    bool ran = false;
    int exit_code = -1;
    double wall = 0;
    double user = 0;
    double system = 0;
    double peak_rss = 0;  // bytes
    std::string out;
    std::string err;
    [[nodiscard]] double cpu() const { return user + system; }
};

std::string read_back(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

ProcessFigures run_process(const std::vector<std::string>& argv, bool keep_stdout) {
    ProcessFigures figures;
    const fs::path scratch = fs::temp_directory_path();
    const std::string tag = std::to_string(::getpid());
    const fs::path out_path = scratch / ("lint_bench.out." + tag);
    const fs::path err_path = scratch / ("lint_bench.err." + tag);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, keep_stdout ? out_path.c_str() : "/dev/null",
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    // `"$@"` followed by another command, so that the shell forks rather
    // than executing the program in its own place.
    std::vector<std::string> shell = {"/bin/sh", "-c", "\"$@\"; status=$?; exit $status", "sh"};
    shell.insert(shell.end(), argv.begin(), argv.end());
    std::vector<char*> args;
    args.reserve(shell.size() + 1);
    for (const auto& a : shell) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const auto start = Clock::now();
    const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc == 0) {
        int status = 0;
        struct rusage usage {};
        ::wait4(pid, &status, 0, &usage);
        figures.wall = seconds_since(start);
        figures.ran = true;
        figures.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        figures.user = static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) / 1e6;
        figures.system = static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) / 1e6;
        if (keep_stdout) figures.out = read_back(out_path);
        figures.err = read_back(err_path);
        const auto at = figures.err.find(", peak RSS ");
        figures.peak_rss =
            at == std::string::npos ? std::nan("") : std::strtod(figures.err.c_str() + at + 11, nullptr) * 1e6;
    }
    std::error_code ec;
    fs::remove(out_path, ec);
    fs::remove(err_path, ec);
    return figures;
}

// The best of several runs of one kind (by wall time), with the least
// processor time and the largest peak memory seen.
struct BestRun {
    ProcessFigures best;
    double cpu_min = std::numeric_limits<double>::infinity();
    double rss_max = 0;
    int runs = 0;
    void add(ProcessFigures f) {
        cpu_min = std::min(cpu_min, f.cpu());
        rss_max = std::max(rss_max, f.peak_rss);
        if (runs++ == 0 || f.wall < best.wall) best = std::move(f);
    }
};

// The machine's load averages, as `uptime` prints them.
std::string load_averages() {
    std::ifstream in("/proc/loadavg");
    double one = 0;
    double five = 0;
    double fifteen = 0;
    if (!(in >> one >> five >> fifteen)) return "unknown";
    char text[64];
    std::snprintf(text, sizeof text, "%.2f, %.2f, %.2f", one, five, fifteen);
    return text;
}

// The configuration files of `corpus` that a recursive lint reads (hidden
// and symlinked directories left out), read into memory.
std::vector<std::shared_ptr<const tfsift::SourceFile>> read_config_files(const std::string& corpus,
                                                                         std::vector<bool>& json) {
    std::vector<std::shared_ptr<const tfsift::SourceFile>> out;
    std::vector<fs::path> paths;
    for (auto it = fs::recursive_directory_iterator(corpus); it != fs::recursive_directory_iterator(); ++it) {
        const std::string name = it->path().filename().string();
        if (it->is_directory() && (name[0] == '.' || it->is_symlink())) {
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file() || name[0] == '.') continue;
        if (name.ends_with(".tf") || name.ends_with(".tofu") || name.ends_with(".tf.json") ||
            name.ends_with(".tofu.json")) {
            paths.push_back(it->path());
        }
    }
    std::sort(paths.begin(), paths.end());
    for (const auto& path : paths) {
        out.push_back(std::make_shared<const tfsift::SourceFile>(path.string(), read_back(path)));
        json.push_back(path.string().ends_with(".json"));
    }
    return out;
}

// tfsift's own parse of `files` on one thread, best of `rounds`, in
// seconds; the trees of a round are kept until it ends.
double own_parse_seconds(const std::vector<std::shared_ptr<const tfsift::SourceFile>>& files,
                         const std::vector<bool>& json, int rounds) {
    double best = std::numeric_limits<double>::infinity();
    for (int r = 0; r < rounds; ++r) {
        std::vector<std::unique_ptr<tfsift::config::ParsedFile>> trees;
        trees.reserve(files.size());
        const auto start = Clock::now();
        for (std::size_t i = 0; i < files.size(); ++i) {
            trees.push_back(tfsift::config::parse_config_file(
                files[i], json[i] ? tfsift::config::FileSyntax::json : tfsift::config::FileSyntax::native));
        }
        best = std::min(best, seconds_since(start));
    }
    return best;
}

// The instructions `argv` runs, counted by valgrind's callgrind; NaN when
// valgrind is missing or the run failed.
double count_instructions(const std::vector<std::string>& argv) {
    std::vector<std::string> args = {"/usr/bin/valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"};
    if (!fs::exists(args[0])) return std::nan("");
    args.insert(args.end(), argv.begin(), argv.end());
    const ProcessFigures f = run_process(args, false);
    const auto at = f.err.find("Collected : ");
    if (!f.ran || at == std::string::npos) return std::nan("");
    return std::strtod(f.err.c_str() + at + 12, nullptr);
}

// "N linted; read A times by the loaders (...), B by the module-role scan"
// from the table of `tfsift lint --timings`.
std::string files_read_line(const std::string& timings) {
    const auto at = timings.find("  files      ");
    if (at == std::string::npos) return "not reported";
    const auto end = timings.find('\n', at);
    return timings.substr(at + 13, end == std::string::npos ? std::string::npos : end - at - 13);
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

// The command as users run it, against Go's parse in the same minute and
// tfsift's own parse of the same files; 0, or 1 when a run failed. Run after
// the in-process lints, whose children would otherwise inherit the files read
// here in their peak memory.
int command_figures(const Options& o) {
    if (!fs::exists(o.tfsift)) {
        std::printf("the command         %s not found (--tfsift PATH)\n", o.tfsift.c_str());
        return 0;
    }
    std::vector<bool> json;
    const auto files = read_config_files(o.corpus, json);
    double bytes = 0;
    for (const auto& f : files) bytes += static_cast<double>(f->text().size());
    BestRun lint_default;
    BestRun lint_one;
    BestRun go_process;
    double go_round = std::nan("");
    double own_parse = std::numeric_limits<double>::infinity();
    for (int r = 0; r < o.rounds; ++r) {
        lint_default.add(run_process({o.tfsift, "lint", "-r", "--timings", o.corpus}, false));
        lint_one.add(run_process({o.tfsift, "lint", "-r", "--jobs", "1", "--timings", o.corpus}, false));
        if (!o.hclbench.empty()) {
            ProcessFigures go = run_process({o.hclbench, "-n", "3", "-j", "1", o.corpus}, true);
            const double seconds = go.exit_code == 0 ? field(go.out, "best_seconds") : std::nan("");
            if (std::isnan(seconds)) {
                std::printf("hclbench failed to run %s\n", o.hclbench.c_str());
                return 1;
            }
            if (std::isnan(go_round) || seconds < go_round) go_round = seconds;
            go_process.add(std::move(go));
        }
        own_parse = std::min(own_parse, own_parse_seconds(files, json, 1));
    }
    for (const BestRun* run : {&lint_default, &lint_one}) {
        if (!run->best.ran || run->best.exit_code > 1) {
            std::printf("%s lint failed: exit %d\n%s\n", o.tfsift.c_str(), run->best.exit_code,
                        run->best.err.substr(0, 2000).c_str());
            return 1;
        }
    }
    auto print_command = [&](const char* name, const BestRun& run) {
        std::printf(
            "%-27s %.3f s wall, %.3f s processor (user %.3f, system %.3f; least %.3f), peak RSS %.1f MB "
            "= %.2fx the configuration bytes\n",
            name, run.best.wall, run.best.cpu(), run.best.user, run.best.system, run.cpu_min, run.rss_max / 1e6,
            run.rss_max / bytes);
    };
    std::printf("the command, text report to /dev/null (%s)\n", o.tfsift.c_str());
    print_command("tfsift lint -r", lint_default);
    print_command("tfsift lint -r --jobs 1", lint_one);
    std::printf("files                       %zu configuration files, %.1f MB; %s\n", files.size(), bytes / 1e6,
                files_read_line(lint_default.best.err).c_str());
    std::printf("tfsift's own parse, 1 thread %.3f s (the same files, in process)\n", own_parse);
    std::printf("lint -r --jobs 1 / own parse %.2f (wall), %.2f (processor)\n", lint_one.best.wall / own_parse,
                lint_one.best.cpu() / own_parse);
    if (!o.hclbench.empty()) {
        std::printf("Go hcl parse -j 1           best round %.3f s; its process %.3f s wall, %.3f s processor\n",
                    go_round, go_process.best.wall, go_process.best.cpu());
        std::printf("tfsift lint -r / Go parse -j 1            %.3f\n", lint_default.best.wall / go_round);
        std::printf("tfsift lint -r --jobs 1 / Go parse -j 1   %.3f\n", lint_one.best.wall / go_round);
    }
    if (o.instructions) {
        const double instructions = count_instructions({o.tfsift, "lint", "-r", "--jobs", "1", o.corpus});
        std::printf("instructions                %.0f for tfsift lint -r --jobs 1 (callgrind), %.1f per byte\n",
                    instructions, instructions / bytes);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse_options(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each figure as soon as it is measured
    if (!fs::is_directory(o.corpus)) usage("no directory " + o.corpus);
    const unsigned cores = tfsift::available_processors();

    std::printf("corpus              %s\n", o.corpus.c_str());
    std::printf("rounds              %d, interleaved (best of each reported)\n", o.rounds);
    std::printf("load average        %s (before)\n", load_averages().c_str());
    lint_in_child({o.corpus}, cores);  // pages in the corpus

    std::printf("in process, through the lint session\n");
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
    std::printf("load average        %s (after the timed runs)\n", load_averages().c_str());

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

    std::printf("\n");
    if (command_figures(o) != 0) return 1;
    std::printf("load average        %s (after)\n", load_averages().c_str());

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
