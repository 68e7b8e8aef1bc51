// load_bench: what loading and merging modules costs on top of parsing
// their files.
//
// Usage: load_bench [--rounds N] [CORPUS_DIR]
//   CORPUS_DIR  every directory under it holding configuration files is one
//               module (default ../shared/corpus)
//   --rounds    timed rounds; the best one of each kind is reported (default 5)
//
// Every configuration file (.tf, .tf.json, chosen and ordered as Terraform's
// loader does) is read into memory first, so both measurements start from the
// same bytes and neither touches the disk:
//
//   parse        parse_config_file on every file (native or JSON syntax);
//   load+merge   for every directory, the steps load_module_tree takes for one
//                module: parse each file, decode its blocks, combine the
//                primary files, apply the override files, finish the module.
//
// Module calls are not followed: every module directory of the corpus is
// loaded once, as it is parsed once. A round keeps its results until it is
// timed, so allocation is part of the cost and release is not.
//
// Each round is timed twice over: wall time, and the CPU time of the thread,
// which on a shared machine leaves out the time other processes ran. The
// best round of each kind is reported for both.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tfsift/config/decode.hpp"
#include "tfsift/config/module_files.hpp"
#include "tfsift/config/override_merger.hpp"
#include "tfsift/source.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace tfsift;

namespace {

struct Options {
    std::string corpus = "../shared/corpus";
    int rounds = 5;
};

[[noreturn]] void usage(const std::string& message) {
    std::fprintf(stderr, "load_bench: %s\nusage: load_bench [--rounds N] [CORPUS_DIR]\n", message.c_str());
    std::exit(2);
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--rounds") {
            if (i + 1 >= argc) usage("missing value after --rounds");
            o.rounds = std::max(1, std::atoi(argv[++i]));
        } else if (arg.starts_with("--")) {
            usage("unknown option " + arg);
        } else {
            o.corpus = arg;
        }
    }
    return o;
}

struct ModuleFile {
    std::shared_ptr<const SourceFile> source;
    config::FileSyntax syntax;
    bool is_override;
};

// One module directory: its configuration files in load order.
struct ModuleDir {
    std::string path;
    std::vector<ModuleFile> files;
};

std::vector<ModuleDir> read_corpus(const std::string& root) {
    std::vector<std::string> dirs{root};
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code ec2;
        if (it->is_directory(ec2) && !it->is_symlink(ec2)) dirs.push_back(it->path().string());
    }
    if (ec) usage("cannot walk " + root + ": " + ec.message());
    std::sort(dirs.begin(), dirs.end());
    std::vector<ModuleDir> out;
    for (const auto& d : dirs) {
        std::vector<std::string> names;
        for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code ec2;
            if (!it->is_directory(ec2)) names.push_back(it->path().filename().string());
        }
        auto selected = config::select_config_files(std::move(names), config::Engine::terraform);
        if (selected.empty()) continue;
        ModuleDir m{d, {}};
        for (const auto& f : selected) {
            try {
                m.files.push_back({SourceFile::read((fs::path(d) / f.name).string()), f.syntax,
                                   f.role == config::FileRole::override});
            } catch (const std::exception& e) {
                std::fprintf(stderr, "load_bench: skipping %s/%s: %s\n", d.c_str(), f.name.c_str(), e.what());
            }
        }
        if (!m.files.empty()) out.push_back(std::move(m));
    }
    return out;
}

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Wall and thread CPU seconds of one round.
struct RoundTime {
    double wall = 0;
    double cpu = 0;
};

class Stopwatch {
public:
    Stopwatch() : wall_start_(Clock::now()), cpu_start_(thread_cpu_seconds()) {}
    [[nodiscard]] RoundTime elapsed() const {
        return {std::chrono::duration<double>(Clock::now() - wall_start_).count(), thread_cpu_seconds() - cpu_start_};
    }

private:
    Clock::time_point wall_start_;
    double cpu_start_;
};

RoundTime best_of(RoundTime a, RoundTime b) { return {std::min(a.wall, b.wall), std::min(a.cpu, b.cpu)}; }

RoundTime parse_round(const std::vector<ModuleDir>& modules) {
    std::vector<std::unique_ptr<config::ParsedFile>> kept;
    Stopwatch watch;
    for (const auto& m : modules) {
        for (const auto& f : m.files) kept.push_back(config::parse_config_file(f.source, f.syntax));
    }
    return watch.elapsed();
}

// Everything a loaded module points into, kept until the round is timed:
// like load_module_tree's LoadedModule, the decoded files stay beside the
// merged module (the rules read both).
struct LoadedDir {
    std::vector<std::unique_ptr<config::ParsedFile>> parsed;
    std::vector<std::pair<config::ConfigFile, bool>> decoded;  // with is_override
    config::Module module;
    std::size_t diagnostics = 0;
};

LoadedDir load_and_merge(const ModuleDir& m) {
    LoadedDir out;
    out.decoded.reserve(m.files.size());
    for (const auto& f : m.files) {
        auto pf = config::parse_config_file(f.source, f.syntax);
        Diagnostics diags;
        out.decoded.emplace_back(config::decode_config_file(*pf, f.is_override, diags), f.is_override);
        out.diagnostics += pf->parse_diagnostics.size() + diags.size();
        out.parsed.push_back(std::move(pf));
    }
    config::OverrideMerger merger;
    for (const auto& [cf, is_override] : out.decoded) {
        if (!is_override) merger.add_primary(cf);
    }
    for (const auto& [cf, is_override] : out.decoded) {
        if (is_override) merger.apply_override(cf);
    }
    out.module = merger.finish();
    out.diagnostics += merger.diagnostics().size();
    return out;
}

std::pair<RoundTime, std::size_t> load_round(const std::vector<ModuleDir>& modules) {
    std::vector<LoadedDir> kept;
    kept.reserve(modules.size());
    Stopwatch watch;
    for (const auto& m : modules) kept.push_back(load_and_merge(m));
    RoundTime secs = watch.elapsed();
    std::size_t diagnostics = 0;
    for (const auto& k : kept) diagnostics += k.diagnostics;
    return {secs, diagnostics};
}

double mb_per_s(std::size_t bytes, double secs) { return static_cast<double>(bytes) / 1e6 / secs; }

}  // namespace

int main(int argc, char** argv) {
    Options o = parse_options(argc, argv);
    auto modules = read_corpus(o.corpus);
    if (modules.empty()) usage("no configuration files under " + o.corpus);
    std::size_t files = 0;
    std::size_t bytes = 0;
    for (const auto& m : modules) {
        files += m.files.size();
        for (const auto& f : m.files) bytes += f.source->size();
    }
    std::printf("corpus            %s\n", o.corpus.c_str());
    std::printf("module dirs       %zu\n", modules.size());
    std::printf("files             %zu\n", files);
    std::printf("bytes             %zu\n", bytes);

    // Warm-up: page in the code and let the allocator settle.
    parse_round(modules);
    auto [warm, diagnostics] = load_round(modules);
    (void)warm;
    std::printf("diagnostics       %zu (parse, decode and merge, all directories)\n", diagnostics);

    RoundTime best_parse{1e300, 1e300};
    RoundTime best_load{1e300, 1e300};
    for (int r = 0; r < o.rounds; ++r) {
        best_parse = best_of(best_parse, parse_round(modules));
        best_load = best_of(best_load, load_round(modules).first);
    }
    std::printf("rounds            %d, 1 thread (best reported)\n", o.rounds);
    std::printf("parse             %.4f s  %.1f MB/s  (CPU %.4f s)\n", best_parse.wall,
                mb_per_s(bytes, best_parse.wall), best_parse.cpu);
    std::printf("load+merge        %.4f s  %.1f MB/s  (CPU %.4f s)\n", best_load.wall, mb_per_s(bytes, best_load.wall),
                best_load.cpu);
    std::printf("overhead          %.1f %% on top of parsing (limit 50 %%)\n",
                (best_load.wall - best_parse.wall) / best_parse.wall * 100.0);
    std::printf("overhead, CPU     %.1f %% (thread CPU time)\n",
                (best_load.cpu - best_parse.cpu) / best_parse.cpu * 100.0);
    return 0;
}
