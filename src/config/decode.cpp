#include "tfsift/config/decode.hpp"

#include <algorithm>
#include <span>

#include <fmt/core.h>

#include "decoder.hpp"
#include "tfsift/config/override_merger.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/config/type_constraint.hpp"
#include "tfsift/config/version_constraints.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/cty/json.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/providers/version.hpp"

namespace tfsift::config {

std::unique_ptr<ParsedFile> parse_config_file(const std::shared_ptr<const SourceFile>& source, FileSyntax syntax) {
    auto out = std::make_unique<ParsedFile>();
    out->source = source;
    out->syntax = syntax;
    if (syntax == FileSyntax::native) {
        out->native = hcl::parse(source);
        out->parse_diagnostics = out->native->diagnostics;
    } else {
        out->json = json::parse(source);
        out->parse_diagnostics = out->json->diagnostics;
        const json::Value& root = out->json->root;
        if (!out->json->has_errors() && !root.is_object()) {
            bool array_of_objects = root.is_array();
            for (const auto& i : root.items) array_of_objects = array_of_objects && i.is_object();
            if (!array_of_objects) {
                Diagnostic d;
                d.code = code::root_value_must_be_object;
                d.summary = "Root value must be object";
                d.detail =
                    "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.";
                d.filename = source->path();
                d.subject = root.range;
                out->parse_diagnostics.push_back(std::move(d));
            }
        }
    }
    return out;
}

Decoder::Decoder(ParsedFile& file, bool is_override, Diagnostics& diags, Engine engine,
                 std::vector<LeftOutDiagnostics>* left_out)
    : pf_(file), engine_(engine), left_out_(left_out), limited_up_to_(diags.size()) {
    ctx_.file = file.source.get();
    ctx_.arena = file.arena.get();
    ctx_.scratch = &file.scratch;
    ctx_.diags = &diags;
    ctx_.is_override = is_override;
    out_.source = file.source.get();
    out_.is_override = is_override;
}

ConfigFile Decoder::run() {
    for_each_root_body([this](const BodyRef& body) { decode_root(body); });
    if (left_out_ != nullptr) *left_out_ = limit_.take_left_out();
    return std::move(out_);
}

void Decoder::limit_diagnostics() {
    if (left_out_ == nullptr) return;
    limit_.trim(*ctx_.diags, limited_up_to_);
    limited_up_to_ = ctx_.diags->size();
}

void Decoder::decode_root(const BodyRef& body) {
    // The file's own content looks back at nothing: its diagnostics (an
    // unknown block per line, say) are limited as they arise.
    if (left_out_ != nullptr) ctx_.limit = &limit_;
    Content c = detail::body_content(ctx_, body, schema::file, nullptr);
    ctx_.limit = nullptr;
    limited_up_to_ = ctx_.diags->size();
    reserve_for(c.blocks);
    for (const auto& b : c.blocks) {
        limit_diagnostics();
        if (b.type == "terraform") {
            decode_terraform(b);
        } else if (b.type == "tofu") {
            if (engine_ == Engine::opentofu) {
                decode_terraform(b);
            } else {
                ctx_.error(code::unsupported_block_type, "Unsupported block type",
                           "Blocks of type \"tofu\" are not expected here.", b.type_range);
            }
        } else if (b.type == "ephemeral") {
            // Ephemeral resources (OpenTofu, and Terraform since v1.10)
            // are newer than the reference loader and are not part of the
            // effective document.
            decode_ephemeral(b);
        } else if (b.type == "action") {
            if (engine_ == Engine::terraform) {
                decode_action(b);
            } else {
                ctx_.error(code::unsupported_block_type, "Unsupported block type",
                           fmt::format("Blocks of type \"{}\" are not expected here.", b.type), b.type_range);
            }
        } else if (b.type == "language") {
            if (engine_ == Engine::opentofu) {
                decode_language(b);
            } else {
                ctx_.error(code::unsupported_block_type, "Unsupported block type",
                           fmt::format("Blocks of type \"{}\" are not expected here.", b.type), b.type_range);
            }
        } else if (b.type == "required_providers") {
            ctx_.error(code::invalid_required_providers_block, "Invalid required_providers block",
                       "A \"required_providers\" block must be nested inside a \"terraform\" block.", b.type_range);
        } else if (b.type == "provider") {
            decode_provider(b);
        } else if (b.type == "variable") {
            decode_variable(b);
        } else if (b.type == "locals") {
            decode_locals(b);
        } else if (b.type == "output") {
            decode_output(b);
        } else if (b.type == "module") {
            decode_module(b);
        } else if (b.type == "resource") {
            decode_resource(b, ResourceMode::managed);
        } else if (b.type == "data") {
            decode_resource(b, ResourceMode::data);
        } else if (b.type == "moved") {
            decode_moved(b);
        } else if (b.type == "import") {
            decode_import(b);
        }
        // import, check and removed blocks are newer than the reference
        // loader and are not part of the effective document; import
        // blocks are decoded for the checks that involve them.
    }
    limit_diagnostics();
}

// Room for the file's declarations up front: a variable or resource is
// large, and a vector growing one block at a time moves every earlier
// one again.
void Decoder::reserve_for(const std::vector<ContentBlock>& blocks) {
    std::size_t variables = 0;
    std::size_t outputs = 0;
    std::size_t resources = 0;
    std::size_t module_calls = 0;
    for (const auto& b : blocks) {
        if (b.type == "variable") ++variables;
        if (b.type == "output") ++outputs;
        if (b.type == "resource" || b.type == "data") ++resources;
        if (b.type == "module") ++module_calls;
    }
    out_.variables.reserve(out_.variables.size() + variables);
    out_.outputs.reserve(out_.outputs.size() + outputs);
    out_.resources.reserve(out_.resources.size() + resources);
    out_.module_calls.reserve(out_.module_calls.size() + module_calls);
}

ConfigFile decode_config_file(ParsedFile& file, bool is_override, Diagnostics& diags, Engine engine,
                              std::vector<LeftOutDiagnostics>* left_out) {
    Decoder d(file, is_override, diags, engine, left_out);
    return d.run();
}

}  // namespace tfsift::config
