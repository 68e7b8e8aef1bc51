#include "override_support.hpp"

#include <algorithm>

#include "tfsift/config/decode.hpp"
#include "tfsift/config/module_files.hpp"
#include "tfsift/hcl/ast.hpp"

namespace tfsift::lint::rules {

bool is_override_file_path(std::string_view path) {
    auto slash = path.find_last_of("/\\");
    std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    config::ConfigFileName classified;
    // OpenTofu's classification also knows the `.tofu` forms; the Terraform
    // engine never loads those, so no diagnostic can name one.
    return config::classify_file_name(name, Engine::opentofu, classified) &&
           classified.role == config::FileRole::override;
}

const WrittenArgument* WrittenBlock::find_argument(std::string_view name) const {
    for (const auto& a : arguments) {
        if (a.name == name) return &a;
    }
    return nullptr;
}

namespace {

std::size_t label_count(std::string_view type) {
    if (type == "resource" || type == "data") return 2;
    if (type == "terraform" || type == "locals") return 0;
    return 1;
}

// Follows one more label level of a JSON block: `value` is an object whose
// keys are labels, or an array of such objects. At the last level the body
// is an object or an array of objects; like the decoder, its position is the
// opening `{` (or `[` for an array).
void collect_json(const SourceFile& src, const json::Value& value, std::vector<std::string>& labels,
                  std::string_view type, std::size_t remaining, std::vector<WrittenBlock>& out) {
    if (remaining == 0) {
        const Range open{value.range.start, Pos{static_cast<std::uint32_t>(value.range.start.byte + 1)}};
        auto add = [&](const json::Value& body) {
            WrittenBlock b;
            b.type = std::string(type);
            b.labels = labels;
            b.def_range = open;
            for (const auto& m : body.members) {
                if (m.name == "//") continue;
                b.arguments.push_back({m.name, m.name_range});
            }
            out.push_back(std::move(b));
        };
        if (value.is_object()) add(value);
        if (value.is_array()) {
            for (const auto& item : value.items) {
                if (item.is_object()) add(item);
            }
        }
        return;
    }
    if (value.is_array()) {
        for (const auto& item : value.items) collect_json(src, item, labels, type, remaining, out);
        return;
    }
    if (!value.is_object()) return;
    for (const auto& m : value.members) {
        labels.push_back(m.name);
        collect_json(src, m.value, labels, type, remaining - 1, out);
        labels.pop_back();
    }
}

}  // namespace

std::vector<WrittenBlock> written_blocks(const config::ModuleFile& file, const std::vector<std::string_view>& types) {
    std::vector<WrittenBlock> out;
    auto wanted = [&](std::string_view t) { return std::find(types.begin(), types.end(), t) != types.end(); };
    if (file.parsed->native) {
        const hcl::Body* body = file.parsed->native->body;
        if (!body) return out;
        for (const hcl::Block& b : body->blocks) {
            if (!wanted(b.type) || b.labels.size() != label_count(b.type)) continue;
            WrittenBlock w;
            w.type = std::string(b.type);
            for (const auto& l : b.labels) w.labels.emplace_back(l.value);
            w.def_range = b.def_range();
            for (const auto& a : b.body.attributes) w.arguments.push_back({std::string(a.name), a.name_range()});
            out.push_back(std::move(w));
        }
    } else if (file.parsed->json) {
        const json::Value& root = file.parsed->json->root;
        if (!root.is_object()) return out;
        for (const auto& m : root.members) {
            if (!wanted(m.name)) continue;
            std::vector<std::string> labels;
            collect_json(*file.parsed->source, m.value, labels, m.name, label_count(m.name), out);
        }
    }
    return out;
}

std::vector<DeclaredBlock> declared_blocks(const config::ConfigFile& file) {
    std::vector<DeclaredBlock> out;
    for (const auto& [p, d] : file.providers) out.push_back({"provider", {p.name}, p.alias, d.def_range, 0, p.origin});
    for (const auto& [v, d] : file.variables) out.push_back({"variable", {v.name}, {}, d.def_range, 0, v.origin});
    for (const auto& [o, d] : file.outputs) {
        out.push_back({"output", {o.name}, {}, d.def_range, o.depends_on.size(), o.origin});
    }
    for (const auto& [m, d] : file.module_calls) {
        out.push_back({"module", {m.name}, {}, d.def_range, m.depends_on.size(), m.origin});
    }
    for (const auto& [r, d] : file.resources) {
        out.push_back({r.mode == config::ResourceMode::managed ? "resource" : "data",
                       {r.type, r.name},
                       {},
                       d.def_range,
                       r.depends_on.size(),
                       r.origin});
    }
    return out;
}

bool DeclaredBlock::same_header(const DeclaredBlock& other) const {
    return type == other.type && labels == other.labels && alias == other.alias;
}

std::string block_header(std::string_view type, const std::vector<std::string>& labels) {
    std::string out(type);
    for (const auto& l : labels) {
        out += " \"";
        out += l;
        out += '"';
    }
    return out;
}

}  // namespace tfsift::lint::rules
