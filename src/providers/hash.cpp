#include "tfsift/providers/hash.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>
#include "tfsift/lazy/zip.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

namespace tfsift::providers {

namespace fs = std::filesystem;

namespace {

class Sha256 {
public:
    Sha256() : ctx_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
        if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1) {
            throw std::runtime_error("cannot initialise SHA-256");
        }
    }
    void update(const void* data, std::size_t size) { EVP_DigestUpdate(ctx_.get(), data, size); }
    std::array<unsigned char, 32> finish() {
        std::array<unsigned char, 32> digest{};
        unsigned int len = 0;
        EVP_DigestFinal_ex(ctx_.get(), digest.data(), &len);
        return digest;
    }

private:
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_;
};

std::string hex(const std::array<unsigned char, 32>& digest) {
    std::string out;
    for (unsigned char b : digest) out += fmt::format("{:02x}", b);
    return out;
}

std::string base64(const std::array<unsigned char, 32>& digest) {
    std::array<unsigned char, 4 * ((32 + 2) / 3) + 1> out{};
    const int n = EVP_EncodeBlock(out.data(), digest.data(), static_cast<int>(digest.size()));
    return {reinterpret_cast<const char*>(out.data()), static_cast<std::size_t>(n)};
}

// What this run has spent on hashing, against the limits.
struct HashUsage {
    std::mutex mutex;
    HashLimits limits;
    std::atomic<std::uint64_t> packages{0};
    std::atomic<std::uint64_t> bytes{0};
    std::atomic<std::int64_t> nanoseconds{0};
};

HashUsage& usage() {
    static HashUsage u;
    return u;
}

HashLimits current_limits() {
    std::lock_guard lock(usage().mutex);
    return usage().limits;
}

std::string describe_bytes(std::uint64_t n) {
    if (n >= (1ULL << 30) && n % (1ULL << 30) == 0) return fmt::format("{} GiB", n >> 30);
    if (n >= (1ULL << 20) && n % (1ULL << 20) == 0) return fmt::format("{} MiB", n >> 20);
    return fmt::format("{} bytes", n);
}

std::string describe_time(std::chrono::milliseconds t) {
    if (t.count() % 1000 == 0) return fmt::format("{} s", t.count() / 1000);
    return fmt::format("{} ms", t.count());
}

// The hashing of one package, charged to the run: counts it when it starts,
// and its bytes and time as it goes. `charge` answers why to stop, if so.
class PackageMeter {
public:
    explicit PackageMeter(const fs::path& package)
        : package_(package), limits_(current_limits()), start_(std::chrono::steady_clock::now()) {
        if (usage().packages.fetch_add(1) >= limits_.max_packages) {
            refusal_ = fmt::format(
                "{}: not hashed: this run already hashed {} packages, its limit "
                "(TFSIFT_HASH_MAX_PACKAGES)",
                package_.string(), limits_.max_packages);
        }
    }
    PackageMeter(const PackageMeter&) = delete;
    PackageMeter& operator=(const PackageMeter&) = delete;
    ~PackageMeter() {
        usage().nanoseconds.fetch_add(
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count());
    }

    [[nodiscard]] const std::string& refusal() const { return refusal_; }

    [[nodiscard]] std::string charge(std::uint64_t n) {
        if (usage().bytes.fetch_add(n) + n > limits_.max_bytes) {
            return fmt::format(
                "{}: hashing stopped: this run read or decompressed {} from packages, its limit "
                "(TFSIFT_HASH_MAX_BYTES)",
                package_.string(), describe_bytes(limits_.max_bytes));
        }
        const auto elapsed = std::chrono::steady_clock::now() - start_;
        if (elapsed > limits_.max_package_time) {
            return fmt::format("{}: hashing stopped after {}, the limit for one package (a zip bomb?)",
                               package_.string(), describe_time(limits_.max_package_time));
        }
        const auto spent = std::chrono::nanoseconds(usage().nanoseconds.load()) + elapsed;
        if (spent > limits_.max_run_time) {
            return fmt::format(
                "{}: hashing stopped: this run spent {} hashing packages, its limit "
                "(TFSIFT_HASH_MAX_SECONDS)",
                package_.string(), describe_time(limits_.max_run_time));
        }
        return {};
    }

private:
    fs::path package_;
    HashLimits limits_;
    std::chrono::steady_clock::time_point start_;
    std::string refusal_;
};

struct NamedDigest {
    std::string name;
    std::string sha256_hex;
};

// dirhash.Hash1 over already-digested files.
PackageHash hash1(std::vector<NamedDigest> files) {
    PackageHash result;
    std::stable_sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    Sha256 summary;
    for (const auto& file : files) {
        if (file.name.find('\n') != std::string::npos) {
            result.error = "dirhash: filenames with newlines are not supported";
            result.manifest.clear();
            return result;
        }
        std::string line = file.sha256_hex + "  " + file.name;
        result.manifest.push_back(line);
        line += '\n';
        summary.update(line.data(), line.size());
    }
    result.value = "h1:" + base64(summary.finish());
    return result;
}

struct FileDigest {
    std::string sha256_hex;
    std::string error;
};

FileDigest digest_file(const fs::path& path, std::uint64_t& budget, PackageMeter& meter) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::error_code ec;
        const bool exists = fs::exists(path, ec);
        return {{},
                fmt::format("open {}: {}", path.string(), exists ? "permission denied" : "no such file or directory")};
    }
    Sha256 sha;
    std::array<char, 1 << 16> buf{};
    while (in) {
        in.read(buf.data(), buf.size());
        const auto n = static_cast<std::size_t>(in.gcount());
        if (n > budget)
            return {{}, fmt::format("read {}: package larger than {} bytes", path.string(), kMaxPackageBytes)};
        budget -= n;
        if (auto stop = meter.charge(n); !stop.empty()) return {{}, stop};
        sha.update(buf.data(), n);
    }
    if (in.bad()) return {{}, fmt::format("read {}: input/output error", path.string())};
    return {hex(sha.finish()), {}};
}

bool is_within(const fs::path& root, const fs::path& target) {
    auto r = root.begin();
    auto t = target.begin();
    for (; r != root.end(); ++r, ++t) {
        if (t == target.end() || *r != *t) return false;
    }
    return true;
}

}  // namespace

void set_hash_limits(const HashLimits& limits) {
    std::lock_guard lock(usage().mutex);
    usage().limits = limits;
    usage().packages = 0;
    usage().bytes = 0;
    usage().nanoseconds = 0;
}

HashLimits hash_limits() { return current_limits(); }

HashLimits hash_limits_from_environment(std::string& error) {
    HashLimits limits;
    auto number = [&error](const char* name, std::uint64_t& into) {
        const char* text = std::getenv(name);
        if (text == nullptr || *text == '\0') return;
        std::uint64_t value = 0;
        const char* end = text + std::strlen(text);
        auto [ptr, ec] = std::from_chars(text, end, value);
        if (ec != std::errc() || ptr != end || value == 0) {
            error = fmt::format("{}=\"{}\" is not a positive whole number; the default is used", name, text);
            return;
        }
        into = value;
    };
    number("TFSIFT_HASH_MAX_PACKAGES", limits.max_packages);
    number("TFSIFT_HASH_MAX_BYTES", limits.max_bytes);
    std::uint64_t seconds = 0;
    number("TFSIFT_HASH_MAX_SECONDS", seconds);
    if (seconds > 0) {
        constexpr std::uint64_t kMaxSeconds = 1ULL << 32;
        const auto ms = std::chrono::milliseconds(static_cast<std::int64_t>(std::min(seconds, kMaxSeconds)) * 1000);
        limits.max_run_time = ms;
        limits.max_package_time = std::min(limits.max_package_time, ms);
    }
    return limits;
}

PackageHash h1_of_zip(const fs::path& zip_path) {
    PackageHash result;
    int err = 0;
    zip_t* archive = libzip::open(zip_path.c_str(), ZIP_RDONLY, &err);
    if (archive == nullptr) {
        zip_error_t ze;
        libzip::error_init_with_code(&ze, err);
        result.error =
            fmt::format("cannot open {} as a zip archive: {}", zip_path.string(), libzip::error_strerror(&ze));
        libzip::error_fini(&ze);
        return result;
    }
    std::unique_ptr<zip_t, void (*)(zip_t*)> owner(archive, [](zip_t* z) { libzip::discard(z); });
    PackageMeter meter(zip_path);
    if (!meter.refusal().empty()) {
        result.error = meter.refusal();
        return result;
    }
    const zip_int64_t count = libzip::get_num_entries(archive, 0);
    std::vector<std::string> names;
    std::map<std::string, std::string> digest_by_name;  // the last entry of a name wins
    std::uint64_t budget = kMaxPackageBytes;
    for (zip_int64_t i = 0; i < count; ++i) {
        const auto index = static_cast<zip_uint64_t>(i);
        const char* raw_name = libzip::get_name(archive, index, ZIP_FL_ENC_RAW);
        if (raw_name == nullptr) {
            result.error = fmt::format("{}: unreadable entry name #{}", zip_path.string(), i);
            return result;
        }
        const std::string name(raw_name);
        zip_stat_t st;
        libzip::stat_init(&st);
        if (libzip::stat_index(archive, index, ZIP_FL_ENC_RAW, &st) == 0 && (st.valid & ZIP_STAT_SIZE) &&
            st.size > kMaxEntryBytes) {
            result.error = fmt::format("{}: entry {} is larger than {} bytes", zip_path.string(), name, kMaxEntryBytes);
            return result;
        }
        zip_file_t* file = libzip::fopen_index(archive, index, 0);
        if (file == nullptr) {
            result.error =
                fmt::format("{}: cannot read entry {}: {}", zip_path.string(), name, libzip::strerror(archive));
            return result;
        }
        std::unique_ptr<zip_file_t, void (*)(zip_file_t*)> file_owner(file, [](zip_file_t* f) { libzip::fclose(f); });
        Sha256 sha;
        std::array<char, 1 << 16> buf{};
        std::uint64_t entry_bytes = 0;
        while (true) {
            const zip_int64_t n = libzip::fread(file, buf.data(), buf.size());
            if (n < 0) {
                result.error =
                    fmt::format("{}: cannot read entry {}: {}", zip_path.string(), name, libzip::file_strerror(file));
                return result;
            }
            if (n == 0) break;
            const auto size = static_cast<std::uint64_t>(n);
            entry_bytes += size;
            if (entry_bytes > kMaxEntryBytes || size > budget) {
                result.error =
                    fmt::format("{}: entry {} decompresses to more than the allowed size", zip_path.string(), name);
                return result;
            }
            budget -= size;
            if (auto stop = meter.charge(size); !stop.empty()) {
                result.error = stop;
                return result;
            }
            sha.update(buf.data(), static_cast<std::size_t>(n));
        }
        names.push_back(name);
        digest_by_name[name] = hex(sha.finish());
    }
    std::vector<NamedDigest> files;
    files.reserve(names.size());
    for (const auto& name : names) files.push_back({name, digest_by_name[name]});
    return hash1(std::move(files));
}

PackageHash h1_of_directory(const fs::path& dir) {
    PackageHash result;
    std::error_code ec;
    const fs::path root = fs::canonical(dir, ec);
    if (ec || !fs::is_directory(root, ec)) {
        result.error = fmt::format("{}: not a directory", dir.string());
        return result;
    }
    PackageMeter meter(dir);
    if (!meter.refusal().empty()) {
        result.error = meter.refusal();
        return result;
    }
    std::vector<NamedDigest> files;
    std::uint64_t budget = kMaxPackageBytes;
    fs::recursive_directory_iterator it(root, fs::directory_options::none, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const fs::directory_entry& entry = *it;
        const fs::file_status link_status = entry.symlink_status(ec);
        if (ec) break;
        if (fs::is_directory(link_status)) continue;  // walked into; contributes nothing itself
        // Lexical: fs::relative would resolve the symlink being named.
        const fs::path relative = entry.path().lexically_relative(root);
        const std::string name = relative.generic_string();
        const fs::path shown = dir / relative;
        if (fs::is_symlink(link_status)) {
            std::error_code target_ec;
            const fs::path target = fs::canonical(entry.path(), target_ec);
            if (target_ec) {
                result.error = fmt::format("open {}: no such file or directory", shown.string());
                return result;
            }
            if (!is_within(root, target)) {
                result.error = fmt::format("open {}: symlink leads outside the package", shown.string());
                return result;
            }
            if (fs::is_directory(target, target_ec)) {
                result.error = fmt::format("read {}: is a directory", shown.string());
                return result;
            }
            if (!fs::is_regular_file(target, target_ec)) {
                result.error = fmt::format("read {}: not a regular file", shown.string());
                return result;
            }
        }
        if (!fs::is_symlink(link_status) && !fs::is_regular_file(link_status)) {
            // A FIFO would block the read, a device would never end.
            result.error = fmt::format("read {}: not a regular file", shown.string());
            return result;
        }
        FileDigest digest = digest_file(entry.path(), budget, meter);
        if (!digest.error.empty()) {
            result.error = digest.error;
            return result;
        }
        files.push_back({name, digest.sha256_hex});
    }
    if (ec) {
        result.error = fmt::format("{}: {}", dir.string(), ec.message());
        return result;
    }
    return hash1(std::move(files));
}

PackageHash zh_of_zip(const fs::path& zip) {
    PackageHash result;
    std::uint64_t budget = kMaxPackageBytes;
    PackageMeter meter(zip);
    if (!meter.refusal().empty()) {
        result.error = meter.refusal();
        return result;
    }
    FileDigest digest = digest_file(zip, budget, meter);
    if (!digest.error.empty()) {
        result.error = digest.error;
        return result;
    }
    result.value = "zh:" + digest.sha256_hex;
    return result;
}

PackageHash h1_of_package(const fs::path& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return h1_of_directory(path);
    return h1_of_zip(path);
}

}  // namespace tfsift::providers
