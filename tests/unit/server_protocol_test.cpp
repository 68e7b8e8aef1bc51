// The language server's protocol layer: Content-Length framing, UTF-16
// positions and incremental edits, file URIs, the document store, and the
// lint session's overlays (unsaved editor texts read instead of the disk).
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include <fmt/core.h>

#include "support/scratch_dir.hpp"
#include "tfsift/lint/session.hpp"
#include "tfsift/rules/catalogue.hpp"
#include "tfsift/server/code_actions.hpp"
#include "tfsift/server/document_store.hpp"
#include "tfsift/server/file_uri.hpp"
#include "tfsift/server/hover.hpp"
#include "tfsift/server/message_framing.hpp"
#include "tfsift/server/text_position.hpp"

using namespace tfsift;
using namespace tfsift::server;
namespace fs = std::filesystem;

TEST_CASE("frames are read by Content-Length, whatever the header case and order", "[server][framing]") {
    std::istringstream in(frame_message(R"({"a":1})") +
                          "content-type: application/vscode-jsonrpc; charset=utf-8\r\n"
                          "CONTENT-LENGTH:  7 \r\n\r\n{\"b\":2}" +
                          frame_message(""));
    FrameReader reader(in);
    Frame f = reader.next();
    REQUIRE(f.kind == Frame::Kind::message);
    CHECK(f.body == R"({"a":1})");
    f = reader.next();
    REQUIRE(f.kind == Frame::Kind::message);
    CHECK(f.body == R"({"b":2})");
    f = reader.next();
    REQUIRE(f.kind == Frame::Kind::message);
    CHECK(f.body.empty());
    CHECK(reader.next().kind == Frame::Kind::end);
}

TEST_CASE("a broken header block is reported and skipped, and the next frame is read", "[server][framing]") {
    std::istringstream in(
        "garbage without colon\r\n\r\n"
        "Content-Length: twelve\r\n\r\n"
        "Content-Type: text/plain\r\n\r\n" +
        frame_message("{}"));
    FrameReader reader(in);
    Frame f = reader.next();
    REQUIRE(f.kind == Frame::Kind::malformed);
    CHECK_THAT(f.error, Catch::Contains("without a colon"));
    f = reader.next();
    REQUIRE(f.kind == Frame::Kind::malformed);
    CHECK_THAT(f.error, Catch::Contains("invalid Content-Length"));
    f = reader.next();
    REQUIRE(f.kind == Frame::Kind::malformed);
    CHECK_THAT(f.error, Catch::Contains("without Content-Length"));
    f = reader.next();
    REQUIRE(f.kind == Frame::Kind::message);
    CHECK(f.body == "{}");
}

TEST_CASE("a frame cut short by the end of the stream ends it", "[server][framing]") {
    std::istringstream in("Content-Length: 100\r\n\r\n{\"short\":");
    FrameReader reader(in);
    CHECK(reader.next().kind == Frame::Kind::end);
    std::istringstream bare_lf("Content-Length: 2\n\n{}");  // \n alone ends header lines too
    FrameReader lf(bare_lf);
    Frame f = lf.next();
    REQUIRE(f.kind == Frame::Kind::message);
    CHECK(f.body == "{}");
}

TEST_CASE("an oversized body is skipped without being held", "[server][framing]") {
    const std::size_t big = max_message_bytes + 10;
    std::string stream = fmt::format("Content-Length: {}\r\n\r\n", big);
    stream.append(big, 'x');
    stream += frame_message("{}");
    std::istringstream in(stream);
    FrameReader reader(in);
    Frame f = reader.next();
    REQUIRE(f.kind == Frame::Kind::malformed);
    CHECK_THAT(f.error, Catch::Contains("more than the limit"));
    f = reader.next();
    REQUIRE(f.kind == Frame::Kind::message);
    CHECK(f.body == "{}");
}

TEST_CASE("positions count UTF-16 code units", "[server][utf16]") {
    // "é" is 2 bytes and 1 unit, "€" 3 bytes and 1 unit, "😀" 4 bytes and 2 units.
    const std::string text = "a = \"é€😀x\"\r\nb\n";
    CHECK(byte_offset(text, {0, 0}) == 0);
    CHECK(byte_offset(text, {0, 5}) == 5);     // before é
    CHECK(byte_offset(text, {0, 6}) == 7);     // before €
    CHECK(byte_offset(text, {0, 7}) == 10);    // before 😀
    CHECK(byte_offset(text, {0, 9}) == 14);    // before x
    CHECK(byte_offset(text, {0, 8}) == 14);    // inside the surrogate pair: after the character
    CHECK(byte_offset(text, {0, 200}) == 16);  // past the line's end: before \r\n
    CHECK(byte_offset(text, {1, 0}) == 18);
    CHECK(byte_offset(text, {1, 1}) == 19);
    CHECK(byte_offset(text, {2, 0}) == 20);           // the empty last line
    CHECK(byte_offset(text, {9, 3}) == text.size());  // past the last line
    CHECK(text_position(text, 14) == TextPosition{0, 9});
    CHECK(text_position(text, 10) == TextPosition{0, 7});
    CHECK(text_position(text, 16) == TextPosition{0, 11});
    CHECK(text_position(text, 17) == TextPosition{0, 11});  // between \r and \n: still the line's end
    CHECK(text_position(text, 18) == TextPosition{1, 0});
    CHECK(text_position(text, 1000) == TextPosition{2, 0});
    for (std::size_t i : {0U, 5U, 7U, 10U, 14U, 15U, 16U, 18U, 19U, 20U}) {
        CHECK(byte_offset(text, text_position(text, i)) == i);
    }
}

TEST_CASE("invalid UTF-8 counts one unit per byte", "[server][utf16]") {
    const std::string text = "\xff\xfe\xe2\x82z";  // two stray bytes, a truncated sequence, z
    CHECK(byte_offset(text, {0, 2}) == 2);
    CHECK(byte_offset(text, {0, 4}) == 4);
    CHECK(text_position(text, 5) == TextPosition{0, 5});
}

TEST_CASE("incremental changes apply in order at UTF-16 positions", "[server][utf16]") {
    std::string text = "variable \"ä\" {\n  type = string\n}\n";
    apply_change(text, TextChange{TextRange{{0, 10}, {0, 11}}, "😀b"});  // replace ä
    CHECK(text == "variable \"😀b\" {\n  type = string\n}\n");
    apply_change(text, TextChange{TextRange{{0, 13}, {0, 13}}, "c"});  // after 😀 (2 units) and b
    CHECK(text == "variable \"😀bc\" {\n  type = string\n}\n");
    apply_change(text, TextChange{TextRange{{1, 2}, {2, 0}}, ""});  // delete across a line break
    CHECK(text == "variable \"😀bc\" {\n  }\n");
    apply_change(text, TextChange{TextRange{{1, 3}, {1, 1}}, "X"});  // end before start: insert at start
    CHECK(text == "variable \"😀bc\" {\n  }X\n");
    apply_change(text, TextChange{std::nullopt, "whole"});
    CHECK(text == "whole");
    apply_change(text, TextChange{TextRange{{5, 0}, {6, 0}}, "!"});  // beyond the end: appended
    CHECK(text == "whole!");
}

TEST_CASE("file URIs and paths convert both ways", "[server][uri]") {
    CHECK(path_of_uri("file:///home/u/a%20b/main.tf") == "/home/u/a b/main.tf");
    CHECK(path_of_uri("file://localhost/x.tf") == "/x.tf");
    CHECK(path_of_uri("file:///C%3A/x.tf") == "/C:/x.tf");
    CHECK_FALSE(path_of_uri("untitled:Untitled-1").has_value());
    CHECK_FALSE(path_of_uri("file://server/share/x.tf").has_value());
    CHECK_FALSE(path_of_uri("file:///a%00b").has_value());
    CHECK(uri_of_path("/a b/ü.tf") == "file:///a%20b/%C3%BC.tf");
    CHECK(path_of_uri(uri_of_path("/a b/ü#?.tf")) == "/a b/ü#?.tf");
}

TEST_CASE("the document store keeps the editor's texts as overlays", "[server][documents]") {
    testing::ScratchDir dir("tfsift-server");
    testing::write_file(dir.path / "main.tf", "on disk\n");
    const std::string uri = uri_of_path((dir.path / "main.tf").string());
    DocumentStore store;
    REQUIRE(store.open(uri, 1, "in the editor\n"));
    CHECK_FALSE(store.open("untitled:1", 1, "x"));
    REQUIRE(store.change(uri, 2, {TextChange{TextRange{{0, 3}, {0, 6}}, "a"}}));
    CHECK(store.find(uri)->text == "in a editor\n");
    CHECK(store.find(uri)->version == 2);
    CHECK_FALSE(store.change("file:///nowhere.tf", 1, {}));
    auto overlays = store.overlays();
    REQUIRE(overlays->size() == 1);
    CHECK(overlays->begin()->first == fs::canonical(dir.path / "main.tf").string());
    CHECK(store.in_directory(dir.path.string()).size() == 1);
    // A test file belongs to the module whose test directory holds it, as
    // the nearest settings file names it.
    testing::write_file(dir.path / ".tfsift.toml", "root = true\ntest_directory = \"spec/unit\"\n");
    testing::write_file(dir.path / "spec" / "unit" / "a.tftest.hcl", "run \"a\" {}\n");
    const std::string test_uri = uri_of_path((dir.path / "spec" / "unit" / "a.tftest.hcl").string());
    REQUIRE(store.open(test_uri, 1, "run \"a\" {}\n"));
    CHECK(store.in_directory(dir.path.string()).size() == 2);
    CHECK(store.in_directory((dir.path / "spec" / "unit").string()).empty());
    store.close(test_uri);
    store.close(uri);
    CHECK(store.find(uri) == nullptr);
    CHECK(store.overlays()->empty());
}

TEST_CASE("a lint session reads overlaid texts instead of the files", "[server][overlays]") {
    testing::ScratchDir dir("tfsift-overlay");
    testing::write_file(dir.path / "main.tf", "variable \"x\" {\n  type = string\n}\n");
    testing::write_file(dir.path / "broken.tf", "variable \"y\" {\n");
    lint::LintRequest request;
    request.catalogue = lint::builtin_rules();
    request.paths = {dir.path.string()};
    request.selection.only = {"syntax-error"};
    auto on_disk = lint::run_session(request);
    REQUIRE(on_disk.completed);
    REQUIRE(on_disk.findings.size() == 1);
    CHECK(on_disk.findings[0].file->path().ends_with("broken.tf"));

    auto overlays = std::make_shared<FileOverlays>();
    (*overlays)[fs::canonical(dir.path / "broken.tf").string()] = "variable \"y\" {}\n";
    (*overlays)[fs::canonical(dir.path / "main.tf").string()] = "variable \"x\" {\n  type = \n}\n";
    request.overlays = overlays;
    auto edited = lint::run_session(request);
    REQUIRE(edited.completed);
    REQUIRE(edited.findings.size() == 1);
    CHECK(edited.findings[0].file->path().ends_with("main.tf"));
    CHECK(edited.findings[0].file->text() == "variable \"x\" {\n  type = \n}\n");
    CHECK(edited.findings[0].file->line(edited.findings[0].range.start) == 2);  // the missing expression
    // The disk is untouched.
    CHECK(testing::read_file(dir.path / "broken.tf") == "variable \"y\" {\n");
}

TEST_CASE("the ignore action inserts the inline ignore syntax above the finding", "[server][actions]") {
    auto src = std::make_shared<const SourceFile>("m/main.tf", "resource \"a\" \"b\" {\n    count = 1\n}\n");
    lint::Finding f;
    f.rule_id = "some-rule";
    f.file = src;
    f.range = Range{Pos{23}, Pos{28}};  // "count" on line 2
    auto edit = ignore_comment_edit(f);
    REQUIRE(edit.has_value());
    CHECK(edit->range.start.byte == 19);
    CHECK(edit->range.empty());
    CHECK(edit->replacement == "    # tfsift-ignore: some-rule -- reason\n");
    f.file = std::make_shared<const SourceFile>("m/main.tf.json", "{}");
    f.range = Range{};
    CHECK_FALSE(ignore_comment_edit(f).has_value());
}

TEST_CASE("code actions: the safe fix, the ignore comment and fix all, only for the current text",
          "[server][actions]") {
    const std::string text = "locals {\n  a = \"${x}\"\n  b = \"${y}\"\n}\n";
    auto src = std::make_shared<const SourceFile>("/m/main.tf", text);
    auto finding_at = [&src](std::uint32_t begin, std::uint32_t end, std::string repl, lint::Applicability how) {
        lint::Finding f;
        f.rule_id = "deprecated-interpolation";
        f.file = src;
        f.range = Range{Pos{begin}, Pos{end}};
        f.fix = lint::Fix{"Unwrap it", how, {{src, Range{Pos{begin}, Pos{end}}, std::move(repl)}}};
        return f;
    };
    lint::Findings findings{finding_at(15, 21, "x", lint::Applicability::safe),
                            finding_at(28, 34, "y", lint::Applicability::unsafe)};
    CodeActionQuery q;
    q.uri = "file:///m/main.tf";
    q.path = "/m/main.tf";
    q.text = text;
    q.base_dir = "/m";
    q.range = TextRange{{1, 6}, {1, 6}};
    nlohmann::json actions = code_actions(q, findings);
    REQUIRE(actions.size() == 3);  // the fix, the ignore, fix all
    CHECK(actions[0]["kind"] == "quickfix");
    CHECK(actions[0]["title"] == "Unwrap it");
    const auto& edit = actions[0]["edit"]["changes"]["file:///m/main.tf"][0];
    CHECK(edit["range"]["start"] == nlohmann::json({{"line", 1}, {"character", 6}}));
    CHECK(edit["range"]["end"] == nlohmann::json({{"line", 1}, {"character", 12}}));
    CHECK(edit["newText"] == "x");
    CHECK(actions[1]["title"] == "Ignore deprecated-interpolation here");
    CHECK(actions[1]["edit"]["changes"]["file:///m/main.tf"][0]["newText"] ==
          "  # tfsift-ignore: deprecated-interpolation -- reason\n");
    CHECK(actions[2]["kind"] == "source.fixAll.tfsift");
    // Fix all takes the safe fix only, as a replacement of the whole text.
    CHECK(actions[2]["edit"]["changes"]["file:///m/main.tf"][0]["newText"] == "locals {\n  a = x\n  b = \"${y}\"\n}\n");

    q.range = TextRange{{2, 6}, {2, 6}};  // the unsafe one: only its ignore and fix all
    actions = code_actions(q, findings);
    REQUIRE(actions.size() == 2);
    CHECK(actions[0]["title"] == "Ignore deprecated-interpolation here");

    q.only = {"source.fixAll"};
    actions = code_actions(q, findings);
    REQUIRE(actions.size() == 1);
    CHECK(actions[0]["kind"] == "source.fixAll.tfsift");

    const std::string edited = text + "\n";
    q.text = edited;  // the findings were computed from another text
    q.only.clear();
    CHECK(code_actions(q, findings).empty());
}

namespace {

// A module without a lock file, whose lock-missing finding's fix writes one,
// and a quick-fix query on its main.tf.
struct MissingLockFile {
    explicit MissingLockFile(const testing::ScratchDir& dir)
        : main_path((dir.path / "main.tf").string()), lock_path((dir.path / ".terraform.lock.hcl").string()) {
        testing::write_file(dir.path / "main.tf", text);
        auto src = std::make_shared<const SourceFile>(main_path, text);
        auto lock = std::make_shared<const SourceFile>(lock_path, "");
        finding.rule_id = "lock-missing";
        finding.file = src;
        finding.range = Range{Pos{0}, Pos{9}};
        finding.fix = lint::Fix{"Write the lock file", lint::Applicability::safe, {{lock, Range{}, "# lock\n"}}};
        query.uri = "file://" + main_path;
        query.path = main_path;
        query.text = text;
        query.base_dir = dir.path.string();
        query.range = TextRange{{0, 0}, {0, 0}};
        query.only = {"quickfix"};
    }
    std::string main_path;
    std::string lock_path;
    std::string text = "terraform {}\n";
    lint::Finding finding;
    CodeActionQuery query;
};

}  // namespace

TEST_CASE("code actions: a fix that writes a missing file creates it first", "[server][actions]") {
    testing::ScratchDir dir("tfsift-create-action");
    MissingLockFile m(dir);
    const std::string& lock_path = m.lock_path;
    const lint::Finding& f = m.finding;
    CodeActionQuery& q = m.query;
    q.creates_files = true;
    nlohmann::json actions = code_actions(q, {f});
    REQUIRE(!actions.empty());
    const auto& edit = actions[0]["edit"];
    CHECK_FALSE(edit.contains("changes"));
    REQUIRE(edit["documentChanges"].size() == 2);
    CHECK(edit["documentChanges"][0]["kind"] == "create");
    CHECK(edit["documentChanges"][0]["uri"] == "file://" + lock_path);
    CHECK(edit["documentChanges"][1]["textDocument"]["uri"] == "file://" + lock_path);
    CHECK(edit["documentChanges"][1]["edits"][0]["newText"] == "# lock\n");

    // Once the file exists, the same fix is a plain edit of it.
    testing::write_file(dir.path / ".terraform.lock.hcl", "");
    actions = code_actions(q, {f});
    REQUIRE(!actions.empty());
    CHECK(actions[0]["edit"]["changes"].contains("file://" + lock_path));
}

TEST_CASE("hover shows a finding's rule documentation, and an overridden block's origins", "[server][hover]") {
    auto src = std::make_shared<const SourceFile>("/m/main.tf", "variable \"v\" {}\n");
    lint::Finding f;
    f.rule_id = "variable-type-missing";
    f.severity = Severity::warning;
    f.message = "Variable v has no type";
    f.file = src;
    f.range = Range{Pos{0}, Pos{14}};
    lint::Rule rule;
    rule.id = "variable-type-missing";
    rule.doc.summary = "Variables declare a type.";
    rule.doc.why = "Because.";
    auto md = finding_hover({f}, {rule}, "/m/main.tf", "/m", 3);
    REQUIRE(md.has_value());
    CHECK_THAT(*md, Catch::Contains("**variable-type-missing** (warning): Variable v has no type"));
    CHECK_THAT(*md, Catch::Contains("Variables declare a type."));
    CHECK_FALSE(finding_hover({f}, {rule}, "/m/main.tf", "/m", 15).has_value());
    CHECK_FALSE(finding_hover({f}, {rule}, "/m/other.tf", "/m", 3).has_value());

    const auto module = nlohmann::json::parse(R"({
      "variables": {"v": {"type": {"value": "number", "origin": "override.tf:2"}, "default": null,
                          "origin": "main.tf:1", "overridden_by": ["override.tf:1"]},
                    "w": {"origin": "main.tf:5"}},
      "module_calls": {"net": {"source": {"value": "./net", "as_written": "./net", "origin": "main.tf:8"},
                               "config": {"arguments": {"cidr": {"expr": "\"10.0.0.0/16\"", "origin": "main.tf:9"}},
                                          "blocks": []},
                               "origin": "main.tf:7"}}
    })");
    auto over = origin_hover(module, "/m/override.tf", "/m", 1);
    REQUIRE(over.has_value());
    CHECK_THAT(*over, Catch::Contains("**variables.v**"));
    CHECK_THAT(*over, Catch::Contains("- declared at `main.tf:1`"));
    CHECK_THAT(*over, Catch::Contains("- overridden by `override.tf:1`"));
    CHECK_THAT(*over, Catch::Contains("- `type` = `\"number\"` from `override.tf:2`"));
    CHECK(origin_hover(module, "/m/main.tf", "/m", 1) == over);
    CHECK_FALSE(origin_hover(module, "/m/main.tf", "/m", 5).has_value());  // not overridden
    auto call = origin_hover(module, "/m/main.tf", "/m", 7);
    REQUIRE(call.has_value());
    CHECK_THAT(*call, Catch::Contains("**module.net**"));
    CHECK_THAT(*call, Catch::Contains("- `source` = `./net` from `main.tf:8`"));
    CHECK_THAT(*call, Catch::Contains("- `cidr` = `\"10.0.0.0/16\"` from `main.tf:9`"));
}

TEST_CASE("code actions: a client that cannot create files gets the fix as a command", "[server][actions]") {
    testing::ScratchDir dir("tfsift-create-command");
    MissingLockFile m(dir);
    const lint::Finding& f = m.finding;
    CodeActionQuery& q = m.query;
    nlohmann::json actions = code_actions(q, {f});
    REQUIRE(!actions.empty());
    CHECK_FALSE(actions[0].contains("edit"));
    CHECK(actions[0]["command"]["command"] == std::string(apply_fix_command));
    const auto& args = actions[0]["command"]["arguments"][0];
    CHECK(args["uri"] == q.uri);
    CHECK(args["rule"] == "lock-missing");
    CHECK(args["range"]["end"]["character"] == 9);
    // Once the file exists, the fix is a plain edit again.
    testing::write_file(dir.path / ".terraform.lock.hcl", "");
    actions = code_actions(q, {f});
    REQUIRE(!actions.empty());
    CHECK(actions[0]["edit"].contains("changes"));
}

TEST_CASE("code actions: the diagnostics of the context select findings outside the range", "[server][actions]") {
    const std::string path = "/m/main.tf";
    const std::string text = "output \"x\" {\n  value = \"${var.a}\"\n}\n";
    auto src = std::make_shared<const SourceFile>(path, text);
    lint::Finding f;
    f.rule_id = "deprecated-interpolation";
    f.file = src;
    const auto start = static_cast<std::uint32_t>(text.find("\"${"));
    f.range = Range{Pos{start}, Pos{start + 10}};
    f.fix = lint::Fix{"Unwrap", lint::Applicability::safe, {{src, f.range, "var.a"}}};
    CodeActionQuery q;
    q.uri = "file:///m/main.tf";
    q.path = path;
    q.text = text;
    q.base_dir = "/m";
    q.range = TextRange{{1, 0}, {1, 0}};  // column 0 of the finding's line
    q.only = {"quickfix"};
    CHECK(code_actions(q, {f}).empty());
    q.diagnostics.push_back(DiagnosticRef{TextRange{{1, 10}, {1, 20}}, "deprecated-interpolation"});
    auto actions = code_actions(q, {f});
    REQUIRE(actions.size() == 2);  // the fix and the ignore comment
    CHECK(actions[0]["isPreferred"] == true);
    q.diagnostics = {DiagnosticRef{TextRange{{1, 10}, {1, 20}}, "other-rule"}};
    CHECK(code_actions(q, {f}).empty());
}

TEST_CASE("a wrong Content-Length costs one message, not the stream", "[server][framing]") {
    const std::string a = R"({"jsonrpc":"2.0","method":"a"})";
    const std::string b = R"({"jsonrpc":"2.0","method":"b"})";
    const std::string c = R"({"jsonrpc":"2.0","method":"c"})";
    SECTION("declared too short: the rest of the body is skipped up to the next header") {
        std::istringstream in(fmt::format("Content-Length: {}\r\n\r\n{}", a.size() - 10, a) + frame_message(b) +
                              frame_message(c));
        FrameReader reader(in);
        Frame f = reader.next();
        REQUIRE(f.kind == Frame::Kind::message);
        CHECK(f.body == a.substr(0, a.size() - 10));
        f = reader.next();
        REQUIRE(f.kind == Frame::Kind::message);
        CHECK(f.body == b);
        f = reader.next();
        REQUIRE(f.kind == Frame::Kind::message);
        CHECK(f.body == c);
    }
    SECTION("declared too short, a pretty-printed tail over several lines") {
        const std::string pretty = "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"a\"\n}\n";
        std::istringstream in(fmt::format("Content-Length: 3\r\n\r\n{}", pretty) + frame_message(b) + frame_message(c));
        FrameReader reader(in);
        CHECK(reader.next().body == "{\n ");
        Frame f = reader.next();
        REQUIRE(f.kind == Frame::Kind::message);
        CHECK(f.body == b);
        CHECK(reader.next().body == c);
    }
    SECTION("declared too long: the next header inside the body is given back") {
        std::istringstream in(fmt::format("Content-Length: {}\r\n\r\n{}", a.size() + 30, a) + frame_message(b) +
                              frame_message(c));
        FrameReader reader(in);
        Frame f = reader.next();
        REQUIRE(f.kind == Frame::Kind::message);
        CHECK(f.body == a);
        f = reader.next();
        REQUIRE(f.kind == Frame::Kind::message);
        CHECK(f.body == b);
        f = reader.next();
        REQUIRE(f.kind == Frame::Kind::message);
        CHECK(f.body == c);
        CHECK(reader.next().kind == Frame::Kind::end);
    }
    SECTION("a body that only mentions the header in a string is kept whole") {
        const std::string mention = R"({"text":"Content-Length: 12\r\n"})";
        std::istringstream in(frame_message(mention) + frame_message(b));
        FrameReader reader(in);
        CHECK(reader.next().body == mention);
        CHECK(reader.next().body == b);
    }
}

TEST_CASE("JSON nesting is measured without recursion", "[server][framing]") {
    CHECK(json_nesting_depth(R"({"a":[1,{"b":[]}]})", 10) == 4);
    CHECK(json_nesting_depth(R"({"s":"[[[[{{{{\"]]"})", 10) == 1);
    const std::string deep = std::string(300000, '[') + std::string(300000, ']');
    CHECK(json_nesting_depth(deep, max_message_nesting) == max_message_nesting + 1);
}
