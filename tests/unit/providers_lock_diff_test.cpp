// The comparison behind `tfsift lock diff`: two lock files in, the changes
// per provider out (tfsift/providers/lock_diff.hpp).
#include <catch2/catch.hpp>

#include <string>

#include "tfsift/providers/lock_diff.hpp"
#include "tfsift/providers/lock_file.hpp"

using namespace tfsift;
using namespace tfsift::providers;

namespace {

LockFile read_text(std::string text) {
    auto read = read_lock_file(std::make_shared<const SourceFile>(std::string(kLockFileName), std::move(text)));
    REQUIRE(!read.has_errors());
    return read.locks;
}

std::string entry(const std::string& address, const std::string& version, const std::string& hashes,
                  const std::string& constraints = "") {
    std::string out = "provider \"" + address + "\" {\n  version = \"" + version + "\"\n";
    if (!constraints.empty()) out += "  constraints = \"" + constraints + "\"\n";
    return out + "  hashes = [" + hashes + "]\n}\n";
}

const std::string kDemo = "registry.terraform.io/example/demo";
const std::string kOther = "registry.terraform.io/example/other";

}  // namespace

TEST_CASE("lock diff: upgrade, with the hashes added, removed and kept", "[providers][lock-diff]") {
    const auto before = read_text(entry(kDemo, "1.0.0", R"("zh:aa", "zh:bb")", "~> 1.0"));
    const auto after = read_text(entry(kDemo, "1.2.0", R"("zh:cc", "zh:bb", "h1:x")", "~> 1.2"));
    const auto diff = diff_lock_files(before, after);
    REQUIRE(diff.providers.size() == 1);
    const auto& c = diff.providers[0];
    CHECK(c.change == LockChange::upgraded);
    CHECK(to_string(c.change) == "upgraded");
    CHECK(c.from->to_string() == "1.0.0");
    CHECK(c.to->to_string() == "1.2.0");
    CHECK(*c.constraints_from == "~> 1.0");
    CHECK(*c.constraints_to == "~> 1.2");
    CHECK(c.added_hashes == std::vector<std::string>{"h1:x", "zh:cc"});
    CHECK(c.removed_hashes == std::vector<std::string>{"zh:aa"});
    CHECK(c.kept_hashes == std::vector<std::string>{"zh:bb"});
    CHECK(!c.moved_from);
}

TEST_CASE("lock diff: downgrade by precedence, not by text", "[providers][lock-diff]") {
    const auto diff = diff_lock_files(read_text(entry(kDemo, "1.10.0", R"("zh:aa")")),
                                      read_text(entry(kDemo, "1.9.0", R"("zh:aa")")));
    REQUIRE(diff.providers.size() == 1);
    CHECK(diff.providers[0].change == LockChange::downgraded);
    const auto prerelease = diff_lock_files(read_text(entry(kDemo, "2.0.0", R"("zh:aa")")),
                                            read_text(entry(kDemo, "2.0.0-rc.1", R"("zh:bb")")));
    REQUIRE(prerelease.providers.size() == 1);
    CHECK(prerelease.providers[0].change == LockChange::downgraded);
}

TEST_CASE("lock diff: added and removed providers, and absent files", "[providers][lock-diff]") {
    const auto both = read_text(entry(kDemo, "1.0.0", R"("zh:aa")") + entry(kOther, "2.0.0", R"("zh:bb")"));
    const auto one = read_text(entry(kDemo, "1.0.0", R"("zh:aa")"));
    auto diff = diff_lock_files(one, both);
    REQUIRE(diff.providers.size() == 1);
    CHECK(diff.providers[0].provider.type == "other");
    CHECK(diff.providers[0].change == LockChange::added);
    CHECK(!diff.providers[0].from);
    CHECK(!diff.providers[0].constraints_from);
    CHECK(diff.providers[0].added_hashes == std::vector<std::string>{"zh:bb"});
    diff = diff_lock_files(both, one);
    REQUIRE(diff.providers.size() == 1);
    CHECK(diff.providers[0].change == LockChange::removed);
    CHECK(!diff.providers[0].to);
    CHECK(diff.providers[0].removed_hashes == std::vector<std::string>{"zh:bb"});
    // No base file: everything is added; no new file: everything removed.
    CHECK(diff_lock_files(LockFile{}, both).providers.size() == 2);
    for (const auto& c : diff_lock_files(both, LockFile{}).providers) CHECK(c.change == LockChange::removed);
    CHECK(diff_lock_files(both, both).empty());
}

TEST_CASE("lock diff: same version, other hashes or other constraints", "[providers][lock-diff]") {
    auto diff = diff_lock_files(read_text(entry(kDemo, "1.0.0", R"("zh:aa", "zh:bb")")),
                                read_text(entry(kDemo, "1.0.0", R"("zh:bb", "zh:aa", "zh:cc")")));
    REQUIRE(diff.providers.size() == 1);
    CHECK(diff.providers[0].change == LockChange::hashes);
    CHECK(diff.providers[0].added_hashes == std::vector<std::string>{"zh:cc"});
    // The order hashes are written in is no change.
    CHECK(diff_lock_files(read_text(entry(kDemo, "1.0.0", R"("zh:aa", "zh:bb")")),
                          read_text(entry(kDemo, "1.0.0", R"("zh:bb", "zh:aa")")))
              .empty());
    diff = diff_lock_files(read_text(entry(kDemo, "1.0.0", R"("zh:aa")", ">= 1.0.0")),
                           read_text(entry(kDemo, "1.0.0", R"("zh:aa")", "~> 1.0")));
    REQUIRE(diff.providers.size() == 1);
    CHECK(diff.providers[0].change == LockChange::constraints);
}

TEST_CASE("lock diff: the same type under another namespace or host moved", "[providers][lock-diff]") {
    const auto before = read_text(entry(kDemo, "1.0.0", R"("zh:aa")"));
    auto diff = diff_lock_files(before, read_text(entry("registry.terraform.io/fork/demo", "1.0.0", R"("zh:aa")")));
    REQUIRE(diff.providers.size() == 2);
    const auto& added = diff.providers[0].change == LockChange::added ? diff.providers[0] : diff.providers[1];
    REQUIRE(added.moved_from);
    CHECK(added.moved_from->to_string() == kDemo);
    diff = diff_lock_files(before, read_text(entry("other.example.com/example/demo", "1.0.0", R"("zh:aa")")));
    REQUIRE(diff.providers.size() == 2);
    CHECK((diff.providers[0].moved_from || diff.providers[1].moved_from));
    // Another type is no move.
    diff = diff_lock_files(before, read_text(entry(kOther, "1.0.0", R"("zh:aa")")));
    for (const auto& c : diff.providers) CHECK(!c.moved_from);
}

TEST_CASE("lock diff: platforms lost", "[providers][lock-diff]") {
    CHECK(platforms_lost({"darwin_arm64", "linux_amd64"}, {"linux_amd64"}) == std::vector<std::string>{"darwin_arm64"});
    CHECK(platforms_lost({"linux_amd64"}, {"darwin_arm64", "linux_amd64"}).empty());
}
