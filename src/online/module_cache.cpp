// The module package cache: layout, digests, locks and atomic installs.
#include "tfsift/online/module_cache.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tfsift/atomic_write.hpp"

namespace tfsift::online {

namespace fs = std::filesystem;

namespace {

// SHA-256 as OpenSSL implements it, looked up once: EVP_sha256() has the
// digest looked up again at each initialisation (a cache lookup hashes the
// key of every resolution and package it asks for).
const EVP_MD* sha256_digest() {
    static const EVP_MD* const md = [] {
        const EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
        return fetched != nullptr ? fetched : EVP_sha256();
    }();
    return md;
}

class Sha256 {
public:
    Sha256() : ctx_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) { EVP_DigestInit_ex(ctx_.get(), sha256_digest(), nullptr); }
    void add(const void* data, std::size_t n) { EVP_DigestUpdate(ctx_.get(), data, n); }
    void add(std::string_view s) { add(s.data(), s.size()); }
    std::string hex() {
        std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
        unsigned int len = 0;
        EVP_DigestFinal_ex(ctx_.get(), md.data(), &len);
        static constexpr char digits[] = "0123456789abcdef";
        std::string out(2 * static_cast<std::size_t>(len), '0');
        for (unsigned i = 0; i < len; ++i) {
            out[2 * i] = digits[md[i] >> 4];
            out[2 * i + 1] = digits[md[i] & 0x0F];
        }
        return out;
    }

private:
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx_;
};

std::string sha256_of(std::string_view text) {
    Sha256 h;
    h.add(text);
    return h.hex();
}

void make_private_dirs(const fs::path& dir, std::error_code& ec) {
    fs::create_directories(dir, ec);
    if (!ec) fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
}

std::string random_suffix() {
    std::random_device rd;
    return fmt::format("{}-{:08x}", getpid(), rd());
}

}  // namespace

fs::path default_module_cache_dir(const providers::Environment& env) {
    if (auto dir = env("TFSIFT_CACHE_DIR"); dir && !dir->empty()) return module_cache_dir_in(*dir);
    if (auto xdg = env("XDG_CACHE_HOME"); xdg && xdg->starts_with('/')) return fs::path(*xdg) / "tfsift" / "modules";
    if (auto home = env("HOME"); home && home->starts_with('/'))
        return fs::path(*home) / ".cache" / "tfsift" / "modules";
    return {};
}

fs::path module_cache_dir_in(const fs::path& cache_dir) { return cache_dir / ".tfsift-modules"; }

std::string file_sha256(const fs::path& file, std::string& error) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        error = fmt::format("cannot read {}: {}", file.string(), std::strerror(errno));
        return {};
    }
    Sha256 h;
    std::array<char, 65536> buf{};
    while (true) {
        const auto n = ::read(fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            error = fmt::format("cannot read {}: {}", file.string(), std::strerror(errno));
            ::close(fd);
            return {};
        }
        if (n == 0) break;
        h.add(buf.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
    return h.hex();
}

std::string tree_digest(const fs::path& dir, std::string& error) {
    struct Item {
        std::string rel;
        fs::path path;
    };
    std::vector<Item> items;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end; it != end; it.increment(ec)) {
        if (ec) break;
        items.push_back({it->path().lexically_relative(dir).generic_string(), it->path()});
    }
    if (ec) {
        error = fmt::format("cannot list {}: {}", dir.string(), ec.message());
        return {};
    }
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.rel < b.rel; });
    Sha256 all;
    for (const auto& item : items) {
        struct stat st {};
        if (::lstat(item.path.c_str(), &st) != 0) {
            error = fmt::format("cannot read {}: {}", item.path.string(), std::strerror(errno));
            return {};
        }
        if (S_ISDIR(st.st_mode)) {
            all.add(fmt::format("d {}\n", item.rel));
        } else if (S_ISLNK(st.st_mode)) {
            std::error_code link_ec;
            const auto target = fs::read_symlink(item.path, link_ec);
            if (link_ec) {
                error = fmt::format("cannot read {}: {}", item.path.string(), link_ec.message());
                return {};
            }
            all.add(fmt::format("l {} {}\n", target.generic_string(), item.rel));
        } else if (S_ISREG(st.st_mode)) {
            const std::string sum = file_sha256(item.path, error);
            if (sum.empty()) return {};
            all.add(fmt::format("f {} {} {}\n", (st.st_mode & 0111) != 0 ? "x" : "-", sum, item.rel));
        } else {
            error = fmt::format("{} is not a file, directory or symbolic link", item.path.string());
            return {};
        }
    }
    return "sha256:" + all.hex();
}

std::string tree_stamp(const fs::path& dir, std::string& error) {
    std::vector<std::string> lines;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end; it != end; it.increment(ec)) {
        if (ec) break;
        struct stat st {};
        if (::lstat(it->path().c_str(), &st) != 0) {
            error = fmt::format("cannot read {}: {}", it->path().string(), std::strerror(errno));
            return {};
        }
        lines.push_back(fmt::format("{:o} {} {} {}.{:09} {}.{:09} {}\n", static_cast<unsigned>(st.st_mode),
                                    static_cast<std::uintmax_t>(st.st_size), static_cast<std::uintmax_t>(st.st_ino),
                                    static_cast<std::int64_t>(st.st_mtim.tv_sec), st.st_mtim.tv_nsec,
                                    static_cast<std::int64_t>(st.st_ctim.tv_sec), st.st_ctim.tv_nsec,
                                    it->path().lexically_relative(dir).generic_string()));
    }
    if (ec) {
        error = fmt::format("cannot list {}: {}", dir.string(), ec.message());
        return {};
    }
    std::sort(lines.begin(), lines.end());
    Sha256 all;
    for (const auto& line : lines) all.add(line);
    return "stamp:" + all.hex();
}

std::string ModuleCache::package_id(std::string_view package, std::string_view resolved) {
    return sha256_of(fmt::format("{}\n{}", package, resolved)).substr(0, 40);
}

CachedModule ModuleCache::find(const std::string& id) const {
    CachedModule out;
    const fs::path dir = root_ / "packages" / id;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return out;
    std::ifstream in(dir / "manifest.json", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    auto doc = nlohmann::json::parse(text.str(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        out.corrupt = fmt::format("the cached package {} has no readable manifest", dir.string());
        return out;
    }
    auto str = [&](const char* key) {
        auto it = doc.find(key);
        return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    out.manifest.package = str("package");
    out.manifest.resolved = str("resolved");
    out.manifest.location = str("location");
    out.manifest.archive_sha256 = str("archive_sha256");
    out.manifest.commit = str("commit");
    out.manifest.digest = str("digest");
    out.manifest.stamp = str("stamp");
    out.manifest.subdir = str("subdir");
    if (auto it = doc.find("fetched_at"); it != doc.end() && it->is_number_integer()) {
        out.manifest.fetched_at = it->get<std::int64_t>();
    }
    std::string error;
    // Unchanged since it was hashed: no need to read every file again.
    if (!out.manifest.stamp.empty() && !out.manifest.digest.empty() &&
        tree_stamp(dir / "tree", error) == out.manifest.stamp) {
        out.tree = dir / "tree";
        return out;
    }
    error.clear();
    const std::string digest = tree_digest(dir / "tree", error);
    if (digest.empty() || digest != out.manifest.digest) {
        out.corrupt = digest.empty()
                          ? fmt::format("the cached package {} cannot be read: {}", dir.string(), error)
                          : fmt::format(
                                "the cached package {} was changed after it was fetched (its files no longer "
                                "match the recorded digest {})",
                                dir.string(), out.manifest.digest);
        return out;
    }
    out.tree = dir / "tree";
    return out;
}

ModuleCache::Lock& ModuleCache::Lock::operator=(Lock&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
}

ModuleCache::Lock::~Lock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

ModuleCache::Lock ModuleCache::lock(const std::string& id, std::string& error) const {
    std::error_code ec;
    make_private_dirs(root_ / "locks", ec);
    if (ec) {
        error = fmt::format("cannot create {}: {}", (root_ / "locks").string(), ec.message());
        return Lock();
    }
    const fs::path path = root_ / "locks" / (id + ".lock");
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        error = fmt::format("cannot open {}: {}", path.string(), std::strerror(errno));
        return Lock();
    }
    while (::flock(fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            error = fmt::format("cannot lock {}: {}", path.string(), std::strerror(errno));
            ::close(fd);
            return Lock();
        }
    }
    return Lock(fd);
}

fs::path ModuleCache::new_staging_dir(std::string& error) const {
    std::error_code ec;
    const fs::path parent = root_ / "tmp";
    make_private_dirs(parent, ec);
    for (int i = 0; !ec && i < 100; ++i) {
        fs::path candidate = parent / ("pkg-" + random_suffix());
        if (fs::create_directory(candidate, ec)) return candidate;
    }
    error = fmt::format("cannot create a temporary directory in {}: {}", parent.string(),
                        ec ? ec.message() : std::string("every name tried was taken"));
    return {};
}

std::string ModuleCache::install(const std::string& id, const fs::path& staging, ModuleManifest& manifest) const {
    std::error_code ec;
    auto cleanup = [&] {
        std::error_code rm;
        fs::remove_all(staging, rm);
    };
    std::string error;
    manifest.digest = tree_digest(staging / "tree", error);
    if (manifest.digest.empty()) {
        cleanup();
        return error;
    }
    // Taken last, after every file of the tree is written; renaming the
    // package directory into place changes nothing below tree/.
    manifest.stamp = tree_stamp(staging / "tree", error);
    if (manifest.stamp.empty()) {
        cleanup();
        return error;
    }
    if (manifest.fetched_at == 0) manifest.fetched_at = static_cast<std::int64_t>(std::time(nullptr));
    nlohmann::json doc{{"package", manifest.package},      {"resolved", manifest.resolved},
                       {"location", manifest.location},    {"archive_sha256", manifest.archive_sha256},
                       {"commit", manifest.commit},        {"subdir", manifest.subdir},
                       {"digest", manifest.digest},        {"stamp", manifest.stamp},
                       {"fetched_at", manifest.fetched_at}};
    {
        std::ofstream out(staging / "manifest.json", std::ios::binary | std::ios::trunc);
        out << doc.dump(2) << '\n';
        if (!out.flush()) {
            cleanup();
            return fmt::format("cannot write {}", (staging / "manifest.json").string());
        }
    }
    make_private_dirs(root_ / "packages", ec);
    if (ec) {
        cleanup();
        return fmt::format("cannot create {}: {}", (root_ / "packages").string(), ec.message());
    }
    const fs::path final_dir = root_ / "packages" / id;
    if (fs::exists(final_dir, ec)) {
        // A damaged copy (the caller checked under the lock): move it aside
        // in one step, then remove it.
        const fs::path aside = root_ / "tmp" / ("old-" + random_suffix());
        fs::rename(final_dir, aside, ec);
        std::error_code rm;
        fs::remove_all(aside, rm);
        if (ec) {
            cleanup();
            return fmt::format("cannot replace {}: {}", final_dir.string(), ec.message());
        }
    }
    fs::rename(staging, final_dir, ec);
    if (ec) {
        cleanup();
        return fmt::format("cannot move the package into {}: {}", final_dir.string(), ec.message());
    }
    return {};
}

std::optional<ModuleCache::Resolution> ModuleCache::recall(const std::string& query) const {
    std::ifstream in(root_ / "resolutions" / (sha256_of(query).substr(0, 40) + ".json"), std::ios::binary);
    if (!in) return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    auto doc = nlohmann::json::parse(text.str(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || doc.value("query", "") != query) return std::nullopt;
    auto answer = doc.find("answer");
    if (answer == doc.end() || !answer->is_string()) return std::nullopt;
    Resolution r;
    r.answer = answer->get<std::string>();
    if (auto at = doc.find("at"); at != doc.end() && at->is_number_integer()) r.at = at->get<std::int64_t>();
    return r;
}

void ModuleCache::remember(const std::string& query, const std::string& answer) const {
    std::error_code ec;
    make_private_dirs(root_ / "resolutions", ec);
    if (ec) return;
    nlohmann::json doc{{"query", query}, {"answer", answer}, {"at", static_cast<std::int64_t>(std::time(nullptr))}};
    (void)atomic_write_file(root_ / "resolutions" / (sha256_of(query).substr(0, 40) + ".json"), doc.dump(2) + "\n",
                            0600U);
}

std::size_t ModuleCache::remove_stale_staging(std::chrono::seconds age) const {
    std::size_t removed = 0;
    std::error_code ec;
    const auto stale = fs::file_time_type::clock::now() - age;
    for (fs::directory_iterator it(root_ / "tmp", ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code entry_ec;
        if (fs::last_write_time(it->path(), entry_ec) < stale && !entry_ec) {
            fs::remove_all(it->path(), entry_ec);
            ++removed;
        }
    }
    return removed;
}

}  // namespace tfsift::online
