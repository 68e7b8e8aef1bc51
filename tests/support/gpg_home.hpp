// A throw-away gpg home for tests that make OpenPGP keys and signatures at
// test time. The GNUPGHOME variable points at it while it lives; its agent
// is stopped and the directory removed when it goes.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <catch2/catch.hpp>

namespace tfsift::testing {

inline std::string read_binary_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Short path: gpg-agent's socket lives inside it and
// socket paths are limited to 108 bytes.
class GpgHome {
public:
    GpgHome() {
        char name[] = "/tmp/tfsg-XXXXXX";
        REQUIRE(::mkdtemp(name) != nullptr);
        dir_ = name;
        if (const char* old = std::getenv("GNUPGHOME")) old_home_ = old;
        ::setenv("GNUPGHOME", dir_.c_str(), 1);
    }
    GpgHome(const GpgHome&) = delete;
    GpgHome& operator=(const GpgHome&) = delete;
    ~GpgHome() {
        // Key generation starts an agent; leave none behind.
        [[maybe_unused]] const int rc = std::system("gpgconf --kill gpg-agent >/dev/null 2>&1");
        if (old_home_) {
            ::setenv("GNUPGHOME", old_home_->c_str(), 1);
        } else {
            ::unsetenv("GNUPGHOME");
        }
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

    // Runs gpg with the given arguments; true on exit status 0.
    bool gpg(const std::string& arguments) const {
        const std::string command =
            "gpg --batch --quiet --pinentry-mode loopback --passphrase '' " + arguments + " >/dev/null 2>&1";
        const int status = std::system(command.c_str());
        return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }

    // gpg's output of a command (stdout only).
    [[nodiscard]] std::string output(const std::string& arguments) const {
        const std::string command = "gpg --batch --with-colons " + arguments + " 2>/dev/null";
        std::string text;
        FILE* pipe = ::popen(command.c_str(), "r");
        REQUIRE(pipe != nullptr);
        char buffer[4096];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) text.append(buffer, n);
        ::pclose(pipe);
        return text;
    }

    // The 16-digit ID of the primary key with this user ID.
    [[nodiscard]] std::string primary_key_id(const std::string& uid) const {
        const auto listing = output("--list-keys " + uid);
        const auto pub = listing.find("pub:");
        REQUIRE(pub != std::string::npos);
        // pub:validity:length:algorithm:KEYID:...
        std::size_t field = pub;
        for (int i = 0; i < 4; ++i) field = listing.find(':', field) + 1;
        return listing.substr(field, 16);
    }

    [[nodiscard]] std::string armored_public_key(const std::string& uid) const {
        const auto path = dir_ / (uid + ".asc");
        REQUIRE(gpg("--armor --output " + path.string() + " --export " + uid));
        return read_binary_file(path);
    }

    [[nodiscard]] std::string sign(const std::string& uid, const std::string& document,
                                   const std::string& extra = {}) const {
        const auto doc = dir_ / "SHA256SUMS";
        const auto sig = dir_ / "SHA256SUMS.sig";
        std::ofstream(doc, std::ios::binary) << document;
        std::filesystem::remove(sig);
        REQUIRE(gpg(extra + " --local-user " + uid + " --detach-sign --output " + sig.string() + " " + doc.string()));
        return read_binary_file(sig);
    }

private:
    std::filesystem::path dir_;
    std::optional<std::string> old_home_;
};

}  // namespace tfsift::testing
