#include "tfsift/server/hover.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "tfsift/server/lsp_diagnostics.hpp"

namespace tfsift::server {

namespace {

struct ParsedOrigin {
    std::string path;
    std::uint32_t line = 0;
};

// "FILE:LINE" with FILE resolved against `base_dir`.
std::optional<ParsedOrigin> parse_origin(const nlohmann::json& origin, const std::string& base_dir) {
    if (!origin.is_string()) return std::nullopt;
    const auto& text = origin.get_ref<const std::string&>();
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon + 1 >= text.size()) return std::nullopt;
    std::uint32_t line = 0;
    for (std::size_t i = colon + 1; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9') return std::nullopt;
        line = line * 10 + static_cast<std::uint32_t>(text[i] - '0');
    }
    return ParsedOrigin{absolute_file_path(text.substr(0, colon), base_dir), line};
}

bool origin_at(const nlohmann::json& origin, const std::string& path, const std::string& base_dir, std::uint32_t line) {
    auto o = parse_origin(origin, base_dir);
    return o && o->line == line && o->path == path;
}

// A block that starts at the hovered place: a module call, or anything an
// override changed.
struct Candidate {
    std::string label;
    const nlohmann::json* value = nullptr;
    bool module_call = false;
};

void find_candidates(const nlohmann::json& j, const std::string& label, bool module_call, const std::string& path,
                     const std::string& base_dir, std::uint32_t line, std::vector<Candidate>& out) {
    if (j.is_object()) {
        auto origin = j.find("origin");
        auto overridden = j.find("overridden_by");
        const bool has_overrides = overridden != j.end() && overridden->is_array() && !overridden->empty();
        if (origin != j.end() && (module_call || has_overrides)) {
            bool here = origin_at(*origin, path, base_dir, line);
            if (has_overrides) {
                for (const auto& o : *overridden) here = here || origin_at(o, path, base_dir, line);
            }
            if (here) out.push_back({label, &j, module_call});
        }
        for (const auto& [key, value] : j.items()) {
            if (key == "origin" || key == "overridden_by") continue;
            if (label.empty() && key == "module_calls" && value.is_object()) {
                for (const auto& [name, call] : value.items()) {
                    find_candidates(call, "module." + name, true, path, base_dir, line, out);
                }
                continue;
            }
            const std::string child = label.empty() ? key : fmt::format("{}.{}", label, key);
            find_candidates(value, child, false, path, base_dir, line, out);
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) {
            find_candidates(j[i], fmt::format("{}[{}]", label, i), false, path, base_dir, line, out);
        }
    }
}

std::string origin_text(const nlohmann::json& origin) { return origin.is_string() ? origin.get<std::string>() : "?"; }

// One line per argument (expression or value with an origin), nested
// bodies flattened with dotted names.
void describe_arguments(const nlohmann::json& j, const std::string& prefix, std::string& out, int depth) {
    if (!j.is_object() || depth > 4) return;
    for (const auto& [key, value] : j.items()) {
        if (key == "origin" || key == "overridden_by" || !value.is_object()) continue;
        const std::string name = prefix + key;
        auto origin = value.find("origin");
        if (origin != value.end() && (value.contains("expr") || value.contains("value"))) {
            std::string shown;
            if (value.contains("expr")) {
                shown = value["expr"].is_string() ? value["expr"].get<std::string>() : value["expr"].dump();
            } else if (value.contains("as_written")) {
                shown = value["as_written"].is_string() ? value["as_written"].get<std::string>()
                                                        : value["as_written"].dump();
            } else {
                shown = value["value"].dump();
            }
            if (shown.size() > 80) shown = shown.substr(0, 77) + "...";
            out += fmt::format("- `{}` = `{}` from `{}`\n", name, shown, origin_text(*origin));
        } else if (key == "arguments" || key == "config") {
            describe_arguments(value, prefix, out, depth + 1);
        }
    }
}

}  // namespace

std::optional<std::string> finding_hover(const lint::Findings& findings, const std::vector<lint::Rule>& catalogue,
                                         const std::string& path, const std::string& base_dir, std::size_t offset) {
    std::string out;
    std::vector<std::string> documented;
    for (const auto& f : findings) {
        if (!f.file || absolute_file_path(f.file->path(), base_dir) != path) continue;
        if (offset < f.range.start.byte || offset > f.range.end.byte) continue;
        if (!out.empty()) out += "\n\n---\n\n";
        out += fmt::format("**{}** ({}): {}", f.rule_id, to_string(f.severity), f.message);
        if (std::find(documented.begin(), documented.end(), f.rule_id) != documented.end()) continue;
        documented.push_back(f.rule_id);
        for (const auto& r : catalogue) {
            if (r.id == f.rule_id) {
                out += "\n\n" + lint::rule_markdown(r);
                break;
            }
        }
    }
    if (out.empty()) return std::nullopt;
    return out;
}

std::optional<std::string> origin_hover(const nlohmann::json& module, const std::string& path,
                                        const std::string& base_dir, std::uint32_t line) {
    std::vector<Candidate> found;
    find_candidates(module, "", false, path, base_dir, line, found);
    if (found.empty()) return std::nullopt;
    // The outermost block starting there.
    const Candidate* best = &found.front();
    for (const auto& c : found) {
        if (c.label.size() < best->label.size()) best = &c;
    }
    const nlohmann::json& j = *best->value;
    std::string out = fmt::format("**{}**: effective value\n\n", best->label);
    out += fmt::format("- declared at `{}`\n", origin_text(j["origin"]));
    if (auto o = j.find("overridden_by"); o != j.end() && o->is_array()) {
        for (const auto& by : *o) out += fmt::format("- overridden by `{}`\n", origin_text(by));
    }
    std::string args;
    describe_arguments(j, "", args, 0);
    if (!args.empty()) out += "\nEach argument and the file it comes from:\n\n" + args;
    return out;
}

}  // namespace tfsift::server
