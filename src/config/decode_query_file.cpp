// Query files, decoded as Terraform's loader reads them for `terraform query`
// and `terraform validate -query` (internal/configs/query_file.go,
// loadQueryFile): `list` blocks, and `provider`, `variable` and `locals`
// blocks decoded as in a configuration file; any other block is an
// unsupported block type. A list block takes `provider` (required),
// `count` or `for_each`, `include_resource`, `limit` and one `config` block;
// its name must be an identifier, and a second list of the same type and
// name in the same file is an error.
#include <map>
#include <utility>

#include <fmt/core.h>

#include "decoder.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::config {

QueryList Decoder::decode_query_list(const ContentBlock& b) {
    QueryList l;
    l.type = b.labels[0];
    l.name = b.labels[1];
    l.def_range = b.def_range;
    Content c = detail::body_content(ctx_, b.body, schema::query_list, nullptr);
    if (const auto* a = c.attribute("provider")) {
        l.provider = decode_provider_ref(a->expr, "provider");
    } else {
        ctx_.error(code::missing_provider_attribute, "Missing \"provider\" attribute",
                   "You must specify a provider attribute when defining a list block.", b.def_range);
    }
    if (!detail::valid_identifier(l.name)) {
        ctx_.error(code::invalid_list_block_name, "Invalid list block name", bad_identifier_detail, b.def_range);
    }
    if (const auto* a = c.attribute("for_each"); a != nullptr && c.attribute("count") != nullptr) {
        ctx_.error(code::invalid_combination_of_count_and_for_each, "Invalid combination of \"count\" and \"for_each\"",
                   "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive.", a->name_range);
    }
    bool config = false;
    for (const auto& inner : c.blocks) {
        if (!config) {
            config = true;
            continue;
        }
        ctx_.error(code::duplicate_config_block, "Duplicate config block",
                   "A list block must contain only one nested \"config\" block.", inner.def_range);
    }
    return l;
}

void Decoder::decode_query_root(const BodyRef& body, QueryFile& out) {
    Content c = detail::body_content(ctx_, body, schema::query_file, nullptr);
    std::map<std::pair<std::string, std::string>, Range> seen;  // (type, name): the first list's block
    for (const auto& b : c.blocks) {
        if (b.type == "list") {
            const std::size_t before = ctx_.diags->size();
            QueryList l = decode_query_list(b);
            for (std::size_t i = before; i < ctx_.diags->size(); ++i) {
                l.valid = l.valid && (*ctx_.diags)[i].severity != Severity::error;
            }
            // Terraform keeps a list that decoded cleanly before it looks
            // for an earlier one of the same name, so a duplicate is also
            // reported when the files are combined.
            auto [it, inserted] = seen.try_emplace(std::make_pair(l.type, l.name), l.def_range);
            if (!inserted) {
                ctx_.error(code::duplicate_list_block_names, "Duplicate \"list\" block names",
                           fmt::format("This query file already has a list block named {}.{} defined at {}.", l.type,
                                       l.name, test_range_string(it->second)),
                           b.def_range);
            }
            out.lists.push_back(std::move(l));
        } else if (b.type == "provider") {
            decode_provider(b);
        } else if (b.type == "variable") {
            decode_variable(b);
        } else if (b.type == "locals") {
            decode_locals(b);
        }
    }
}

QueryFile Decoder::run_query_file() {
    QueryFile out;
    out.source = ctx_.file;
    for_each_root_body([&](const BodyRef& body) { decode_query_root(body, out); });
    out.declarations = std::move(out_);
    return out;
}

QueryFile decode_query_file(ParsedFile& file, Diagnostics& diags) {
    // Query files exist only for Terraform.
    Decoder d(file, false, diags, Engine::terraform);
    return d.run_query_file();
}

}  // namespace tfsift::config
