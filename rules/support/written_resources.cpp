#include "written_resources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <unordered_map>

#include "tfsift/config/decode.hpp"
#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/lint/module_memo.hpp"

namespace tfsift::lint::written {
namespace {

bool contains(Range r, Pos p) { return r.start.byte <= p.byte && p.byte < r.end.byte; }

// ---- native syntax ------------------------------------------------------------

LifecycleBlock native_lifecycle(const SourceFile* file, const hcl::Block& b) {
    LifecycleBlock lc;
    lc.type_range = b.type_range();
    lc.range = b.range();
    // Members in source order: attributes and blocks interleaved by position.
    for (const hcl::Attribute& a : b.body.attributes) {
        lc.members.push_back(LifecycleMember{std::string(a.name), false, a.name_range(), a.range,
                                             config::Expression{file, a.expr->range, a.expr, nullptr}});
    }
    for (const hcl::Block& inner : b.body.blocks) {
        lc.members.push_back(
            LifecycleMember{std::string(inner.type), true, inner.type_range(), inner.range(), std::nullopt});
    }
    std::sort(lc.members.begin(), lc.members.end(), [](const LifecycleMember& x, const LifecycleMember& y) {
        return x.range.start.byte < y.range.start.byte;
    });
    return lc;
}

void native_blocks(const config::ParsedFile& file, std::vector<ResourceBlock>& out) {
    const hcl::File& f = *file.native;
    for (const hcl::Block& b : f.body->blocks) {
        if ((b.type != "resource" && b.type != "data") || b.labels.size() != 2) continue;
        ResourceBlock r;
        r.mode = b.type == "resource" ? config::ResourceMode::managed : config::ResourceMode::data;
        r.type = std::string(b.labels[0].value);
        r.name = std::string(b.labels[1].value);
        r.def_range = b.def_range();
        for (const hcl::Block& inner : b.body.blocks) {
            if (inner.type == "lifecycle") {
                r.lifecycles.push_back(native_lifecycle(file.source.get(), inner));
            } else if (inner.type == "provisioner" && inner.labels.size() == 1) {
                ProvisionerBlock p;
                p.type = std::string(inner.labels[0].value);
                p.origin = inner.type_range().start;
                p.def_range = inner.def_range();
                for (const hcl::Attribute& a : inner.body.attributes) {
                    if (a.name == "when") p.when = a.range;
                }
                r.provisioners.push_back(std::move(p));
            }
        }
        out.push_back(std::move(r));
    }
}

// ---- JSON syntax ----------------------------------------------------------------

// Calls f on each object of a value that is an object or an array of them.
template <class F>
void each_object(const json::Value& v, F&& f) {
    if (v.is_object()) {
        f(v);
    } else if (v.is_array()) {
        for (const auto& item : v.items) {
            if (item.is_object()) f(item);
        }
    }
}

LifecycleBlock json_lifecycle(const SourceFile* file, const json::Member& prop, const json::Value& body) {
    LifecycleBlock lc;
    lc.type_range = prop.name_range;
    lc.range = Range{prop.name_range.start, body.range.end};
    for (const auto& m : body.members) {
        if (m.name == "//") continue;
        const bool block = m.name == "precondition" || m.name == "postcondition";
        LifecycleMember member{m.name, block, m.name_range, Range{m.name_range.start, m.value.range.end}, std::nullopt};
        if (!block) member.expr = config::Expression{file, m.value.range, nullptr, &m.value};
        lc.members.push_back(std::move(member));
    }
    return lc;
}

void json_resource_body(const config::ParsedFile& file, const json::Value& body, ResourceBlock& r) {
    for (const auto& m : body.members) {
        if (m.name == "lifecycle") {
            each_object(m.value, [&](const json::Value& lc) {
                r.lifecycles.push_back(json_lifecycle(file.source.get(), m, lc));
            });
        } else if (m.name == "provisioner") {
            // "provisioner": {"TYPE": {...}} or [{"TYPE": {...}}, ...]
            each_object(m.value, [&](const json::Value& by_type) {
                for (const auto& t : by_type.members) {
                    each_object(t.value, [&](const json::Value& pbody) {
                        ProvisionerBlock p;
                        p.type = t.name;
                        p.origin = t.value.range.start;
                        p.def_range = t.name_range;
                        if (const auto* when = pbody.find("when")) {
                            for (const auto& pm : pbody.members) {
                                if (pm.name == "when") p.when = Range{pm.name_range.start, when->range.end};
                            }
                        }
                        r.provisioners.push_back(std::move(p));
                    });
                }
            });
        }
    }
}

void json_blocks(const config::ParsedFile& file, std::vector<ResourceBlock>& out) {
    const json::Value& root = file.json->root;
    if (!root.is_object()) return;
    for (const auto& top : root.members) {
        if (top.name != "resource" && top.name != "data") continue;
        const auto mode = top.name == "resource" ? config::ResourceMode::managed : config::ResourceMode::data;
        each_object(top.value, [&](const json::Value& by_type) {
            for (const auto& t : by_type.members) {
                each_object(t.value, [&](const json::Value& by_name) {
                    for (const auto& n : by_name.members) {
                        each_object(n.value, [&](const json::Value& body) {
                            ResourceBlock r;
                            r.mode = mode;
                            r.type = t.name;
                            r.name = n.name;
                            r.def_range = n.name_range;
                            json_resource_body(file, body, r);
                            out.push_back(std::move(r));
                        });
                    }
                });
            }
        });
    }
}

}  // namespace

const LifecycleMember* LifecycleBlock::argument(std::string_view name) const {
    for (const auto& m : members) {
        if (!m.is_block && m.name == name) return &m;
    }
    return nullptr;
}

std::shared_ptr<const std::vector<ResourceBlock>> resource_blocks(const config::ParsedFile& file) {
    auto read = [&file] {
        auto out = std::make_shared<std::vector<ResourceBlock>>();
        if (file.native) {
            native_blocks(file, *out);
        } else if (file.json) {
            json_blocks(file, *out);
        }
        return std::shared_ptr<const std::vector<ResourceBlock>>(std::move(out));
    };
    ModuleMemo* memo = ModuleMemo::active();
    if (memo == nullptr) return read();
    // The module's files live as long as the memo: their addresses are keys.
    struct Read {
        std::unordered_map<const config::ParsedFile*, std::shared_ptr<const std::vector<ResourceBlock>>> by_file;
    };
    auto& blocks = memo->shared<Read>().by_file[&file];
    if (blocks == nullptr) blocks = read();
    return blocks;
}

std::optional<LifecycleSite> lifecycle_site(const std::vector<ResourceBlock>& blocks, Pos pos) {
    for (const auto& r : blocks) {
        for (const auto& lc : r.lifecycles) {
            if (!contains(lc.range, pos)) continue;
            LifecycleSite site{&r, &lc, nullptr};
            for (const auto& m : lc.members) {
                if (contains(m.range, pos)) site.member = &m;
            }
            return site;
        }
    }
    return std::nullopt;
}

std::string block_label(config::ResourceMode mode, std::string_view type, std::string_view name) {
    return fmt::format("{} \"{}\" \"{}\"", mode == config::ResourceMode::managed ? "resource" : "data", type, name);
}

}  // namespace tfsift::lint::written
