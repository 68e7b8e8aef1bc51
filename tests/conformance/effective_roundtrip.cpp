// effective_roundtrip: the effective configuration written as HCL, loaded
// again as a module tree, gives the same effective document, origins aside.
//
// Usage: effective_roundtrip --shared DIR [--excuses FILE] [--jobs N]
//                            [--show N] [--only REPO/DIR]
//
// The directories are those the reference effective documents cover
// (DIR/conformance/expected/effective/*.jsonl.gz, one {"dir", "doc"} line per
// corpus directory of DIR/corpus/REPO). For each one:
//
//   1. the module tree is loaded as `tfsift effective DIR` loads it, giving
//      the JSON document A and the HCL text of every module (the sections
//      `tfsift effective DIR --format hcl` prints, one per module);
//   2. each module's section is written as `effective.tf` into a fresh
//      temporary directory laid out like the original tree: a module whose
//      directory is `modules/net` relative to the root goes to
//      ROOT/modules/net, so the written module calls (`./modules/net`,
//      `../shared`) reach the written children. The root is nested deep
//      enough that `..` paths stay inside the temporary directory;
//   3. that root is loaded again, giving document B;
//   4. the module trees of A and B are compared whole after removing what
//      names source positions or files: every `origin` and `overridden_by`
//      and each module's `files`. Diagnostics, without their file, line and
//      column, are compared one way: B may not have one that A lacks. A's
//      own (duplicate declarations, syntax errors, deprecated forms) are
//      about files the merged text no longer contains.
//
// A directory that differs fails the test unless it is listed, with its
// reason, under "## Round trip" in docs/effective-differences.md as
// `- \`REPO/DIR\`: reason`. Prints the count of identical directories.
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "tfsift/config/effective_document.hpp"
#include "tfsift/config/effective_hcl.hpp"
#include "tfsift/config/module_tree.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Options {
    std::string shared = TFSIFT_SHARED_DIR;
    std::string excuses;
    unsigned jobs = 2;
    std::size_t show = 8;
    std::string only;
};

[[noreturn]] void usage(const std::string& message) {
    std::fprintf(stderr,
                 "effective_roundtrip: %s\nusage: effective_roundtrip --shared DIR [--excuses FILE] [--jobs N] "
                 "[--show N] [--only REPO/DIR]\n",
                 message.c_str());
    std::exit(2);
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage("missing value after " + arg);
            return argv[++i];
        };
        if (arg == "--shared") {
            o.shared = value();
        } else if (arg == "--excuses") {
            o.excuses = value();
        } else if (arg == "--jobs") {
            o.jobs = static_cast<unsigned>(std::max(1, std::atoi(value().c_str())));
        } else if (arg == "--show") {
            o.show = static_cast<std::size_t>(std::max(0, std::atoi(value().c_str())));
        } else if (arg == "--only") {
            o.only = value();
        } else {
            usage("unknown argument " + arg);
        }
    }
    return o;
}

struct Item {
    std::string repo;
    std::string dir;
    [[nodiscard]] std::string key() const { return repo + "/" + dir; }
};

std::string gunzip(const fs::path& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (f == nullptr) usage("cannot open " + path.string());
    std::string out;
    char buf[1 << 16];
    for (int n; (n = gzread(f, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
    gzclose(f);
    return out;
}

// The "dir" of one {"dir", "doc"} line, read without decoding the document.
std::string dir_of_record(std::string_view line) {
    const std::string_view key = "\"dir\":";
    std::size_t at = line.find(key);
    if (at == std::string_view::npos) usage("a reference line without \"dir\"");
    std::size_t open = line.find('"', at + key.size());
    std::size_t close = open;
    while (close != std::string_view::npos) {
        close = line.find('"', close + 1);
        if (close == std::string_view::npos) break;
        std::size_t backslashes = 0;
        for (std::size_t k = close; k > open && line[k - 1] == '\\'; --k) ++backslashes;
        if (backslashes % 2 == 0) break;
    }
    if (open == std::string_view::npos || close == std::string_view::npos) usage("a reference line with a bad \"dir\"");
    return json::parse(line.substr(open, close - open + 1)).get<std::string>();
}

// The corpus directories the reference documents cover, in file order.
std::vector<Item> covered_directories(const fs::path& shared) {
    const fs::path expected = shared / "conformance" / "expected" / "effective";
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(expected, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.ends_with(".jsonl.gz")) files.push_back(it->path());
    }
    if (ec) usage("cannot list " + expected.string() + ": " + ec.message());
    std::sort(files.begin(), files.end());
    std::vector<Item> items;
    for (const auto& f : files) {
        std::string name = f.filename().string();
        std::string repo = name.substr(0, name.size() - std::string_view(".jsonl.gz").size());
        std::string text = gunzip(f);
        std::size_t start = 0;
        while (start < text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            if (end > start) items.push_back({repo, dir_of_record(std::string_view(text).substr(start, end - start))});
            start = end + 1;
        }
    }
    return items;
}

// The `- \`KEY\`: reason` lines under "## Round trip" in the differences document.
std::map<std::string, std::string> read_excuses(const std::string& path) {
    std::map<std::string, std::string> out;
    if (path.empty()) return out;
    std::ifstream in(path);
    if (!in) usage("cannot read " + path);
    static const std::regex excuse(R"(^[-*] `([^`]+)`: (.+)$)");
    bool in_section = false;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("## ")) {
            in_section = line == "## Round trip";
            continue;
        }
        std::smatch m;
        if (in_section && std::regex_match(line, m, excuse)) out[m[1]] = m[2];
    }
    return out;
}

// Removes what names source positions or files, so that two documents of
// the same configuration written in different files compare equal.
void strip_positions(json& v) {
    if (v.is_object()) {
        v.erase("origin");
        v.erase("overridden_by");
        v.erase("files");
        for (auto& [k, e] : v.items()) strip_positions(e);
    } else if (v.is_array()) {
        for (auto& e : v) strip_positions(e);
    }
}

// The diagnostics without positions, sorted.
json comparable_diagnostics(const json& diagnostics) {
    json out = diagnostics;
    for (auto& d : out) {
        for (const char* k : {"file", "line", "column", "end_line", "end_column"}) d.erase(k);
    }
    std::sort(out.begin(), out.end(), [](const json& a, const json& b) { return a.dump() < b.dump(); });
    return out;
}

// The diagnostics of `written` that `original` does not have (as a multiset).
std::vector<json> new_diagnostics(const json& original, const json& written) {
    json pool = comparable_diagnostics(original);
    std::vector<json> extra;
    for (const auto& d : comparable_diagnostics(written)) {
        auto it = std::find(pool.begin(), pool.end(), d);
        if (it == pool.end()) {
            extra.push_back(d);
        } else {
            pool.erase(it);
        }
    }
    return extra;
}

void collect_modules(const tfsift::config::LoadedModule& m, std::vector<const tfsift::config::LoadedModule*>& out) {
    out.push_back(&m);
    for (const auto& [name, child] : m.children) collect_modules(child, out);
}

// How many `..` steps a module directory (relative to the root) climbs.
int climb(const std::string& dir) {
    int up = 0;
    int depth = 0;
    for (const auto& part : fs::path(dir).lexically_normal()) {
        const std::string s = part.string();
        if (s == "..") {
            --depth;
            up = std::max(up, -depth);
        } else if (!s.empty() && s != ".") {
            ++depth;
        }
    }
    return up;
}

struct Result {
    std::string key;
    bool same = false;
    std::vector<std::string> differences;
};

class Scratch {
public:
    explicit Scratch(const std::string& tag) {
        std::random_device rd;
        path = fs::temp_directory_path() / ("tfsift-roundtrip-" + tag + "-" + std::to_string(rd()));
        fs::create_directories(path);
    }
    ~Scratch() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    fs::path path;
};

Result round_trip(const fs::path& corpus, const Item& item, std::size_t index, std::size_t show) {
    Result r{item.key()};
    auto original = tfsift::config::load_module_tree((corpus / item.repo / item.dir).string());
    if (!original.root) {
        r.differences.emplace_back("the directory cannot be read");
        return r;
    }
    std::vector<const tfsift::config::LoadedModule*> modules;
    collect_modules(*original.root, modules);
    int up = 0;
    for (const auto* m : modules) up = std::max(up, climb(m->dir));

    Scratch scratch(std::to_string(index));
    fs::path root = scratch.path;
    for (int i = 0; i < up; ++i) root /= "r";
    std::map<fs::path, std::string> written;
    for (const auto* m : modules) {
        const fs::path dir = (root / m->dir).lexically_normal();
        std::string text = tfsift::config::module_hcl(*m);
        auto [it, fresh] = written.emplace(dir, text);
        if (!fresh) {
            // The same directory called twice is the same module.
            if (it->second != text)
                r.differences.push_back("module directory " + m->dir + " gives two different texts");
            continue;
        }
        fs::create_directories(dir);
        std::ofstream(dir / "effective.tf", std::ios::binary) << text;
    }
    auto again = tfsift::config::load_module_tree(root.string());
    if (!again.root) {
        r.differences.emplace_back("the written directory cannot be read");
        return r;
    }
    json a = tfsift::config::effective_document(original.root.get(), original.diagnostics);
    json b = tfsift::config::effective_document(again.root.get(), again.diagnostics);
    // The original's diagnostics are about its own files (duplicates,
    // syntax errors, deprecated forms) that the merged text no longer has;
    // the written module must not add any of its own.
    for (const auto& d : new_diagnostics(a["diagnostics"], b["diagnostics"])) {
        if (r.differences.size() >= show) break;
        std::string text = d.dump();
        if (text.size() > 300) text = text.substr(0, 300) + "...";
        r.differences.push_back("new diagnostic " + text);
    }
    a = a["root"];
    b = b["root"];
    strip_positions(a);
    strip_positions(b);
    if (a == b && r.differences.empty()) {
        r.same = true;
        return r;
    }
    for (const auto& op : json::diff(a, b)) {
        if (r.differences.size() >= show) {
            r.differences.emplace_back("...");
            break;
        }
        std::string line = op.at("op").get<std::string>() + " " + op.at("path").get<std::string>();
        if (op.contains("value")) {
            std::string v = op["value"].dump();
            if (v.size() > 200) v = v.substr(0, 200) + "...";
            line += " -> " + v;
        }
        if (op.at("op") != "add") {
            auto ptr = json::json_pointer(op.at("path").get<std::string>());
            if (a.contains(ptr)) {
                std::string was = a.at(ptr).dump();
                if (was.size() > 200) was = was.substr(0, 200) + "...";
                line += "  (was " + was + ")";
            }
        }
        r.differences.push_back(line);
    }
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    Options o = parse_options(argc, argv);
    const fs::path corpus = fs::path(o.shared) / "corpus";
    std::vector<Item> items = covered_directories(o.shared);
    if (!o.only.empty()) {
        std::erase_if(items, [&](const Item& i) { return i.key() != o.only; });
        if (items.empty()) usage("no covered directory " + o.only);
    }
    if (items.empty()) usage("no reference documents under " + o.shared);
    auto excused = read_excuses(o.excuses);

    auto start = std::chrono::steady_clock::now();
    std::vector<Result> results(items.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < items.size();) {
            try {
                results[i] = round_trip(corpus, items[i], i, o.show);
            } catch (const std::exception& e) {
                results[i] = Result{items[i].key(), false, {std::string("exception: ") + e.what()}};
            }
        }
    };
    std::vector<std::thread> threads;
    for (unsigned j = 0; j < o.jobs; ++j) threads.emplace_back(work);
    for (auto& t : threads) t.join();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::size_t same = 0;
    std::size_t excused_count = 0;
    std::size_t unexcused = 0;
    std::set<std::string> keys;
    for (const auto& r : results) {
        keys.insert(r.key);
        if (r.same) {
            ++same;
            continue;
        }
        auto ex = excused.find(r.key);
        if (ex != excused.end()) {
            ++excused_count;
            std::printf("DIFF %s (excused: %s)\n", r.key.c_str(), ex->second.c_str());
        } else {
            ++unexcused;
            std::printf("DIFF %s\n", r.key.c_str());
        }
        for (const auto& d : r.differences) std::printf("    %s\n", d.c_str());
    }
    for (const auto& [key, reason] : excused) {
        if (keys.count(key) == 0) {
            if (o.only.empty()) std::printf("excused %s is not a covered directory\n", key.c_str());
        } else {
            auto it = std::find_if(results.begin(), results.end(), [&](const Result& r) { return r.key == key; });
            if (it->same) std::printf("excused %s is now identical: remove it from the list\n", key.c_str());
        }
    }
    std::printf("effective round trip: %zu/%zu directories identical (%zu excused, %zu differ) in %.1f s\n", same,
                results.size(), excused_count, unexcused, secs);
    return unexcused == 0 ? 0 : 1;
}
