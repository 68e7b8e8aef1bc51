// The loader's diagnostic codes and the rules that claim them: every code is
// unique and kebab-case, every claimed code exists and has exactly one
// owner (a code nobody claims falls to `invalid-configuration`), every
// diagnostic the loader makes outside parsing carries a code, and no rule
// looks at a diagnostic's wording.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "tfsift/config/module_tree.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/rules/catalogue.hpp"

namespace fs = std::filesystem;
using namespace tfsift;

namespace {

bool kebab_case(std::string_view s) {
    if (s.empty() || s.front() == '-' || s.back() == '-') return false;
    for (char c : s) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    }
    return s.find("--") == std::string_view::npos;
}

bool is_config_file(const fs::path& p) {
    const std::string name = p.filename().string();
    return name.ends_with(".tf") || name.ends_with(".tf.json") || name.ends_with(".tofu") ||
           name.ends_with(".tofu.json");
}

// Every directory below `root` that holds configuration files.
std::vector<fs::path> module_dirs(const fs::path& root) {
    std::set<fs::path> out;
    if (!fs::is_directory(root)) return {};
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
        if (it->is_directory() && it->path().filename() == ".terraform") {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file() && is_config_file(it->path())) out.insert(it->path().parent_path());
    }
    return {out.begin(), out.end()};
}

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("diagnostic codes are unique kebab-case ids", "[diagnostic-codes]") {
    std::set<std::string_view> seen;
    for (std::string_view c : all_diagnostic_codes) {
        INFO(c);
        CHECK(kebab_case(c));
        CHECK(seen.insert(c).second);
    }
    CHECK(seen.size() > 100);
}

TEST_CASE("every claimed diagnostic code exists and has exactly one owner", "[diagnostic-codes]") {
    const std::set<std::string_view> known(all_diagnostic_codes.begin(), all_diagnostic_codes.end());
    std::map<std::string_view, std::vector<std::string>> owners;
    for (const lint::Rule& r : lint::builtin_rules()) {
        for (std::string_view c : r.claimed_codes) owners[c].push_back(r.id);
        if (r.claim_only_if) {
            INFO(r.id << " narrows a claim of no code");
            CHECK_FALSE(r.claimed_codes.empty());
        }
    }
    for (const auto& [code, rules] : owners) {
        INFO("code " << code << " claimed by " << rules.size() << " rule(s), first " << rules.front());
        CHECK(known.count(code) == 1);
        CHECK(rules.size() == 1);
    }
    // The fallbacks claim nothing: what no rule claims is theirs.
    for (std::string_view id : {lint::invalid_configuration_rule_id, lint::syntax_error_rule_id}) {
        const lint::Rule* r = lint::find_builtin_rule(id);
        REQUIRE(r != nullptr);
        CHECK(r->claimed_codes.empty());
    }
    // Codes nobody claims exist (they go to invalid-configuration), and
    // claimed ones are a minority: a sanity check that the map is not empty.
    CHECK(owners.size() > 20);
    CHECK(owners.size() < known.size());
}

TEST_CASE("every diagnostic of loading carries a known code", "[diagnostic-codes]") {
    const std::set<std::string_view> known(all_diagnostic_codes.begin(), all_diagnostic_codes.end());
    std::vector<fs::path> dirs = module_dirs(fs::path(TFSIFT_SOURCE_DIR) / "fixtures" / "rules");
    for (const char* suite : {"opentofu-configs", "terraform-v1.3.10", "validate"}) {
        auto more = module_dirs(fs::path(TFSIFT_SHARED_DIR) / "conformance" / suite);
        dirs.insert(dirs.end(), more.begin(), more.end());
    }
    REQUIRE(dirs.size() > 100);
    std::size_t diagnostics = 0;
    std::set<std::string_view> codes_seen;
    for (const fs::path& dir : dirs) {
        for (Engine engine : {Engine::terraform, Engine::opentofu}) {
            config::TreeOptions options;
            options.engine = engine;
            config::LoadedTree tree = config::load_module_tree(dir.string(), options);
            for (const config::LoadDiagnostic& d : tree.diagnostics) {
                if (d.phase == config::LoadPhase::parse) continue;
                ++diagnostics;
                INFO(dir.string() << ": " << d.diagnostic.summary << ": " << d.diagnostic.detail);
                REQUIRE_FALSE(d.diagnostic.code.empty());
                REQUIRE(known.count(d.diagnostic.code) == 1);
                codes_seen.insert(d.diagnostic.code);
            }
        }
    }
    CHECK(diagnostics > 500);
    CHECK(codes_seen.size() > 50);
}

// Rules claim codes; a rule that compared a diagnostic's summary or detail
// would break silently when Terraform's wording is followed. The claiming
// API does not hand rules the text; this scan keeps them from fetching it
// elsewhere (LintContext's tree holds the diagnostics).
TEST_CASE("no rule compares diagnostic text", "[diagnostic-codes]") {
    const std::regex compares(
        R"((\bsummary|\bdetail)\s*[!=]=|(\bsummary|\bdetail)\s*\.\s*(find|rfind|starts_with|ends_with|compare|contains|substr)\s*\(|[=!]=\s*[a-z_.>-]*\b(summary|detail)\b|diagnostic\s*\.\s*(summary|detail)\b)");
    std::size_t scanned = 0;
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(TFSIFT_SOURCE_DIR) / "rules")) {
        if (!entry.is_regular_file()) continue;
        const std::string ext = entry.path().extension().string();
        if (ext != ".cpp" && ext != ".hpp") continue;
        ++scanned;
        std::istringstream in(read_text(entry.path()));
        std::string line;
        for (int n = 1; std::getline(in, line); ++n) {
            if (line.find("doc.") != std::string::npos) continue;  // a rule's own documentation
            INFO(entry.path().string() << ":" << n << ": " << line);
            CHECK_FALSE(std::regex_search(line, compares));
        }
    }
    CHECK(scanned > 50);
    // The scan itself catches the forms it is meant to.
    for (const char* bad :
         {R"(return d.diagnostic.summary == "Unsupported override";)", R"(if (s.summary.find("depends_on") != npos))",
          R"(p.detail.starts_with("Overriding"))", R"(if ("Invalid source" == d.summary))"}) {
        INFO(bad);
        CHECK(std::regex_search(std::string(bad), compares));
    }
}
