// verify_sums_signature: hands the check to a helper process (the running
// executable again, `debug openpgp-verify`) so that RNP's stderr logging and
// its parsing of hostile input stay out of this process. See
// openpgp_helper.hpp.
#include "tfsift/online/signature.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "tfsift/online/openpgp_helper.hpp"

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere in a header

namespace tfsift::online {

namespace {

// A signature check takes milliseconds; a helper still busy after this long
// is stuck, and is stopped rather than waited for.
constexpr auto kHelperTimeout = std::chrono::seconds(60);
// Verdicts are a few hundred bytes; anything far beyond is not a verdict.
constexpr std::size_t kMaxVerdictBytes = std::size_t{1} << 20;

class Fd {
public:
    explicit Fd(int fd = -1) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { reset(); }
    [[nodiscard]] int get() const { return fd_; }
    void reset() {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

private:
    int fd_;
};

SignatureVerdict failure(std::string reason) {
    SignatureVerdict verdict;
    verdict.error = "error checking signature: " + std::move(reason);
    return verdict;
}

// Writes all of `bytes`, then reads until the helper closes its end, within
// the deadline. The socket never raises SIGPIPE (MSG_NOSIGNAL).
std::string exchange(int fd, std::string_view bytes, std::chrono::steady_clock::time_point deadline,
                     std::string& error) {
    std::string reply;
    std::size_t sent = 0;
    bool writing = !bytes.empty();
    if (!writing) ::shutdown(fd, SHUT_WR);
    std::array<char, 8192> buffer{};
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            error = "the signature check did not finish within " + std::to_string(kHelperTimeout.count()) + " s";
            return {};
        }
        pollfd p{fd, static_cast<short>(POLLIN | (writing ? POLLOUT : 0)), 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0) {
            if (errno == EINTR) continue;
            error = std::string("poll: ") + std::strerror(errno);
            return {};
        }
        if (ready == 0) continue;
        if (writing && (p.revents & POLLOUT) != 0) {
            const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (n < 0 && errno != EINTR && errno != EAGAIN) {
                // The helper went away before reading everything; its exit
                // status tells why.
                writing = false;
                ::shutdown(fd, SHUT_WR);
            } else if (n > 0) {
                sent += static_cast<std::size_t>(n);
                if (sent == bytes.size()) {
                    writing = false;
                    ::shutdown(fd, SHUT_WR);
                }
            }
        }
        if ((p.revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            const ssize_t n = ::recv(fd, buffer.data(), buffer.size(), 0);
            if (n < 0) {
                if (errno == EINTR || errno == EAGAIN) continue;
                if (writing) continue;
                return reply;
            }
            if (n == 0) return reply;
            reply.append(buffer.data(), static_cast<std::size_t>(n));
            if (reply.size() > kMaxVerdictBytes) {
                error = "the signature check answered with more than " + std::to_string(kMaxVerdictBytes) + " bytes";
                return {};
            }
        }
    }
}

// Verdicts already reached in this process, by the SHA-256 of the request
// (document, signature, keys, engine, host and the GPG variables): one
// SHA256SUMS covers every platform of a version, so callers asking once per
// platform start one helper, not one each.
class VerdictMemo {
public:
    std::optional<SignatureVerdict> find(const std::string& key) {
        const std::lock_guard lock(mutex_);
        const auto it = verdicts_.find(key);
        if (it == verdicts_.end()) return std::nullopt;
        return it->second;
    }
    void remember(std::string key, const SignatureVerdict& verdict) {
        const std::lock_guard lock(mutex_);
        verdicts_.insert_or_assign(std::move(key), verdict);
    }

private:
    std::mutex mutex_;
    std::map<std::string, SignatureVerdict> verdicts_;
};

VerdictMemo& memo() {
    static VerdictMemo instance;
    return instance;
}

std::string request_digest(std::string_view request) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    if (EVP_Digest(request.data(), request.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1) return {};
    return {reinterpret_cast<const char*>(digest.data()), length};
}

struct HelperAnswer {
    SignatureVerdict verdict;
    bool from_helper = false;  // a verdict the helper reached, not a failure to run it
};

// Starts the helper, hands it the request and reads its verdict.
HelperAnswer run_helper(const std::string& request) {
    std::array<int, 2> pair{-1, -1};
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair.data()) != 0) {
        return {failure(std::string("cannot start the signature check: socketpair: ") + std::strerror(errno)), false};
    }
    Fd ours(pair[0]);
    Fd theirs(pair[1]);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, theirs.get(), STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, theirs.get(), STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    // The helper must die of nothing the parent chose to ignore or block.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t no_signals;
    sigemptyset(&no_signals);
    sigset_t default_signals;
    sigemptyset(&default_signals);
    sigaddset(&default_signals, SIGPIPE);
    posix_spawnattr_setsigmask(&attributes, &no_signals);
    posix_spawnattr_setsigdefault(&attributes, &default_signals);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::string program = "/proc/self/exe";
    std::string arg0 = "tfsift";
    std::string arg1(kOpenPgpHelperCommand[0]);
    std::string arg2(kOpenPgpHelperCommand[1]);
    std::array<char*, 4> argv{arg0.data(), arg1.data(), arg2.data(), nullptr};
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    theirs.reset();
    if (spawned != 0) {
        return {failure("cannot start the signature check (" + program + "): " + std::strerror(spawned)), false};
    }

    std::string error;
    const auto reply = exchange(ours.get(), request, std::chrono::steady_clock::now() + kHelperTimeout, error);
    ours.reset();
    if (!error.empty()) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!error.empty()) return {failure(error), false};
    if (WIFSIGNALED(status)) {
        return {failure("the signature check stopped on signal " + std::to_string(WTERMSIG(status)) +
                        " (the signature or a key may be malformed)"),
                false};
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        return {failure("the signature check failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")"), false};
    }
    auto verdict = decode_signature_verdict(reply);
    if (!verdict) return {failure("the signature check gave no readable answer"), false};
    return {std::move(*verdict), true};
}

}  // namespace

std::string_view trust_label(TrustTier tier) {
    switch (tier) {
        case TrustTier::official: return "signed by HashiCorp";
        case TrustTier::partner: return "signed by a HashiCorp partner";
        case TrustTier::community: return "self-signed";
        case TrustTier::unsigned_: return "signing skipped";
    }
    return "self-signed";
}

std::string_view trust_label(TrustTier tier, Engine engine) {
    if (engine == Engine::opentofu && tier != TrustTier::unsigned_) return "signed";
    return trust_label(tier);
}

SignatureVerdict verify_sums_signature(std::string_view document, std::string_view signature,
                                       std::span<const SigningKey> keys, const SignatureContext& context) {
    const auto request = encode_openpgp_request(make_openpgp_request(document, signature, keys, context));
    const auto key = request_digest(request);
    if (!key.empty()) {
        if (auto known = memo().find(key)) return std::move(*known);
    }
    auto verdict = run_helper(request);
    // A helper that could not run (no process, a timeout) says nothing
    // about the signature; only real verdicts are remembered.
    if (!key.empty() && verdict.from_helper) memo().remember(key, verdict.verdict);
    return std::move(verdict.verdict);
}

}  // namespace tfsift::online
