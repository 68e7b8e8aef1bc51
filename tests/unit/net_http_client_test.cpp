// The HTTP client against a real HTTPS server on 127.0.0.1
// (tests/support/transport_server.py, with a CA made at test time): caps,
// truncation, stalls, retries, redirects, certificates, credentials.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "support/scratch_dir.hpp"
#include "tfsift/net/http_client.hpp"

extern char** environ;

using namespace tfsift::net;
using tfsift::testing::ScratchDir;

namespace {

// Starts the test server and stops it (by its process id) at the end.
struct TransportServer {
    ScratchDir dir{"tfsift-net"};
    pid_t pid = -1;
    int port = 0;
    int untrusted_port = 0;
    std::string ca_file;

    TransportServer() {
        int fds[2];
        REQUIRE(pipe(fds) == 0);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
        posix_spawn_file_actions_addclose(&actions, fds[0]);
        const std::string errors = (dir.path / "server.err").string();
        posix_spawn_file_actions_addopen(&actions, 2, errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const std::string script = std::string(TFSIFT_SOURCE_DIR) + "/tests/support/transport_server.py";
        const std::string where = dir.path.string();
        std::vector<char*> argv{const_cast<char*>("python3"), const_cast<char*>(script.c_str()),
                                const_cast<char*>(where.c_str()), nullptr};
        const int rc = posix_spawnp(&pid, "python3", &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        close(fds[1]);
        REQUIRE(rc == 0);
        std::string line;
        char c = 0;
        while (read(fds[0], &c, 1) == 1 && c != '\n') line += c;
        close(fds[0]);
        std::istringstream in(line);
        in >> port >> ca_file >> untrusted_port;
        REQUIRE(port > 0);
    }
    ~TransportServer() {
        if (pid > 0) {
            kill(pid, SIGTERM);
            waitpid(pid, nullptr, 0);
        }
    }
    [[nodiscard]] std::string url(const std::string& path) const {
        return "https://127.0.0.1:" + std::to_string(port) + path;
    }
    [[nodiscard]] std::string log() const {
        std::ifstream in(dir.path / "requests.log");
        std::ostringstream out;
        out << in.rdbuf();
        return out.str();
    }
    [[nodiscard]] NetworkSettings settings() const {
        NetworkSettings s;
        s.ca_file = ca_file;
        s.ca_path = (dir.path / "no-certs").string();
        std::filesystem::create_directories(s.ca_path);
        s.api_timeout = std::chrono::seconds(2);
        return s;
    }
};

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// One server for every section (Catch2 runs a test case once per section).
const TransportServer& shared_server() {
    static const auto server = std::make_unique<TransportServer>();
    return *server;
}

HttpRequest get(const std::string& url, Purpose purpose = Purpose::api) {
    HttpRequest r;
    r.url = url;
    r.purpose = purpose;
    return r;
}

}  // namespace

TEST_CASE("transport against a local HTTPS server", "[net][http]") {
    const auto& server = shared_server();
    HttpClient client(server.settings());

    SECTION("a plain success") {
        auto r = client.fetch(get(server.url("/ok")));
        CHECK(r.transport_ok());
        CHECK(r.status == 200);
        CHECK(r.body == R"({"ok": true})");
        CHECK(r.content_type == "application/json");
        CHECK(r.attempts == 1);
    }
    SECTION("404 is an answer, not retried") {
        auto r = client.fetch(get(server.url("/status/404")));
        CHECK(r.transport_ok());
        CHECK(r.status == 404);
        CHECK(r.status_text == "404 Not Found");
        CHECK(count(server.log(), "/status/404") == 1);
    }
    SECTION("500 is tried twice, then fails in Terraform's words") {
        auto r = client.fetch(get(server.url("/status/500")));
        CHECK_FALSE(r.transport_ok());
        CHECK(r.error_message ==
              "the request failed after 2 attempts, please try again later: 500 Internal Server "
              "Error returned from 127.0.0.1:" +
                  std::to_string(server.port));
        CHECK(count(server.log(), "/status/500") == 2);
    }
    SECTION("501 is not retried") {
        auto r = client.fetch(get(server.url("/status/501")));
        CHECK(r.status == 501);
        CHECK(count(server.log(), "/status/501") == 1);
    }
    SECTION("429 with Retry-After waits, then succeeds") {
        const auto start = std::chrono::steady_clock::now();
        auto r = client.fetch(get(server.url("/429-once")));
        const auto waited = std::chrono::steady_clock::now() - start;
        CHECK(r.status == 200);
        CHECK(r.attempts == 2);
        CHECK(waited >= std::chrono::milliseconds(900));
    }
    SECTION("the cap holds without a Content-Length") {
        auto request = get(server.url("/big?n=3000000"), Purpose::download);
        request.max_bytes = 1 << 20;
        auto r = client.fetch(request);
        CHECK(r.error == TransportError::too_large);
        CHECK(r.bytes <= (1U << 20));
        CHECK_THAT(r.error_message, Catch::Contains("larger than the limit of 1048576 bytes"));
    }
    SECTION("the cap holds with a Content-Length, and is not retried") {
        auto request = get(server.url("/big?n=3000000&cl=1"));
        request.max_bytes = 1 << 20;
        auto r = client.fetch(request);
        CHECK(r.error == TransportError::too_large);
        CHECK(r.attempts == 1);
    }
    SECTION("a truncated download says how much arrived") {
        ScratchDir out;
        auto request = get(server.url("/truncated"), Purpose::download);
        request.sink = out.path / "pkg.zip";
        auto r = client.fetch(request);
        CHECK(r.error == TransportError::truncated);
        CHECK_THAT(r.error_message, Catch::Contains("expected 1000 bytes, but got 10 bytes"));
    }
    SECTION("a stalled download ends after the stall time") {
        auto r = client.fetch(get(server.url("/stall?s=8"), Purpose::download));
        CHECK(r.error == TransportError::stalled);
        CHECK_THAT(r.error_message, Catch::Contains("stalled"));
    }
    SECTION("a download that trickles below the minimum rate ends as stalled") {
        const auto start = std::chrono::steady_clock::now();
        auto r = client.fetch(get(server.url("/trickle?s=30"), Purpose::download));
        const auto took = std::chrono::steady_clock::now() - start;
        CHECK(r.error == TransportError::stalled);
        CHECK(r.bytes > 0);
        CHECK_THAT(r.error_message, Catch::Contains("slower than 1024 bytes/s for 2 seconds"));
        CHECK(took < std::chrono::seconds(10));
    }
    SECTION("a slow API answer times out per attempt") {
        auto r = client.fetch(get(server.url("/slow?s=5")));
        CHECK_FALSE(r.transport_ok());
        CHECK_THAT(r.error_message, Catch::Contains("timed out after 2 seconds"));
        CHECK(r.attempts == 2);
    }
    SECTION("a redirect loop stops at the limit") {
        auto r = client.fetch(get(server.url("/loop"), Purpose::discovery));
        CHECK(r.error == TransportError::too_many_redirects);
        CHECK_THAT(r.error_message, Catch::Contains("stopped after 3 redirects"));
        CHECK(count(server.log(), "/loop") == 4);
    }
    SECTION("https to http is refused") {
        auto r = client.fetch(get(server.url("/to-http")));
        CHECK(r.error == TransportError::refused_scheme);
        CHECK_THAT(r.error_message, Catch::Contains("http://127.0.0.1"));
        auto plain = client.fetch(get("http://127.0.0.1:" + std::to_string(server.port) + "/ok"));
        CHECK(plain.error == TransportError::refused_scheme);
    }
    SECTION("an untrusted certificate names SSL_CERT_FILE and is not retried") {
        auto r = client.fetch(get("https://127.0.0.1:" + std::to_string(server.untrusted_port) + "/ok"));
        CHECK(r.error == TransportError::tls_untrusted);
        CHECK_THAT(r.error_message, Catch::Contains("SSL_CERT_FILE"));
        CHECK_THAT(r.error_message, Catch::Contains("127.0.0.1:" + std::to_string(server.untrusted_port)));
        CHECK(r.attempts == 1);
    }
    SECTION("the token goes to its host only, never across a redirect") {
        auto request = get(server.url("/redirect?to=https://localhost:" + std::to_string(server.port) + "/echo"));
        request.bearer_token = "secret-token";
        request.headers.push_back("X-Terraform-Version: 1.5.7");
        auto r = client.fetch(request);
        REQUIRE(r.status == 200);
        CHECK(r.effective_url == "https://localhost:" + std::to_string(server.port) + "/echo");
        CHECK_THAT(r.body, Catch::Contains(R"("authorization": null)"));
        CHECK_THAT(r.body, Catch::Contains(R"("x_terraform_version": "1.5.7")"));
        CHECK_THAT(server.log(), Catch::Contains("Bearer secret-token"));  // the first hop had it
        auto direct = request;
        direct.url = server.url("/echo");
        CHECK_THAT(client.fetch(direct).body, Catch::Contains(R"("authorization": "Bearer secret-token")"));
    }
    SECTION("a proxy setting does not capture loopback") {
        auto settings = server.settings();
        settings.proxies.https_proxy = "http://127.0.0.1:9";
        HttpClient proxied(settings);
        CHECK(proxied.fetch(get(server.url("/ok"))).status == 200);
    }
}

TEST_CASE("a closed port is a connect error", "[net][http]") {
    NetworkSettings settings;
    settings.retry_max = 1;
    settings.api_timeout = std::chrono::seconds(2);
    HttpClient client(settings);
    auto r = client.fetch(get("https://127.0.0.1:9/x", Purpose::discovery));
    CHECK(r.error == TransportError::connect);
    CHECK_THAT(r.error_message, Catch::Contains("could not connect to 127.0.0.1:9"));
}
