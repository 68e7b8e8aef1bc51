#include "tfsift/server/language_server.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <thread>

#include <nlohmann/json.hpp>

#include "tfsift/config/effective_document.hpp"
#include "tfsift/config/load_cache.hpp"
#include "tfsift/config/module_files.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/lint/apply_fixes.hpp"
#include "tfsift/lint/linter.hpp"
#include "tfsift/lint/module_discovery.hpp"
#include "tfsift/lint/module_resolution.hpp"
#include "tfsift/lint/module_roles.hpp"
#include "tfsift/lint/session.hpp"
#include "tfsift/lint/settings.hpp"
#include "tfsift/rules/catalogue.hpp"
#include "tfsift/run_on_stack.hpp"
#include "tfsift/server/code_actions.hpp"
#include "tfsift/server/document_store.hpp"
#include "tfsift/server/file_uri.hpp"
#include "tfsift/server/hover.hpp"
#include "tfsift/server/lsp_diagnostics.hpp"
#include "tfsift/server/message_framing.hpp"
#include "tfsift/server/module_of_file.hpp"

namespace fs = std::filesystem;

namespace tfsift::server {

namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;  // (tfsift::json is the configuration JSON parser)

// JSON-RPC and LSP error codes.
constexpr int parse_error = -32700;
constexpr int invalid_request = -32600;
constexpr int method_not_found = -32601;
constexpr int internal_error = -32603;
constexpr int server_not_initialized = -32002;

// How long after a module's last lint the module calls of its files are
// read again (lint/module_roles.hpp): later than the lint, so that typing
// does not pay for a second parse.
constexpr std::chrono::milliseconds role_refresh_delay{400};

// How long a request waits for the lint of its document's current text
// before it is answered from the last one finished.
constexpr std::chrono::seconds settle_limit{20};

// window/logMessage types.
constexpr int log_error = 1;
constexpr int log_warning = 2;
constexpr int log_info = 3;

// Files editors write beside the ones being edited, which never concern a
// lint: Emacs's lock files (`.#main.tf`) and auto-saves (`#main.tf#`), and
// backups ending in `~`.
bool editor_scratch_file(std::string_view name) {
    return name.starts_with(".#") || name.ends_with("~") ||
           (name.size() >= 2 && name.starts_with('#') && name.ends_with('#'));
}

// The last lint of one module directory, and what it published.
struct ModuleState {
    std::uint64_t generation = 0;  // bumped by every change that concerns the module
    std::uint64_t settled = 0;     // the generation the last finished lint saw
    bool pending = false;
    Clock::time_point due;
    std::shared_ptr<const lint::LintResult> result;
    // What the last publications sent, by URI: the diagnostics and the
    // document version, so that a lint republishes only what changed.
    std::map<std::string, std::string> published;
    std::string last_messages;  // the lint's error messages, logged once while they stay the same
};

class LanguageServer {
public:
    LanguageServer(std::ostream& out, const ServerOptions& options) : out_(out), options_(options) {}

    int run(std::istream& in) {
        std::thread worker([this] {
            run_on_stack(command_stack_bytes, [this] {
                lint_loop();
                return 0;
            });
        });
        FrameReader reader(in);
        int code = 1;
        for (;;) {
            Frame frame = reader.next();
            if (frame.kind == Frame::Kind::end) break;
            if (frame.kind == Frame::Kind::malformed) {
                log(log_error, frame.error);
                continue;
            }
            if (json_nesting_depth(frame.body, max_message_nesting) > max_message_nesting) {
                log(log_error, fmt::format("A message nested deeper than {} levels was skipped ({} bytes)",
                                           max_message_nesting, frame.body.size()));
                send_error(
                    json(nullptr), parse_error,
                    fmt::format("Parse error: the message is nested deeper than {} levels", max_message_nesting));
                continue;
            }
            json message = json::parse(frame.body, nullptr, false);
            if (message.is_discarded()) {
                log(log_error, fmt::format("A message that is not JSON was skipped ({} bytes)", frame.body.size()));
                send_error(json(nullptr), parse_error, "Parse error: the message is not JSON");
                continue;
            }
            if (handle(message)) {
                code = shutdown_ ? 0 : 1;
                break;
            }
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        worker.join();
        return code;
    }

private:
    // ---- output ----------------------------------------------------------
    void send(const json& message) {
        const std::string body = message.dump(-1, ' ', false, json::error_handler_t::replace);
        const std::string framed = frame_message(body);
        std::lock_guard<std::mutex> lock(out_mutex_);
        out_.write(framed.data(), static_cast<std::streamsize>(framed.size()));
        out_.flush();
    }
    void respond(const json& id, json result) { send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}); }
    void send_error(const json& id, int code, const std::string& text) {
        send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", text}}}});
    }
    void notify(const std::string& method, json params) {
        send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
    }
    void log(int type, const std::string& text) { notify("window/logMessage", {{"type", type}, {"message", text}}); }

    // ---- dispatch --------------------------------------------------------
    // Handles one message; true on `exit`.
    bool handle(const json& message) {
        if (!message.is_object()) {
            log(log_error, "A message that is not a JSON object was skipped");
            send_error(json(nullptr), invalid_request, "Invalid request: not a JSON object");
            return false;
        }
        auto method_it = message.find("method");
        const bool has_id = message.contains("id");
        const json id = has_id ? message["id"] : json(nullptr);
        if (method_it == message.end()) return false;  // a response to one of our requests
        if (!method_it->is_string()) {
            log(log_error, "A message whose method is not a string was skipped");
            if (has_id) send_error(id, invalid_request, "Invalid request: method is not a string");
            return false;
        }
        const std::string method = method_it->get<std::string>();
        const json params = message.value("params", json::object());
        try {
            return dispatch(method, params, has_id ? std::optional<json>(id) : std::nullopt);
        } catch (const std::exception& e) {
            log(log_error, fmt::format("tfsift: {} failed: {}", method, e.what()));
            if (has_id) send_error(id, internal_error, fmt::format("Internal error: {}", e.what()));
        }
        return false;
    }

    bool dispatch(const std::string& method, const json& params, const std::optional<json>& id) {
        if (method == "exit") return true;
        if (method == "initialize") {
            initialized_ = true;
            watch_dynamically_ =
                params.is_object() &&
                params.value("/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration"_json_pointer, false);
            creates_files_ = params.is_object() && client_creates_files(params);
            if (id) respond(*id, initialize_result());
            return false;
        }
        if (!initialized_) {
            if (id) send_error(*id, server_not_initialized, "The server has not been initialized");
            return false;
        }
        if (shutdown_ && id) {
            send_error(*id, invalid_request, "The server is shutting down");
            return false;
        }
        if (method == "initialized") {
            if (watch_dynamically_) register_watchers();
        } else if (method == "shutdown") {
            shutdown_ = true;
            if (id) respond(*id, json(nullptr));
        } else if (method == "textDocument/didOpen") {
            did_open(params);
        } else if (method == "textDocument/didChange") {
            did_change(params);
        } else if (method == "textDocument/didSave") {
            did_save(params);
        } else if (method == "textDocument/didClose") {
            did_close(params);
        } else if (method == "workspace/didChangeWatchedFiles") {
            did_change_watched_files(params);
        } else if (method == "textDocument/codeAction") {
            if (id) respond(*id, code_action(params));
        } else if (method == "textDocument/hover") {
            if (id) respond(*id, hover(params));
        } else if (method == "workspace/executeCommand") {
            if (id) respond(*id, execute_command(params));
        } else if (id) {
            send_error(*id, method_not_found, "Method not found: " + method);
        }
        // Unknown notifications ($/cancelRequest, $/setTrace, ...) are ignored.
        return false;
    }

    static json initialize_result() {
        return {{"capabilities",
                 {{"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", true}}}}},
                  {"codeActionProvider", {{"codeActionKinds", {"quickfix", std::string(fix_all_kind)}}}},
                  {"executeCommandProvider", {{"commands", {std::string(apply_fix_command)}}}},
                  {"hoverProvider", true}}},
                {"serverInfo", {{"name", "tfsift"}, {"version", TFSIFT_VERSION}}}};
    }

    void register_watchers() {
        json watchers = json::array();
        for (const char* glob :
             {"**/.tfsift.toml", "**/.terraform.lock.hcl", "**/*.tf", "**/*.tofu", "**/*.tf.json", "**/*.tofu.json",
              "**/*.tftest.hcl", "**/*.tftest.json", "**/*.tofutest.hcl", "**/*.tofutest.json", "**/*.tfquery.hcl",
              "**/*.tfquery.json", "**/*.tfmock.hcl", "**/*.tfmock.json", "**/*.tfmigrate.hcl"}) {
            watchers.push_back({{"globPattern", glob}});
        }
        send({{"jsonrpc", "2.0"},
              {"id", "tfsift-watch"},
              {"method", "client/registerCapability"},
              {"params",
               {{"registrations",
                 {{{"id", "tfsift-watch"},
                   {"method", "workspace/didChangeWatchedFiles"},
                   {"registerOptions", {{"watchers", std::move(watchers)}}}}}}}}});
    }

    // Whether the client applies workspace edits that create files
    // (WorkspaceClientCapabilities.workspaceEdit).
    static bool client_creates_files(const json& params) {
        const json* edit = nullptr;
        if (auto c = params.find("capabilities"); c != params.end() && c->is_object()) {
            if (auto w = c->find("workspace"); w != c->end() && w->is_object()) {
                if (auto e = w->find("workspaceEdit"); e != w->end() && e->is_object()) edit = &*e;
            }
        }
        if (edit == nullptr || !edit->value("documentChanges", false)) return false;
        auto ops = edit->find("resourceOperations");
        if (ops == edit->end() || !ops->is_array()) return false;
        return std::any_of(ops->begin(), ops->end(), [](const json& op) { return op == "create"; });
    }

    static std::string text_document_uri(const json& params) {
        const json& doc = params.at("textDocument");
        return doc.at("uri").get<std::string>();
    }

    void did_open(const json& params) {
        const json& doc = params.at("textDocument");
        const std::string uri = doc.at("uri").get<std::string>();
        std::string dir;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!documents_.open(uri, doc.value("version", std::int64_t{0}), doc.at("text").get<std::string>())) {
                log(log_warning, "tfsift lints file: documents only; " + uri + " is not one");
                return;
            }
            dir = module_dir_of(documents_.find(uri)->path);
            schedule_locked(dir);
        }
    }

    void did_change(const json& params) {
        const std::string uri = text_document_uri(params);
        std::vector<TextChange> changes;
        for (const auto& c : params.at("contentChanges")) {
            TextChange change;
            change.text = c.at("text").get<std::string>();
            if (c.contains("range")) change.range = range_from_json(c["range"]);
            changes.push_back(std::move(change));
        }
        std::lock_guard<std::mutex> lock(mutex_);
        const std::int64_t version = params.at("textDocument").value("version", std::int64_t{0});
        if (!documents_.change(uri, version, changes)) {
            log(log_warning, "didChange for a document that is not open: " + uri);
            return;
        }
        schedule_locked(module_dir_of(documents_.find(uri)->path));
    }

    void did_save(const json& params) {
        const std::string uri = text_document_uri(params);
        std::lock_guard<std::mutex> lock(mutex_);
        const OpenDocument* doc = documents_.find(uri);
        if (doc == nullptr) {
            if (auto path = path_of_uri(uri))
                schedule_locked(module_dir_of(fs::path(*path).lexically_normal().string()));
            return;
        }
        load_cache_->forget_file(doc->path);  // its parse was of the buffer; the file on disk is what counts now
        if (params.contains("text") && params["text"].is_string()) {
            documents_.change(uri, doc->version, {TextChange{std::nullopt, params["text"].get<std::string>()}});
        } else {
            // The file on disk may be new since the document was opened.
            documents_.change(uri, doc->version, {});
        }
        schedule_locked(module_dir_of(doc->path));
    }

    void did_close(const json& params) {
        const std::string uri = text_document_uri(params);
        std::lock_guard<std::mutex> lock(mutex_);
        const OpenDocument* doc = documents_.find(uri);
        if (doc == nullptr) return;
        const std::string dir = module_dir_of(doc->path);
        load_cache_->forget_file(doc->path);  // the buffer's parse; the file on disk counts again
        documents_.close(uri);
        // The last document of its module closed: keep nothing of it.
        if (documents_.in_directory(dir).empty()) load_cache_->forget_directory(dir);
        schedule_locked(dir);  // from the disk again
    }

    void did_change_watched_files(const json& params) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& change : params.at("changes")) {
            auto path = path_of_uri(change.at("uri").get<std::string>());
            if (!path) continue;
            const fs::path p = fs::path(*path).lexically_normal();
            if (editor_scratch_file(p.filename().string())) continue;
            if (p.filename() == ".tfsift.toml") {
                // Settings apply to every module below them: lint again each
                // module linted so far under that directory. A settings file
                // may mark a repository root (`root = true`): scan anew.
                const std::string base = p.parent_path().string();
                for (auto& [dir, state] : modules_) {
                    if (dir == base || dir.starts_with(base + "/")) schedule_locked(dir);
                }
                roles_->clear();
                load_cache_->clear();  // excludes and engines may have changed
                continue;
            }
            const std::string name = p.filename().string();
            load_cache_->forget_file(p.string());
            const std::string dir = module_dir_of(p.string());
            if (modules_.count(dir))
                schedule_locked(dir);  // a lock, configuration, test, query, mock or migration file changed on disk
            // A configuration file saved, created or deleted may add or drop
            // a module call, wherever it is: the roles of what it calls follow.
            if (name != ".terraform.lock.hcl" && !config::is_test_file_name(name) &&
                config::select_query_files({name}, Engine::terraform).empty() &&
                config::select_mock_data_files({name}).empty() &&
                config::select_migration_files({name}, Engine::terraform).empty()) {
                refresh_roles_locked(p.parent_path().string(), options_.debounce);
            }
        }
    }

    // ---- linting ---------------------------------------------------------
    // Marks `dir` for a lint once the debounce interval has passed; a lint
    // already running for it becomes stale. Called with `mutex_` held.
    void schedule_locked(const std::string& dir) {
        ModuleState& m = modules_[dir];
        ++m.generation;
        m.pending = true;
        m.due = Clock::now() + options_.debounce;
        wake_.notify_all();
    }

    // Marks the module calls of the files directly in `dir` for reading
    // again after `delay` (pushed back by a later mark). Called with
    // `mutex_` held.
    void refresh_roles_locked(const std::string& dir, std::chrono::milliseconds delay) {
        role_refresh_[dir] = Clock::now() + delay;
        wake_.notify_all();
    }

    // Reads the module calls of `dir` again (with the editor's texts) and
    // lints again each module linted so far whose role may have changed.
    // Called with `lock` held; releases it meanwhile.
    void refresh_roles(std::unique_lock<std::mutex>& lock, const std::string& dir) {
        auto overlays = documents_.overlays();
        lock.unlock();
        std::set<std::string> flipped;
        std::string failure;
        try {
            flipped = roles_->refresh_directory(dir, overlays);
        } catch (const std::exception& e) {
            failure = fmt::format("tfsift: reading the module calls of {} failed: {}", dir, e.what());
        }
        lock.lock();
        if (!failure.empty()) log(log_error, failure);
        for (const auto& module : flipped) {
            if (modules_.count(module)) schedule_locked(module);
        }
    }

    void lint_loop() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!stopping_) {
            std::string dir;
            Clock::time_point due = Clock::time_point::max();
            for (const auto& [d, m] : modules_) {
                if (m.pending && m.due < due) {
                    due = m.due;
                    dir = d;
                }
            }
            std::string refresh_dir;
            Clock::time_point refresh_due = Clock::time_point::max();
            for (const auto& [d, when] : role_refresh_) {
                if (when < refresh_due) {
                    refresh_due = when;
                    refresh_dir = d;
                }
            }
            if (dir.empty() && refresh_dir.empty()) {
                wake_.wait(lock);
                continue;
            }
            if (std::min(due, refresh_due) > Clock::now()) {
                wake_.wait_until(lock, std::min(due, refresh_due));
                continue;
            }
            if (refresh_due < due) {
                role_refresh_.erase(refresh_dir);
                refresh_roles(lock, refresh_dir);
                continue;
            }
            ModuleState& m = modules_[dir];
            m.pending = false;
            const std::uint64_t generation = m.generation;
            auto overlays = documents_.overlays();
            std::map<std::string, std::int64_t> versions;  // of the open documents of the module, by path
            std::map<std::string, std::string> uris;
            collect_open(dir, versions, uris);
            lock.unlock();
            std::shared_ptr<const lint::LintResult> result;
            std::string messages;
            try {
                lint::LintRequest request;
                request.catalogue = lint::builtin_rules();
                request.paths = {dir};
                request.jobs = options_.jobs;
                request.overlays = std::move(overlays);
                request.offline = true;  // never a network request per keystroke
                request.module_roles = roles_;
                request.load_cache = load_cache_;
                // The budget of memory compares the process's peak, which
                // in a long-lived server is the peak of every run before.
                request.max_memory = 0;
                auto r = std::make_shared<lint::LintResult>(lint::run_session(request));
                for (const auto& [kind, text] : r->messages) {
                    if (kind == lint::MessageKind::error || kind == lint::MessageKind::warning) messages += text + "\n";
                }
                if (r->completed) result = std::move(r);
            } catch (const std::exception& e) {
                messages += fmt::format("tfsift: linting {} failed: {}\n", dir, e.what());
            } catch (...) {
                messages += fmt::format("tfsift: linting {} failed\n", dir);
            }
            lock.lock();
            ModuleState& now = modules_[dir];
            if (messages != now.last_messages) {
                now.last_messages = messages;
                if (!messages.empty()) {
                    messages.pop_back();
                    log(log_error, messages);
                }
            }
            if (now.generation != generation) continue;  // stale
            now.settled = generation;
            settled_.notify_all();
            // The texts linted may add or drop module calls; reading them
            // costs a parse of each changed file, so it waits until edits
            // pause rather than delay the next lint.
            refresh_roles_locked(dir, std::max(options_.debounce, role_refresh_delay));
            if (!result) continue;  // nothing to publish
            now.result = result;
            try {
                publish_locked(dir, now, versions, uris);
            } catch (const std::exception& e) {
                log(log_error, fmt::format("tfsift: publishing the diagnostics of {} failed: {}", dir, e.what()));
            }
        }
    }

    // The versions and URIs of the open documents in `dir`, by path.
    // Called with `mutex_` held.
    void collect_open(const std::string& dir, std::map<std::string, std::int64_t>& versions,
                      std::map<std::string, std::string>& uris) const {
        for (const OpenDocument* doc : documents_.in_directory(dir)) {
            versions[doc->path] = doc->version;
            uris[doc->path] = doc->uri;
        }
    }

    // Publishes the diagnostics of every file of the module in `dir`, and
    // empty lists for files that had some before and have none now.
    void publish_locked(const std::string& dir, ModuleState& m, const std::map<std::string, std::int64_t>& versions,
                        const std::map<std::string, std::string>& uris) {
        std::map<std::string, const lint::Rule*> rules;
        for (const auto& r : m.result->catalogue) rules[r.id] = &r;
        std::map<std::string, json> by_path;  // absolute path -> diagnostics
        for (const auto& name : m.result->files) by_path[absolute_file_path(name, dir)] = json::array();
        for (const auto& f : m.result->findings) {
            const std::string path = absolute_file_path(f.file->path(), dir);
            if (module_dir_of(path) != dir) continue;  // another module's file
            auto rule = rules.find(f.rule_id);
            by_path[path].push_back(
                lsp_diagnostic(f, rule == rules.end() ? nullptr : rule->second, dir, options_.links));
        }
        // A file is published again only when its diagnostics or its
        // document version changed; a file that had diagnostics and is no
        // longer part of the module gets an empty list, once.
        std::map<std::string, std::string> published;
        std::vector<json> notifications;
        auto add = [&](json params) {
            const std::string uri = params["uri"].get<std::string>();
            std::string key = params.dump(-1, ' ', false, json::error_handler_t::replace);
            auto before = m.published.find(uri);
            if (before == m.published.end() || before->second != key) notifications.push_back(std::move(params));
            published[uri] = std::move(key);
        };
        for (auto& [path, diagnostics] : by_path) {
            auto u = uris.find(path);
            const std::string uri = u == uris.end() ? uri_of_path(path) : u->second;
            json params{{"uri", uri}, {"diagnostics", std::move(diagnostics)}};
            if (auto v = versions.find(path); v != versions.end()) params["version"] = v->second;
            add(std::move(params));
        }
        for (const auto& [uri, key] : m.published) {
            if (published.count(uri)) continue;
            if (key.find("\"diagnostics\":[]") == std::string::npos)
                notifications.push_back({{"uri", uri}, {"diagnostics", json::array()}});
        }
        m.published = std::move(published);
        for (auto& n : notifications) notify("textDocument/publishDiagnostics", std::move(n));
    }

    // ---- requests --------------------------------------------------------
    // The text of a document as the editor holds it (else as on disk), its
    // absolute path and module's last result. False when there is none.
    bool document_state(const std::string& uri, std::string& path, std::string& text,
                        std::shared_ptr<const lint::LintResult>& result) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (const OpenDocument* doc = documents_.find(uri)) {
            path = doc->path;
            text = doc->text;
        } else {
            auto p = path_of_uri(uri);
            if (!p) return false;
            path = fs::path(*p).lexically_normal().string();
            FileContent content = read_regular_file(path, ReadPolicy{});
            if (!content.ok()) return false;
            text = std::move(content.bytes);
        }
        auto it = modules_.find(module_dir_of(path));
        if (it != modules_.end()) {
            settle_locked(lock, it->second);
            result = it->second.result;
        }
        return true;
    }

    // Waits until the module's last lint saw every change made so far, so a
    // request is answered from the text the editor holds now and never from
    // a lint the debounce has not started yet: a pending lint is started at
    // once. Gives up after `settle_limit` and answers from the last result.
    void settle_locked(std::unique_lock<std::mutex>& lock, ModuleState& m) {
        if (m.settled == m.generation) return;
        if (m.pending && m.due > Clock::now()) {
            m.due = Clock::now();
            wake_.notify_all();
        }
        const std::uint64_t wanted = m.generation;
        settled_.wait_for(lock, settle_limit, [&] { return stopping_ || m.settled >= wanted; });
    }

    json code_action(const json& params) {
        CodeActionQuery query;
        query.uri = text_document_uri(params);
        std::string text;
        std::shared_ptr<const lint::LintResult> result;
        if (!document_state(query.uri, query.path, text, result) || !result) return json::array();
        query.text = text;
        query.base_dir = module_dir_of(query.path);
        query.range = range_from_json(params.value("range", json::object()));
        if (auto context = params.find("context"); context != params.end() && context->is_object()) {
            if (auto only = context->find("only"); only != context->end() && only->is_array()) {
                for (const auto& k : *only) {
                    if (k.is_string()) query.only.push_back(k.get<std::string>());
                }
            }
            if (auto given = context->find("diagnostics"); given != context->end() && given->is_array()) {
                for (const auto& d : *given) {
                    if (!d.is_object() || !d.contains("range")) continue;
                    DiagnosticRef ref;
                    ref.range = range_from_json(d["range"]);
                    if (auto code = d.find("code"); code != d.end() && code->is_string())
                        ref.code = code->get<std::string>();
                    query.diagnostics.push_back(std::move(ref));
                }
            }
        }
        query.creates_files = creates_files_;
        return code_actions(query, result->findings);
    }

    // `tfsift.applyFix`: the fix of one finding, written to disk by the
    // server (atomically, as `lint --fix` writes) for a client that cannot
    // create the files the fix adds. Its arguments name the document and
    // the finding as the code action gave them.
    json execute_command(const json& params) {
        if (params.value("command", std::string()) != apply_fix_command)
            throw std::runtime_error("unknown command " + params.value("command", std::string()));
        const json& args = params.at("arguments").at(0);
        const std::string uri = args.at("uri").get<std::string>();
        const std::string rule = args.at("rule").get<std::string>();
        const TextRange range = range_from_json(args.at("range"));
        std::string path;
        std::string text;
        std::shared_ptr<const lint::LintResult> result;
        if (!document_state(uri, path, text, result) || !result) throw std::runtime_error("no lint result for " + uri);
        const std::string dir = module_dir_of(path);
        const lint::Finding* chosen = nullptr;
        for (const auto& f : result->findings) {
            if (f.rule_id != rule || !f.file || !f.fix || f.fix->applicability != lint::Applicability::safe) continue;
            if (absolute_file_path(f.file->path(), dir) != path || f.file->text() != text) continue;
            if (text_range(*f.file, f.range) == range) chosen = &f;
        }
        if (chosen == nullptr) throw std::runtime_error("the finding is no longer there; lint again and retry");
        {
            std::lock_guard<std::mutex> lock(mutex_);
            for (const auto& e : chosen->fix->edits) {
                if (documents_.find_path(absolute_file_path(e.file->path(), dir)) != nullptr)
                    throw std::runtime_error("the fix changes a file open in the editor; apply it there");
            }
        }
        const lint::FixPlan plan = lint::plan_fixes({*chosen}, lint::FixMode::safe_only);
        const lint::FixWriteResult written = lint::write_fixes(plan);
        if (!written.errors.empty()) throw std::runtime_error(written.errors.front());
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& file : written.written) load_cache_->forget_file(absolute_file_path(file, dir));
        schedule_locked(dir);
        return json(nullptr);
    }

    json hover(const json& params) {
        const std::string uri = text_document_uri(params);
        std::string path;
        std::string text;
        std::shared_ptr<const lint::LintResult> result;
        if (!document_state(uri, path, text, result)) return json(nullptr);
        const std::string dir = module_dir_of(path);
        const TextPosition position = position_from_json(params.value("position", json::object()));
        const std::size_t offset = byte_offset(text, position);
        std::optional<std::string> markdown;
        if (result) {
            lint::Findings current;
            for (const auto& f : result->findings) {
                if (f.file && f.file->text() == text && absolute_file_path(f.file->path(), dir) == path)
                    current.push_back(f);
            }
            markdown = finding_hover(current, result->catalogue, path, dir, offset);
        }
        // Where the block starting on this line gets its value, then the
        // findings there (a block an override changed often has both).
        if (auto origins = origin_markdown(dir, path, position.line + 1)) {
            markdown = markdown ? *origins + "\n\n---\n\n" + *markdown : *origins;
        }
        if (!markdown) return json(nullptr);
        return {{"contents", {{"kind", "markdown"}, {"value", *markdown}}}};
    }

    // Where the block starting on `line` of `path` gets its effective value,
    // from a fresh load of the module with the editor's texts.
    std::optional<std::string> origin_markdown(const std::string& dir, const std::string& path, std::uint32_t line) {
        std::shared_ptr<const FileOverlays> overlays;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            overlays = documents_.overlays();
        }
        const lint::Settings settings;
        const Engine engine = lint::resolve_engine(std::nullopt, settings, dir);
        config::LoadedTree tree =
            lint::load_for_lint(dir, engine, settings, {}, overlays, load_cache_, 0, nullptr,
                                lint::default_module_resolver(lint::ModuleFetchPolicy{false, {}, engine, {}}));
        if (!tree.root) return std::nullopt;
        return origin_hover(config::module_to_json(*tree.root), path, dir, line);
    }

    std::ostream& out_;
    std::mutex out_mutex_;
    ServerOptions options_;

    std::mutex mutex_;  // guards everything below
    std::condition_variable wake_;
    std::condition_variable settled_;  // a module's lint caught up with its changes
    DocumentStore documents_;
    std::map<std::string, ModuleState> modules_;  // by absolute directory
    // Directories whose module calls are to be read again, and when.
    std::map<std::string, Clock::time_point> role_refresh_;
    // Which modules other modules call, kept for the server's life.
    std::shared_ptr<lint::ModuleRoleCache> roles_ = std::make_shared<lint::ModuleRoleCache>(true);
    // The parsed files of the modules linted, kept between edits: a lint
    // parses only the files whose text changed.
    std::shared_ptr<config::LoadCache> load_cache_ = std::make_shared<config::LoadCache>();
    bool stopping_ = false;

    // Touched by the reading thread only.
    bool initialized_ = false;
    bool shutdown_ = false;
    bool watch_dynamically_ = false;
    bool creates_files_ = false;  // the client applies create operations
};

}  // namespace

int run_language_server(std::istream& in, std::ostream& out, const ServerOptions& options) {
    LanguageServer server(out, options);
    return server.run(in);
}

}  // namespace tfsift::server
