// Remote module calls through a resolver: the modules.json resolver matching
// entries as Terraform's loader does, the resolver chain, and the loader
// with what a resolver answers (a directory outside the root, an
// unavailable call, a local path that escapes its package).
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>

#include "support/scratch_dir.hpp"
#include "tfsift/config/installed_modules.hpp"
#include "tfsift/config/module_source_resolver.hpp"
#include "tfsift/config/module_tree.hpp"
#include "tfsift/config/paths.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/module_resolution.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/rules/catalogue.hpp"

using namespace tfsift;
using namespace tfsift::config;
using tfsift::testing::ScratchDir;
using tfsift::testing::write_file;
namespace fs = std::filesystem;

namespace {

ModuleRequest registry_request(const std::string& root, std::vector<std::string> path, const std::string& source,
                               const std::string& version) {
    ModuleRequest r;
    r.root_dir = root;
    r.caller_dir = ".";
    r.path = std::move(path);
    r.source = source;
    r.version = version;
    r.parsed = parse_module_source(source, !version.empty());
    return r;
}

const char* const manifest =
    R"({"Modules":[{"Key":"","Source":"","Dir":"."},)"
    R"({"Key":"vpc","Source":"registry.terraform.io/terraform-aws-modules/vpc/aws","Version":"1.2.3","Dir":".terraform/modules/vpc"},)"
    R"({"Key":"vpc.sub","Source":"example.com/ns/sub/aws//modules/x","Version":"0.1.0","Dir":".terraform/modules/vpc.sub/modules/x"},)"
    R"({"Key":"git","Source":"git::https://example.com/net.git?ref=v1.0.0","Dir":".terraform\\modules\\git"}]})";

// Answers every call with what it was given, counting the calls.
class FixedResolver final : public ModuleSourceResolver {
public:
    explicit FixedResolver(ModuleResolution answer) : answer_(std::move(answer)) {}
    ModuleResolution resolve(const ModuleRequest& request) override {
        ++calls;
        last = request;
        return answer_;
    }
    int calls = 0;
    ModuleRequest last;

private:
    ModuleResolution answer_;
};

bool has_code(const LoadedTree& tree, std::string_view code, Severity severity) {
    for (const auto& d : tree.diagnostics) {
        if (d.diagnostic.code == code && d.diagnostic.severity == severity) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("modules.json: records by key, cleaned directories", "[config][modules]") {
    const ModuleManifest m = parse_module_manifest(manifest);
    CHECK(m.error.empty());
    REQUIRE(m.modules.size() == 4);
    CHECK(m.modules.at("vpc").version == "1.2.3");
    CHECK(m.modules.at("git").dir == ".terraform/modules/git");  // written on Windows
    CHECK(m.modules.at("").dir == ".");
}

TEST_CASE("modules.json: two records for one key, or no JSON object, make it unusable", "[config][modules]") {
    CHECK_FALSE(parse_module_manifest(R"({"Modules":[{"Key":"a","Dir":"x"},{"Key":"a","Dir":"y"}]})").error.empty());
    CHECK_FALSE(parse_module_manifest("[1,2]").error.empty());
    CHECK_FALSE(parse_module_manifest("{").error.empty());
    CHECK(parse_module_manifest(R"({"Modules":null})").error.empty());
}

TEST_CASE("modules.json: an entry serves a call with its source and an allowed version", "[config][modules]") {
    const InstalledModule entry{"vpc", "registry.terraform.io/terraform-aws-modules/vpc/aws", "1.2.3", "d"};
    // The call may spell the address without the default host.
    CHECK_FALSE(installed_mismatch(entry, registry_request(".", {"vpc"}, "terraform-aws-modules/vpc/aws", "~> 1.2")));
    CHECK_FALSE(installed_mismatch(entry, registry_request(".", {"vpc"}, "terraform-aws-modules/vpc/aws", "")));
    auto newer = installed_mismatch(entry, registry_request(".", {"vpc"}, "terraform-aws-modules/vpc/aws", "~> 2.0"));
    REQUIRE(newer);
    CHECK(newer->find("Module version requirements have changed") != std::string::npos);
    auto moved = installed_mismatch(entry, registry_request(".", {"vpc"}, "terraform-aws-modules/vpc/google", ""));
    REQUIRE(moved);
    CHECK(moved->find("Module source has changed") != std::string::npos);
    // A constraint needs a recorded version.
    const InstalledModule unversioned{"vpc", "registry.terraform.io/terraform-aws-modules/vpc/aws", "", "d"};
    CHECK(installed_mismatch(unversioned, registry_request(".", {"vpc"}, "terraform-aws-modules/vpc/aws", "1.2.3")));
    // go-version: a prerelease only matches a constraint that names one.
    const InstalledModule pre{"vpc", "registry.terraform.io/terraform-aws-modules/vpc/aws", "1.3.0-beta1", "d"};
    CHECK(installed_mismatch(pre, registry_request(".", {"vpc"}, "terraform-aws-modules/vpc/aws", ">= 1.2")));
}

TEST_CASE("installed modules resolver: answers from the root's modules.json", "[config][modules]") {
    ScratchDir root("tfsift-installed");
    write_file(root.path / ".terraform/modules/modules.json", manifest);
    for (const char* d : {".terraform/modules/vpc", ".terraform/modules/vpc.sub/modules/x", "elsewhere/c"}) {
        fs::create_directories(root.path / d);
    }
    InstalledModulesResolver resolver;
    const std::string dir = root.path.string();

    ModuleResolution vpc = resolver.resolve(registry_request(dir, {"vpc"}, "terraform-aws-modules/vpc/aws", "~> 1.2"));
    REQUIRE(vpc.resolved());
    CHECK(vpc.module->dir == ".terraform/modules/vpc");
    CHECK(vpc.module->package_dir == ".terraform/modules/vpc");
    CHECK(vpc.module->provenance == ModuleProvenance::installed);
    CHECK(vpc.module->version == "1.2.3");

    // A subdirectory of a package: the package is the directory above it.
    ModuleResolution sub =
        resolver.resolve(registry_request(dir, {"vpc", "sub"}, "example.com/ns/sub/aws//modules/x", "0.1.0"));
    REQUIRE(sub.resolved());
    CHECK(sub.module->dir == ".terraform/modules/vpc.sub/modules/x");
    CHECK(sub.module->package_dir == ".terraform/modules/vpc.sub");

    // An entry whose directory is gone: the next resolver is asked.
    ModuleResolution gone =
        resolver.resolve(registry_request(dir, {"git"}, "git::https://example.com/net.git?ref=v1.0.0", ""));
    CHECK_FALSE(gone.resolved());
    CHECK(gone.unavailable.reason.find("cannot be read") != std::string::npos);

    ModuleResolution other = resolver.resolve(registry_request(dir, {"other"}, "a/b/c", ""));
    CHECK_FALSE(other.resolved());
    CHECK(other.unavailable.kind == ModuleUnavailableKind::not_found);
    CHECK(other.unavailable.reason.empty());  // not installed: the loader says so

    // A changed manifest is read again.
    write_file(root.path / ".terraform/modules/modules.json",
               R"({"Modules":[{"Key":"other","Source":"registry.terraform.io/a/b/c","Dir":"elsewhere/c"}]})");
    fs::last_write_time(root.path / ".terraform/modules/modules.json",
                        fs::last_write_time(root.path / ".terraform/modules/modules.json") + std::chrono::seconds(5));
    ModuleResolution again = resolver.resolve(registry_request(dir, {"other"}, "a/b/c", ""));
    REQUIRE(again.resolved());
    CHECK(again.module->dir == "elsewhere/c");

    // Without a manifest: not found, and nothing to say.
    ScratchDir bare("tfsift-bare");
    ModuleResolution none =
        resolver.resolve(registry_request(bare.path.string(), {"vpc"}, "terraform-aws-modules/vpc/aws", ""));
    CHECK_FALSE(none.resolved());
    CHECK(none.unavailable.reason.empty());
}

TEST_CASE("installed modules resolver: a scan's listing without .terraform means nothing installed",
          "[config][modules]") {
    ScratchDir root("tfsift-installed-listed");
    write_file(root.path / ".terraform/modules/modules.json", manifest);
    fs::create_directories(root.path / ".terraform/modules/vpc");
    const std::string dir = root.path.string();
    const ModuleRequest vpc = registry_request(dir, {"vpc"}, "terraform-aws-modules/vpc/aws", "~> 1.2");

    // The scan listed the root with its .terraform: the manifest is read.
    ScanListings listings;
    std::vector<DirectoryEntry> entries;
    REQUIRE(list_directory_entries(dir, entries));
    listings.add(absolute_normal_path(dir), entries);
    InstalledModulesResolver listed(&listings);
    CHECK(listed.resolve(vpc).resolved());

    // A listing without it answers for the scan: files do not change during
    // one, so the file system is not asked for each call.
    ScanListings bare;
    bare.add(absolute_normal_path(dir), {});
    InstalledModulesResolver unlisted(&bare);
    const ModuleResolution none = unlisted.resolve(vpc);
    CHECK_FALSE(none.resolved());
    CHECK(none.unavailable.kind == ModuleUnavailableKind::not_found);
    CHECK(none.unavailable.reason.empty());

    // A directory the scan did not list is asked about.
    ScanListings other;
    other.add(absolute_normal_path(dir) + "/elsewhere", {});
    InstalledModulesResolver elsewhere(&other);
    CHECK(elsewhere.resolve(vpc).resolved());
}

TEST_CASE("resolver chain: the first directory, else the most telling reason", "[config][modules]") {
    auto miss = std::make_shared<FixedResolver>(ModuleResolution::missing(ModuleUnavailableKind::not_found, "A."));
    auto fail = std::make_shared<FixedResolver>(ModuleResolution::missing(ModuleUnavailableKind::failed, "B."));
    ResolvedModule m;
    m.dir = "/cache/x";
    m.provenance = ModuleProvenance::cache;
    auto hit = std::make_shared<FixedResolver>(ModuleResolution::found(m));
    const ModuleRequest request = registry_request(".", {"x"}, "a/b/c", "");

    ModuleResolverChain found({miss, hit, fail});
    ModuleResolution r = found.resolve(request);
    REQUIRE(r.resolved());
    CHECK(r.module->dir == "/cache/x");
    CHECK(fail->calls == 0);  // not asked once a directory is found

    ModuleResolverChain failed({miss, fail});
    r = failed.resolve(request);
    REQUIRE_FALSE(r.resolved());
    CHECK(r.unavailable.kind == ModuleUnavailableKind::failed);
    CHECK(r.unavailable.reason == "B. A.");
}

TEST_CASE("loader: a resolved directory outside the root is read as its own package", "[config][modules]") {
    ScratchDir root("tfsift-root");
    ScratchDir cache("tfsift-cache");
    write_file(root.path / "main.tf",
               "module \"net\" {\n  source  = \"example.com/ns/net/aws\"\n  version = \"1.0.0\"\n  cidr = \"x\"\n}\n");
    write_file(cache.path / "pkg/variables.tf", "variable \"cidr\" {}\n");
    write_file(cache.path / "pkg/main.tf",
               "module \"inner\" {\n  source = \"./inner\"\n}\nmodule \"out\" {\n  source = \"../../elsewhere\"\n}\n");
    write_file(cache.path / "pkg/inner/main.tf", "output \"x\" {\n  value = 1\n}\n");
    ResolvedModule m;
    m.dir = (cache.path / "pkg").string();
    m.package_dir = m.dir;
    m.provenance = ModuleProvenance::cache;
    m.version = "1.0.0";
    auto resolver = std::make_shared<FixedResolver>(ModuleResolution::found(m));

    TreeOptions options;
    options.module_resolver = resolver;
    options.read_policy.root = fs::canonical(root.path).string();  // the repository: the cache lies outside it
    const LoadedTree tree = load_module_tree(root.path.string(), options);
    REQUIRE(tree.root);
    CHECK(resolver->calls == 1);
    CHECK(resolver->last.key() == "net");
    CHECK(resolver->last.version == "1.0.0");
    CHECK(resolver->last.parsed.normalized == "example.com/ns/net/aws");
    REQUIRE(tree.root->children.count("net") == 1);
    const LoadedModule& net = tree.root->children.at("net");
    REQUIRE(net.remote);
    CHECK(net.remote->provenance == ModuleProvenance::cache);
    CHECK(net.module->variables.count("cidr") == 1);
    CHECK(net.primary_files.front().starts_with(m.dir + "/"));
    // Its local module inside the package is loaded and remote too; the one
    // leaving the package is Terraform's error.
    REQUIRE(net.children.count("inner") == 1);
    CHECK(net.children.at("inner").remote);
    CHECK(net.children.count("out") == 0);
    CHECK(has_code(tree, code::local_module_path_escapes_module_package, Severity::error));
    CHECK(tree.read_failures.empty());
    CHECK(tree.unavailable_calls.empty());
}

TEST_CASE("loader: an unavailable call is one notice on its source, an error when fetching failed",
          "[config][modules]") {
    ScratchDir root("tfsift-unavailable");
    write_file(root.path / "main.tf", "module \"a\" {\n  source = \"git::https://example.com/a.git\"\n}\n");
    for (auto kind : {ModuleUnavailableKind::not_found, ModuleUnavailableKind::failed}) {
        TreeOptions options;
        options.module_resolver = std::make_shared<FixedResolver>(ModuleResolution::missing(kind, "Because."));
        const LoadedTree tree = load_module_tree(root.path.string(), options);
        REQUIRE(tree.root);
        REQUIRE(tree.unavailable_calls.size() == 1);
        CHECK(tree.unavailable_calls[0].address == "module.a");
        CHECK(tree.unavailable_calls[0].why.kind == kind);
        REQUIRE(tree.diagnostics.size() == 1);
        const Diagnostic& d = tree.diagnostics[0].diagnostic;
        CHECK(d.code == code::module_not_loaded);
        CHECK(d.severity == (kind == ModuleUnavailableKind::failed ? Severity::error : Severity::notice));
        CHECK(d.detail.find("Because.") != std::string::npos);
        CHECK(d.detail.find("module.a outputs") != std::string::npos);
        REQUIRE(d.subject);
        CHECK(tree.diagnostics[0].source->resolve(d.subject->start).line == 2);
        CHECK(tree.has_errors() == (kind == ModuleUnavailableKind::failed));
    }
    // Without a resolver, remote calls are not followed and nothing is said.
    const LoadedTree plain = load_module_tree(root.path.string());
    CHECK(plain.diagnostics.empty());
    CHECK(plain.unavailable_calls.empty());
}

TEST_CASE("lint: nothing located in installed modules unless the settings ask", "[lint][modules]") {
    ScratchDir root("tfsift-remote-findings");
    write_file(root.path / "main.tf",
               "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"1.2.3\"\n}\n");
    write_file(root.path / ".terraform/modules/modules.json",
               R"({"Modules":[{"Key":"vpc","Source":"registry.terraform.io/terraform-aws-modules/vpc/aws",)"
               R"("Version":"1.2.3","Dir":".terraform/modules/vpc"}]})");
    // A syntax error and a call that is not installed, inside the module:
    // the call's notice belongs to the module's own lint, never its caller's.
    write_file(root.path / ".terraform/modules/vpc/main.tf",
               "variable \"x\" {\n  type = \n}\nmodule \"deeper\" {\n  source = \"a/b/c\"\n}\n");
    for (bool include : {false, true}) {
        lint::Settings settings;
        settings.remote_module_findings = include;
        const LoadedTree tree =
            lint::load_for_lint(root.path.string(), Engine::terraform, settings, {}, nullptr, nullptr, 0, nullptr,
                                lint::default_module_resolver(lint::ModuleFetchPolicy{}));
        REQUIRE(tree.root);
        REQUIRE(tree.root->children.count("vpc") == 1);
        REQUIRE(tree.unavailable_calls.size() == 1);
        CHECK(tree.unavailable_calls[0].address == "module.vpc.module.deeper");
        CHECK(tree.unavailable_calls[0].in_remote_module);
        lint::LintContext ctx;
        ctx.module_dir = root.path.string();
        ctx.tree = &tree;
        ctx.settings = &settings;
        std::vector<lint::ActiveRule> rules;
        for (const auto& r : lint::builtin_rules()) rules.push_back({&r, true, std::nullopt});
        const lint::Findings findings = lint::lint_module(ctx, rules, settings);
        std::size_t inside = 0;
        for (const auto& f : findings) inside += f.file->path().find(".terraform/modules/vpc/") != std::string::npos;
        INFO(include);
        if (include) {
            CHECK(inside >= 1);  // the syntax error
        } else {
            CHECK(inside == 0);
        }
    }
}
