// scaling_bench: how the cost of one unit of input grows with the amount of
// input, for every dimension a hostile or merely large repository can push:
//
//   files per module       one module of N files, one resource each
//   diagnostics per file   one file of N blocks the loader rejects
//   findings per line      a one-line .tf.json with N findings of rule checks (SARIF report)
//   modules per tree       a root module with N module calls
//   lock-file size         a lock file of N providers (`tfsift debug lock`)
//   providers to repair    a root module requiring N providers its lock file lacks
//   providers in state     a state file naming N providers its lock file lacks
//   unused locals          N local values nothing refers to
//   undeclared providers   N resources whose type names a provider the module's
//                          required_providers leaves out (one finding each)
//   names alike            N variables whose names share their length and ends,
//                          each referred to by a local value (hash tables of
//                          names must not slow down on them)
//   inline ignores         N `# tfsift-ignore:` comments, each suppressing a finding
//   versions per list      a registry versions list of N versions, decoded in-process
//   ** per glob            an `exclude` glob with N `**` segments, matched in-process
//                          against a 25-segment path it does not match (the
//                          total column is the time of one match)
//
// Each dimension is measured from its smallest to its largest size; the
// figure is the time divided by N (time per unit), best of --rounds runs.
// The time is the CPU time (user + system) of the tfsift process, so that
// other jobs on a busy machine do not distort the ratios; --wall takes the
// wall time instead. Linear work keeps the time per unit flat; the last column of each
// dimension is the ratio of its largest size's time per unit to its smallest
// size's, which should stay within 2x (a quadratic cost would grow it with
// the size ratio, 50x for files per module).
//
// Every dimension but the glob runs the tfsift binary as a user does (reading,
// parsing, loading, every default rule, a report thrown away), so the time
// includes start-up; the smallest sizes are chosen large enough for start-up
// to matter little.
//
// Usage: scaling_bench [--rounds N] [--quick] [--wall] [--tfsift PATH]
//   --rounds  timed runs per size; the best is reported (default 2)
//   --quick   the smaller half of the sizes (for a fast look)
//   --wall    wall time instead of CPU time
//   --tfsift  the tfsift binary (default: the one beside this program)
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "tfsift/lint/glob.hpp"
#include "tfsift/net/registry_client.hpp"

extern char** environ;

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

bool use_wall_time = false;  // --wall

struct Options {
    int rounds = 2;
    bool quick = false;
    std::string tfsift;
};

[[noreturn]] void usage(const std::string& message) {
    std::fprintf(stderr, "scaling_bench: %s\nusage: scaling_bench [--rounds N] [--quick] [--wall] [--tfsift PATH]\n",
                 message.c_str());
    std::exit(2);
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--rounds" && i + 1 < argc) {
            o.rounds = std::atoi(argv[++i]);
            if (o.rounds < 1) usage("--rounds must be at least 1");
        } else if (arg == "--quick") {
            o.quick = true;
        } else if (arg == "--wall") {
            use_wall_time = true;
        } else if (arg == "--tfsift" && i + 1 < argc) {
            o.tfsift = argv[++i];
        } else {
            usage("unknown argument " + arg);
        }
    }
    if (o.tfsift.empty()) o.tfsift = (fs::read_symlink("/proc/self/exe").parent_path() / "tfsift").string();
    if (!fs::exists(o.tfsift)) usage("no tfsift binary at " + o.tfsift + " (use --tfsift)");
    return o;
}

// Runs a command with stdout and stderr thrown away; returns its CPU time
// (user + system, all threads) or with --wall its wall time, in seconds, or
// a negative number when it did not exit with 0 or 1 (a crash, a usage
// error).
double run(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    auto start = Clock::now();
    pid_t pid = 0;
    int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) return -1;
    if (!use_wall_time) {
        auto seconds = [](const timeval& tv) {
            return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
        };
        return seconds(usage.ru_utime) + seconds(usage.ru_stime);
    }
    return wall;
}

void write_file(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) {
        std::fprintf(stderr, "scaling_bench: cannot write %s\n", path.c_str());
        std::exit(2);
    }
}

struct Dimension {
    std::string name;
    std::string unit;
    std::vector<std::size_t> sizes;
    // Builds the input of size n in `dir` and returns the command to time
    // (or an empty one when `measure` does the timing in-process).
    std::function<std::vector<std::string>(const fs::path& dir, std::size_t n)> prepare;
    std::function<double(std::size_t n)> measure;  // in-process dimensions
};

// The command most dimensions time: a lint of `dir` with one job and a JSON
// report.
std::vector<std::string> lint_json(const std::string& tfsift, const fs::path& dir) {
    return {tfsift, "lint", "--jobs", "1", "--format", "json", dir.string()};
}

// The two lines `terraform init` starts a lock file with.
constexpr const char* lock_file_header =
    "# This file is maintained automatically by \"terraform init\".\n"
    "# Manual edits may be lost in future updates.\n";

std::vector<Dimension> dimensions(const Options& o) {
    std::vector<Dimension> d;
    const std::string& t = o.tfsift;
    d.push_back({"files per module",
                 "file",
                 {1000, 5000, 20000, 50000},
                 [t](const fs::path& dir, std::size_t n) {
                     for (std::size_t i = 0; i < n; ++i) {
                         write_file(dir / ("f" + std::to_string(i) + ".tf"),
                                    "resource \"aws_instance\" \"r" + std::to_string(i) + "\" {\n  ami = \"x\"\n}\n");
                     }
                     return lint_json(t, dir);
                 },
                 nullptr});
    d.push_back({"diagnostics per file",
                 "diagnostic",
                 {1000, 4000, 10000, 40000},
                 [t](const fs::path& dir, std::size_t n) {
                     std::string text;
                     for (std::size_t i = 0; i < n; ++i) text += "not_a_block_" + std::to_string(i) + " {\n}\n";
                     write_file(dir / "main.tf", text);
                     return lint_json(t, dir);
                 },
                 nullptr});
    d.push_back({"findings per line",
                 "finding",
                 {1000, 5000, 20000, 50000},
                 [t](const fs::path& dir, std::size_t n) {
                     // n/2 resources, each naming a provider configuration
                     // nobody declares: two findings of rule checks each.
                     std::string text = "{\"resource\":{";
                     for (std::size_t i = 0; i < n / 2; ++i) {
                         if (i > 0) text += ',';
                         text += "\"p" + std::to_string(i) + "_thing\":{\"r\":{\"provider\":\"p" + std::to_string(i) +
                                 ".alias\"}}";
                     }
                     text += "}}";
                     write_file(dir / "main.tf.json", text);
                     // provider-alias-undeclared is in the strict preset.
                     return std::vector<std::string>{t,        "lint",     "--jobs", "1",         "--preset",
                                                     "strict", "--format", "sarif",  dir.string()};
                 },
                 nullptr});
    d.push_back({"modules per tree",
                 "module",
                 {200, 1000, 3000, 9000},
                 [t](const fs::path& dir, std::size_t n) {
                     write_file(dir / "m" / "main.tf",
                                "variable \"v\" {}\nresource \"aws_instance\" \"r\" {\n  ami = var.v\n}\n");
                     std::string text;
                     for (std::size_t i = 0; i < n; ++i) {
                         text += "module \"c" + std::to_string(i) + "\" {\n  source = \"./m\"\n  v = \"x\"\n}\n";
                     }
                     write_file(dir / "main.tf", text);
                     return lint_json(t, dir);
                 },
                 nullptr});
    d.push_back({"lock-file size",
                 "provider",
                 {500, 2000, 10000, 40000},
                 [t](const fs::path& dir, std::size_t n) {
                     std::string text = lock_file_header;
                     for (std::size_t i = 0; i < n; ++i) {
                         text += "\nprovider \"registry.terraform.io/hashicorp/p" + std::to_string(i) +
                                 "\" {\n  version     = \"1.2.3\"\n  constraints = \"~> 1.2\"\n  hashes = [\n"
                                 "    \"h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\",\n  ]\n}\n";
                     }
                     write_file(dir / ".terraform.lock.hcl", text);
                     return std::vector<std::string>{t, "debug", "lock", (dir / ".terraform.lock.hcl").string()};
                 },
                 nullptr});
    // A root module requiring N providers, with a lock file that names none
    // and no package on disk: one lock-missing-provider finding and one
    // unrepairable problem per provider.
    d.push_back({"providers to repair",
                 "provider",
                 {1000, 2500, 5000, 10000},
                 [t](const fs::path& dir, std::size_t n) {
                     std::string text = "terraform {\n  required_providers {\n";
                     for (std::size_t i = 0; i < n; ++i) {
                         text += "    p" + std::to_string(i) + " = {\n      source  = \"hashicorp/p" +
                                 std::to_string(i) + "\"\n      version = \"~> 1.0\"\n    }\n";
                     }
                     text += "  }\n}\n";
                     write_file(dir / "main.tf", text);
                     write_file(dir / ".terraform.lock.hcl", lock_file_header);
                     return lint_json(t, dir);
                 },
                 nullptr});
    // The same providers named only by the resources of a state file.
    d.push_back({"providers in state",
                 "provider",
                 {1000, 2500, 5000, 10000},
                 [t](const fs::path& dir, std::size_t n) {
                     std::string state = R"({"version": 4, "terraform_version": "1.5.7", "serial": 1, "lineage": "x",
  "outputs": {}, "resources": [)";
                     for (std::size_t i = 0; i < n; ++i) {
                         if (i > 0) state += ",";
                         state += "\n{\"mode\": \"managed\", \"type\": \"p" + std::to_string(i) +
                                  "_thing\", \"name\": \"r\", \"provider\": "
                                  "\"provider[\\\"registry.terraform.io/hashicorp/p" +
                                  std::to_string(i) + "\\\"]\", \"instances\": []}";
                     }
                     state += "]}\n";
                     write_file(dir / "terraform.tfstate", state);
                     write_file(dir / "main.tf", "locals {}\n");
                     write_file(dir / ".terraform.lock.hcl", lock_file_header);
                     return lint_json(t, dir);
                 },
                 nullptr});
    // N local values nothing uses: one unused-declaration finding each.
    d.push_back({"unused locals",
                 "local",
                 {10000, 20000, 40000, 80000},
                 [t](const fs::path& dir, std::size_t n) {
                     std::string text = "locals {\n";
                     for (std::size_t i = 0; i < n; ++i) text += "  l" + std::to_string(i) + " = 1\n";
                     text += "}\n";
                     write_file(dir / "main.tf", text);
                     return lint_json(t, dir);
                 },
                 nullptr});
    // N resources of a provider that required_providers leaves out: one
    // resource-provider-unresolved finding each, with the range of its type.
    d.push_back(
        {"undeclared providers",
         "resource",
         {5000, 10000, 20000, 40000},
         [t](const fs::path& dir, std::size_t n) {
             std::string text =
                 "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n    }\n  }\n}\n";
             for (std::size_t i = 0; i < n; ++i)
                 text += "resource \"null_resource\" \"r" + std::to_string(i) + "\" {}\n";
             write_file(dir / "main.tf", text);
             return lint_json(t, dir);
         },
         nullptr});
    // N variables named alike (one length, one first and last eight
    // bytes), each referred to by a local value: the reference checks look
    // every one up in tables of names.
    d.push_back({"names alike",
                 "variable",
                 {5000, 10000, 20000, 40000},
                 [t](const fs::path& dir, std::size_t n) {
                     auto name = [](std::size_t i) {
                         std::string digits = std::to_string(i);
                         return "abcdefgh_" + std::string(6 - std::min<std::size_t>(6, digits.size()), '0') + digits +
                                "_abcdefgh";
                     };
                     std::string text;
                     for (std::size_t i = 0; i < n; ++i) text += "variable \"" + name(i) + "\" {}\n";
                     text += "locals {\n";
                     for (std::size_t i = 0; i < n; ++i) text += "  l" + std::to_string(i) + " = var." + name(i) + "\n";
                     text += "}\n";
                     write_file(dir / "main.tf", text);
                     return lint_json(t, dir);
                 },
                 nullptr});
    // N inline ignore comments, each suppressing the finding below it.
    d.push_back({"inline ignores",
                 "comment",
                 {5000, 10000, 20000, 40000},
                 [t](const fs::path& dir, std::size_t n) {
                     std::string text;
                     for (std::size_t i = 0; i < n; ++i) {
                         text += "# tfsift-ignore: unused-declaration\nvariable \"v" + std::to_string(i) +
                                 "\" {\n  type = string\n}\n";
                     }
                     write_file(dir / "main.tf", text);
                     return lint_json(t, dir);
                 },
                 nullptr});
    // A registry's versions list of N versions, decoded in-process (what
    // `tfsift lock` does with the answer; the total is the time of one decode).
    d.push_back({"versions per list", "version", {25000, 50000, 100000, 200000}, nullptr, [](std::size_t n) {
                     std::string body = "{\"versions\": [";
                     for (std::size_t i = 0; i < n; ++i) {
                         if (i > 0) body += ',';
                         body += "{\"version\": \"" + std::to_string(i / 1000) + "." + std::to_string(i % 1000) +
                                 ".0\", \"protocols\": [\"5.0\"], \"platforms\": [{\"os\": \"linux\", "
                                 "\"arch\": \"amd64\"}]}";
                     }
                     body += "]}";
                     auto start = Clock::now();
                     const auto list =
                         tfsift::net::decode_version_list(body, "https://registry.example/v1/x/y/versions");
                     double seconds = std::chrono::duration<double>(Clock::now() - start).count();
                     if (list.versions.size() != n)
                         std::fprintf(stderr, "scaling_bench: the versions list lost some\n");
                     return seconds;
                 }});
    d.push_back({"** per glob", "**", {2, 4, 12, 24}, nullptr, [](std::size_t n) {
                     // The worst case for a backtracking matcher: every `**`
                     // may stand for any run of segments and the last segment
                     // never matches.
                     std::string pattern;
                     for (std::size_t i = 0; i < n; ++i) pattern += "**/";
                     pattern += "nothing.tf";
                     tfsift::lint::PathGlob glob(pattern);
                     std::string path;
                     for (int i = 0; i < 24; ++i) path += "dir" + std::to_string(i) + "/";
                     path += "main.tf";
                     constexpr int matches = 2000;
                     auto start = Clock::now();
                     int hits = 0;
                     for (int i = 0; i < matches; ++i) hits += glob.matches(path) ? 1 : 0;
                     double seconds = std::chrono::duration<double>(Clock::now() - start).count();
                     if (hits != 0) std::fprintf(stderr, "scaling_bench: the glob matched unexpectedly\n");
                     return seconds / matches;
                 }});
    if (o.quick) {
        for (auto& dim : d) dim.sizes.resize(dim.sizes.size() / 2);
    }
    return d;
}

}  // namespace

int main(int argc, char** argv) {
    Options o = parse_options(argc, argv);
    char pattern[] = "/tmp/tfsift-scaling-XXXXXX";
    if (mkdtemp(pattern) == nullptr) usage("cannot make a temporary directory");
    const fs::path scratch = pattern;
    std::printf("scaling_bench: %s time per unit, best of %d run%s; tfsift %s\n\n", use_wall_time ? "wall" : "CPU",
                o.rounds, o.rounds == 1 ? "" : "s", o.tfsift.c_str());
    std::printf("%-22s %10s %12s %16s\n", "dimension", "size", "total", "per unit");
    bool all_within = true;
    for (const Dimension& dim : dimensions(o)) {
        double first = 0;
        double last = 0;
        bool failed = false;
        for (std::size_t n : dim.sizes) {
            double best = -1;
            std::vector<std::string> command;
            const fs::path dir = scratch / "input";
            if (dim.prepare) {
                fs::remove_all(dir);
                command = dim.prepare(dir, n);
            }
            for (int r = 0; r < o.rounds; ++r) {
                double s = dim.measure ? dim.measure(n) : run(command);
                if (s < 0) {
                    failed = true;
                    break;
                }
                best = best < 0 ? s : std::min(best, s);
            }
            if (failed) {
                std::printf("%-22s %10zu  the run failed (crash or exit status above 1)\n", dim.name.c_str(), n);
                break;
            }
            const double per_unit = best / static_cast<double>(n);
            if (first == 0) first = per_unit;
            last = per_unit;
            std::printf("%-22s %10zu %11.4fs %13.3f us/%s\n", dim.name.c_str(), n, best, per_unit * 1e6,
                        dim.unit.c_str());
            std::fflush(stdout);
        }
        if (!failed && first > 0) {
            const double ratio = last / first;
            all_within = all_within && ratio <= 2.0;
            std::printf("%-22s largest/smallest time per unit: %.2fx (%zu -> %zu)\n\n", dim.name.c_str(), ratio,
                        dim.sizes.front(), dim.sizes.back());
        } else {
            all_within = false;
            std::printf("\n");
        }
    }
    fs::remove_all(scratch);
    std::printf("%s\n", all_within ? "every dimension within 2x of linear" : "NOT every dimension within 2x of linear");
    return all_within ? 0 : 1;
}
