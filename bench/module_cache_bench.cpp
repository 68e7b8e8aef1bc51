// module_cache_bench: what loading remote modules from tfsift's module cache
// costs a lint. One root calls 50 registry modules that sit in a module
// cache made here (each verified against its digest before use, as every
// run does); a second root calls the same 50 modules vendored beside it
// (`./vendor/mN`). Both are linted in process through the session `tfsift
// lint` runs, offline, in interleaved rounds; the best time of each and
// their ratio are printed (the goal is at most 1.2).
//
// The modules are the first 50 module directories of the corpus without
// local module calls of their own (their .tf files copied), or generated
// ones when the corpus is not there.
//
// Usage: module_cache_bench [--rounds N] [--modules N] [CORPUS_DIR]
//   CORPUS_DIR   default ../shared/corpus
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tfsift/lint/session.hpp"
#include "tfsift/online/module_cache.hpp"
#include "tfsift/rules/catalogue.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Package {
    std::vector<std::pair<std::string, std::string>> files;  // name, text
};

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

std::vector<Package> corpus_packages(const fs::path& corpus, std::size_t count) {
    std::vector<Package> out;
    std::error_code ec;
    if (!fs::is_directory(corpus, ec)) return out;
    std::vector<fs::path> dirs;
    for (fs::recursive_directory_iterator it(corpus, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_directory()) dirs.push_back(it->path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const auto& dir : dirs) {
        if (out.size() == count) break;
        Package p;
        bool local_calls = false;
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(dir, ec)) {
            if (e.is_regular_file() && e.path().extension() == ".tf") files.push_back(e.path());
        }
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            std::string text = read(f);
            if (text.find("source = \"./") != std::string::npos || text.find("source = \"../") != std::string::npos ||
                text.find("source  = \"./") != std::string::npos || text.find("source  = \"../") != std::string::npos) {
                local_calls = true;
            }
            p.files.emplace_back(f.filename().string(), std::move(text));
        }
        if (!p.files.empty() && !local_calls && p.files.size() <= 20) out.push_back(std::move(p));
    }
    return out;
}

Package generated_package(std::size_t i) {
    std::string text;
    for (int v = 0; v < 20; ++v)
        text += fmt::format("variable \"v{}\" {{\n  type    = string\n  default = \"{}\"\n}}\n\n", v, i);
    for (int r = 0; r < 10; ++r) {
        text += fmt::format("resource \"null_resource\" \"r{}\" {{\n  triggers = {{ a = var.v{} }}\n}}\n\n", r, r);
    }
    for (int o = 0; o < 10; ++o) text += fmt::format("output \"o{}\" {{\n  value = null_resource.r{}.id\n}}\n\n", o, o);
    return Package{{{"main.tf", text}}};
}

struct Took {
    double wall = 0;
    double cpu = 0;  // user + system of the whole process (every worker thread)
};

double process_cpu_seconds() {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

Took lint_seconds(const std::string& root) {
    const double cpu_start = process_cpu_seconds();
    const auto start = Clock::now();
    tfsift::lint::LintRequest request;
    request.catalogue = tfsift::lint::builtin_rules();
    request.paths = {root};
    request.offline = true;
    const auto result = tfsift::lint::run_session(request);
    Took took{std::chrono::duration<double>(Clock::now() - start).count(), process_cpu_seconds() - cpu_start};
    if (!result.completed) std::fprintf(stderr, "module_cache_bench: the lint of %s did not complete\n", root.c_str());
    return took;
}

}  // namespace

int main(int argc, char** argv) {
    int rounds = 7;
    std::size_t count = 50;
    std::string corpus = "../shared/corpus";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--rounds" && i + 1 < argc) {
            rounds = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--modules" && i + 1 < argc) {
            count = static_cast<std::size_t>(std::max(1, std::atoi(argv[++i])));
        } else {
            corpus = arg;
        }
    }
    std::random_device rd;
    const fs::path work = fs::temp_directory_path() / fmt::format("tfsift-module-cache-bench-{:08x}", rd());
    auto packages = corpus_packages(corpus, count);
    const bool from_corpus = packages.size() == count;
    if (!from_corpus) {
        packages.clear();
        for (std::size_t i = 0; i < count; ++i) packages.push_back(generated_package(i));
    }

    // The module cache, filled as `tfsift fetch` would leave it.
    const fs::path cache_dir = work / "cache";
    const tfsift::online::ModuleCache cache(tfsift::online::module_cache_dir_in(cache_dir));
    std::string remote_calls;
    std::string vendored_calls;
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < packages.size(); ++i) {
        const std::string package = fmt::format("bench.example/bench/m{}/aws", i);
        std::string error;
        const fs::path staging = cache.new_staging_dir(error);
        for (const auto& [name, text] : packages[i].files) {
            write(staging / "tree" / name, text);
            write(work / "vendored" / "vendor" / fmt::format("m{}", i) / name, text);
            bytes += text.size();
        }
        tfsift::online::ModuleManifest manifest;
        manifest.package = package;
        manifest.resolved = "1.0.0";
        if (auto failed = cache.install(tfsift::online::ModuleCache::package_id(package, "1.0.0"), staging, manifest);
            !failed.empty()) {
            std::fprintf(stderr, "module_cache_bench: %s\n", failed.c_str());
            return 1;
        }
        cache.remember(fmt::format("registry {} 1.0.0", package), "1.0.0");
        remote_calls += fmt::format("module \"m{}\" {{\n  source  = \"{}\"\n  version = \"1.0.0\"\n}}\n\n", i, package);
        vendored_calls += fmt::format("module \"m{}\" {{\n  source = \"./vendor/m{}\"\n}}\n\n", i, i);
    }
    write(work / "remote" / "main.tf", remote_calls);
    write(work / "vendored" / "main.tf", vendored_calls);
    ::setenv("TFSIFT_CACHE_DIR", cache_dir.c_str(), 1);

    std::printf("module_cache_bench: %zu modules (%s, %.1f KiB of .tf), %d rounds\n", packages.size(),
                from_corpus ? "from the corpus" : "generated", static_cast<double>(bytes) / 1024.0, rounds);
    // A first untimed run of each warms the page cache.
    lint_seconds((work / "remote").string());
    lint_seconds((work / "vendored").string());
    // Best of the rounds, wall and CPU each: on a loaded machine the wall
    // time waits for the processor, the CPU time does not.
    Took remote{1e9, 1e9};
    Took vendored{1e9, 1e9};
    for (int r = 0; r < rounds; ++r) {
        const Took a = lint_seconds((work / "remote").string());
        const Took b = lint_seconds((work / "vendored").string());
        remote = {std::min(remote.wall, a.wall), std::min(remote.cpu, a.cpu)};
        vendored = {std::min(vendored.wall, b.wall), std::min(vendored.cpu, b.cpu)};
    }
    std::printf("                                     wall      CPU\n");
    std::printf("  remote modules from the cache: %8.2f ms %8.2f ms\n", remote.wall * 1000.0, remote.cpu * 1000.0);
    std::printf("  the same modules vendored:     %8.2f ms %8.2f ms\n", vendored.wall * 1000.0, vendored.cpu * 1000.0);
    std::printf("  ratio: %.2fx wall, %.2fx CPU (goal: at most 1.20x)\n", remote.wall / vendored.wall,
                remote.cpu / vendored.cpu);
    std::error_code ec;
    fs::remove_all(work, ec);
    return 0;
}
