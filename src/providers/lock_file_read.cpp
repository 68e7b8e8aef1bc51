// Reading `.terraform.lock.hcl` as Terraform's depsfile.LoadLocksFromFile
// does: HCL native syntax, a fixed schema checked the way hclsyntax's
// Body.Content checks it, attribute values decoded as gohcl.DecodeExpression
// decodes them (no variables, no functions), then the lock-specific checks of
// spec 3.3, all in upstream's order.
#include <fmt/format.h>
#include <utf8proc.h>

#include <algorithm>
#include <system_error>

#include "providers/go_quote.hpp"
#include "tfsift/cty/convert.hpp"
#include "tfsift/file_read.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/hcl/eval.hpp"
#include "tfsift/providers/lock_checks.hpp"
#include "tfsift/providers/lock_file.hpp"

namespace tfsift::providers {

namespace {

Diagnostic error_at(const SourceFile& source, std::string summary, std::string detail, Range subject) {
    return Diagnostic{Severity::error, std::move(summary), std::move(detail), source.path(), subject, std::nullopt};
}

// hclsyntax's Expression.StartRange: where a value-related diagnostic points.
// A loop, not recursion: an operator chain is one level deeper per operator.
Range start_range(const hcl::Expr& root) {
    using hcl::ExprKind;
    const hcl::Expr* e = &root;
    for (;;) {
        switch (e->kind) {
            case ExprKind::template_: {
                const auto& t = hcl::as<hcl::TemplateExpr>(*e);
                if (t.parts.empty()) return e->range;
                e = &*t.parts.front();
                continue;
            }
            case ExprKind::template_join: e = &*hcl::as<hcl::TemplateJoinExpr>(*e).tuple; continue;
            case ExprKind::function_call: {
                const auto& f = hcl::as<hcl::FunctionCallExpr>(*e);
                return {f.name_range().start, f.open_paren().end};
            }
            case ExprKind::conditional: e = &*hcl::as<hcl::ConditionalExpr>(*e).condition; continue;
            case ExprKind::binary_op: e = &*hcl::as<hcl::BinaryOpExpr>(*e).lhs; continue;
            case ExprKind::unary_op: return hcl::as<hcl::UnaryOpExpr>(*e).symbol_range;
            case ExprKind::tuple: return hcl::as<hcl::TupleExpr>(*e).open();
            case ExprKind::object: return hcl::as<hcl::ObjectExpr>(*e).open();
            case ExprKind::object_key: e = &*hcl::as<hcl::ObjectKeyExpr>(*e).wrapped; continue;
            case ExprKind::for_: return hcl::as<hcl::ForExpr>(*e).open;
            case ExprKind::index: return hcl::as<hcl::IndexExpr>(*e).bracket_range;
            case ExprKind::splat: return hcl::as<hcl::SplatExpr>(*e).marker_range;
            default: return e->range;
        }
    }
}

// hcl.Range.String(): "file:line,col-col" or "file:line,col-line,col".
std::string range_string(const SourceFile& source, Range r) {
    const auto start = source.resolve(r.start);
    const auto end = source.resolve(r.end);
    if (start.line == end.line) return fmt::format("{}:{},{}-{}", source.path(), start.line, start.column, end.column);
    return fmt::format("{}:{},{}-{},{}", source.path(), start.line, start.column, end.line, end.column);
}

// Levenshtein distance over code points, as hcl's nameSuggestion measures it.
std::vector<std::int32_t> code_points(std::string_view s) {
    std::vector<std::int32_t> out;
    const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
    std::size_t i = 0;
    while (i < s.size()) {
        utf8proc_int32_t c = 0;
        auto n = utf8proc_iterate(bytes + i, static_cast<utf8proc_ssize_t>(s.size() - i), &c);
        if (n <= 0) {
            c = 0xFFFD;
            n = 1;
        }
        out.push_back(c);
        i += static_cast<std::size_t>(n);
    }
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    const auto x = code_points(a);
    const auto y = code_points(b);
    std::vector<std::size_t> row(y.size() + 1);
    for (std::size_t j = 0; j <= y.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= x.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= y.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (x[i - 1] == y[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[y.size()];
}

std::string name_suggestion(std::string_view given, const std::vector<std::string_view>& candidates) {
    constexpr std::size_t kMaxSuggestionDistance = 3;
    for (auto candidate : candidates) {
        if (edit_distance(given, candidate) < kMaxSuggestionDistance) return std::string(candidate);
    }
    return {};
}

struct BlockSchema {
    std::string_view type;
    std::string_view label_name;  // every lock file block type takes one label
};

struct AttributeSchema {
    std::string_view name;
    bool required = false;
};

// The result of checking a body against a schema, as hcl.BodyContent.
struct BodyContent {
    std::vector<const hcl::Attribute*> attributes;  // schema order, present ones only
    std::vector<const hcl::Block*> blocks;          // source order, labels checked
    [[nodiscard]] const hcl::Attribute* attribute(std::string_view name) const {
        for (const auto* a : attributes) {
            if (a->name == name) return a;
        }
        return nullptr;
    }
};

// hclsyntax Body.Content: required attributes, label counts, then anything
// the schema does not name. `missing_item` is where a missing attribute is
// reported (the body's opening brace).
BodyContent body_content(const SourceFile& source, const hcl::Body& body, Pos missing_item,
                         const std::vector<AttributeSchema>& attribute_schema,
                         const std::vector<BlockSchema>& block_schema, Diagnostics& diags) {
    BodyContent content;
    for (const auto& want : attribute_schema) {
        const auto it = std::find_if(body.attributes.begin(), body.attributes.end(),
                                     [&](const hcl::Attribute& a) { return a.name == want.name; });
        if (it == body.attributes.end()) {
            if (want.required) {
                diags.push_back(
                    error_at(source, "Missing required argument",
                             fmt::format("The argument \"{}\" is required, but no definition was found.", want.name),
                             Range{missing_item, missing_item}));
            }
            continue;
        }
        content.attributes.push_back(&*it);
    }
    for (const auto& block : body.blocks) {
        const auto schema = std::find_if(block_schema.begin(), block_schema.end(),
                                         [&](const BlockSchema& s) { return s.type == block.type; });
        if (schema == block_schema.end()) continue;
        const Range header{block.type_start, block.open_brace.end};
        if (block.labels.size() > 1) {
            auto d =
                error_at(source, fmt::format("Extraneous label for {}", block.type),
                         fmt::format("Only 1 labels ({}) are expected for {} blocks.", schema->label_name, block.type),
                         block.labels[1].range);
            d.context = header;
            diags.push_back(std::move(d));
            continue;
        }
        if (block.labels.empty()) {
            auto d = error_at(source, fmt::format("Missing {} for {}", schema->label_name, block.type),
                              fmt::format("All {} blocks must have 1 labels ({}).", block.type, schema->label_name),
                              block.open_brace);
            d.context = header;
            diags.push_back(std::move(d));
            continue;
        }
        content.blocks.push_back(&block);
    }
    for (const auto& attr : body.attributes) {
        if (content.attribute(attr.name) != nullptr) continue;
        std::vector<std::string_view> unused;
        for (const auto& want : attribute_schema) {
            if (content.attribute(want.name) == nullptr) unused.push_back(want.name);
        }
        std::string suggestion = name_suggestion(attr.name, unused);
        if (!suggestion.empty()) {
            suggestion = fmt::format(" Did you mean \"{}\"?", suggestion);
        } else if (std::any_of(block_schema.begin(), block_schema.end(),
                               [&](const BlockSchema& s) { return s.type == attr.name; })) {
            suggestion = fmt::format(" Did you mean to define a block of type \"{}\"?", attr.name);
        }
        diags.push_back(error_at(source, "Unsupported argument",
                                 fmt::format("An argument named \"{}\" is not expected here.{}", attr.name, suggestion),
                                 attr.name_range()));
    }
    for (const auto& block : body.blocks) {
        if (std::any_of(block_schema.begin(), block_schema.end(),
                        [&](const BlockSchema& s) { return s.type == block.type; })) {
            continue;
        }
        std::vector<std::string_view> types;
        types.reserve(block_schema.size());
        for (const auto& s : block_schema) types.push_back(s.type);
        std::string suggestion = name_suggestion(block.type, types);
        if (!suggestion.empty()) {
            suggestion = fmt::format(" Did you mean \"{}\"?", suggestion);
        } else if (std::any_of(attribute_schema.begin(), attribute_schema.end(),
                               [&](const AttributeSchema& s) { return s.name == block.type; })) {
            suggestion =
                fmt::format(" Did you mean to define argument \"{}\"? If so, use the equals sign to assign it a value.",
                            block.type);
        }
        diags.push_back(error_at(source, "Unsupported block type",
                                 fmt::format("Blocks of type \"{}\" are not expected here.{}", block.type, suggestion),
                                 block.type_range()));
    }
    return content;
}

// gohcl.DecodeExpression into a string (or, with `nullable`, a *string):
// evaluate with no variables and no functions, convert to string, and
// require a known (and, unless nullable, non-null) value. nullopt when
// decoding failed or gave null; `failed` tells the two apart.
struct DecodedString {
    std::optional<std::string> value;
    bool failed = false;
};

DecodedString decode_string(const SourceFile& source, const hcl::Expr& expr, bool nullable, Diagnostics& diags) {
    auto evaluated = hcl::evaluate(expr, nullptr);
    for (auto& d : evaluated.diagnostics) {
        if (d.filename.empty()) d.filename = source.path();
    }
    DecodedString out;
    out.failed = has_errors(evaluated.diagnostics);
    diags.insert(diags.end(), evaluated.diagnostics.begin(), evaluated.diagnostics.end());
    auto unsuitable = [&](std::string_view why) {
        auto d = error_at(source, "Unsuitable value type", fmt::format("Unsuitable value: {}", why), start_range(expr));
        d.context = expr.range;
        diags.push_back(std::move(d));
        out.failed = true;
    };
    auto converted = cty::convert(evaluated.value, cty::Type::string());
    if (!converted.ok()) {
        unsuitable(converted.error);
        return out;
    }
    if (converted.value.is_null()) {
        if (!nullable) unsuitable("null value is not allowed");
        return out;
    }
    if (!converted.value.is_known()) {
        unsuitable("value must be known");
        return out;
    }
    out.value = converted.value.as_string();
    return out;
}

// The list of expressions of a static list (hcl.ExprList), or nullptr.
const hcl::TupleExpr* static_list(const hcl::Expr& expr) {
    const hcl::Expr* e = &expr;
    while (e->kind == hcl::ExprKind::parentheses) e = hcl::as<hcl::ParenthesesExpr>(*e).inner;
    return e->kind == hcl::ExprKind::tuple ? &hcl::as<hcl::TupleExpr>(*e) : nullptr;
}

void append_problems(const SourceFile& source, const std::vector<LockProblem>& problems, Range subject,
                     Diagnostics& diags) {
    for (const auto& p : problems) diags.push_back(error_at(source, p.summary, p.detail, subject));
}

// decodeProviderLockFromHCL: nullopt when the label is unusable.
std::optional<ProviderLock> decode_provider_block(const SourceFile& source, const hcl::Block& block, Engine engine,
                                                  Diagnostics& diags) {
    const auto& label = block.labels.front();
    if (auto problem = lock_label_error(label.value, engine)) {
        diags.push_back(error_at(source, problem->summary, problem->detail, label.range));
        return std::nullopt;
    }
    auto parsed = parse_provider_source(label.value, engine);
    ProviderLock lock;
    lock.provider = std::move(*parsed.provider);
    lock.definition = block.def_range();
    const std::string address = lock.provider.to_string();

    const auto content = body_content(source, block.body, block.open_brace.start,
                                      {{"version", true}, {"constraints", false}, {"hashes", false}}, {}, diags);

    if (const auto* attr = content.attribute("version")) {
        auto decoded = decode_string(source, *attr->expr, /*nullable=*/true, diags);
        if (!decoded.failed) {
            if (!decoded.value) {
                diags.push_back(error_at(source, "Missing required argument",
                                         "A provider lock block must contain a \"version\" argument.",
                                         attr->expr->range));
            } else {
                append_problems(source, lock_version_problems(*decoded.value, address), attr->expr->range, diags);
                if (auto v = parse_version(*decoded.value); v.version) lock.version = std::move(*v.version);
            }
        }
    }

    if (const auto* attr = content.attribute("constraints")) {
        auto decoded = decode_string(source, *attr->expr, /*nullable=*/false, diags);
        if (!decoded.failed && decoded.value) {
            append_problems(source, lock_constraints_problems(*decoded.value, address), attr->expr->range, diags);
            if (auto c = parse_constraints(*decoded.value); c.constraints) lock.constraints = std::move(*c.constraints);
        }
    }

    if (const auto* attr = content.attribute("hashes")) {
        const auto* list = static_list(*attr->expr);
        if (list == nullptr) {
            diags.push_back(error_at(source, "Invalid expression", "A static list expression is required.",
                                     start_range(*attr->expr)));
        } else if (list->items.empty()) {
            diags.push_back(error_at(source, "Invalid provider hash set",
                                     "The \"hashes\" argument must either be omitted or contain at least one hash "
                                     "value.",
                                     attr->expr->range));
        } else {
            for (const hcl::Expr* item : list->items) {
                auto decoded = decode_string(source, *item, /*nullable=*/false, diags);
                if (decoded.failed || !decoded.value) continue;
                const auto& text = *decoded.value;
                const auto colon = text.find(':');
                if (colon == std::string::npos || colon == 0) {
                    // Terraform points at the whole list here, not the element.
                    diags.push_back(error_at(
                        source, "Invalid provider hash string",
                        fmt::format("Cannot interpret {} as a provider hash: hash string must start with a scheme "
                                    "keyword followed by a colon.",
                                    go_quote(text)),
                        attr->expr->range));
                    continue;
                }
                lock.hashes.push_back(text);
            }
        }
    }
    return lock;
}

}  // namespace

LockFileRead read_lock_file(const std::shared_ptr<const SourceFile>& source, const LockReadOptions& options) {
    LockFileRead result;
    result.source = source;
    hcl::File file = hcl::parse(source);
    result.diagnostics = file.diagnostics;
    auto& diags = result.diagnostics;
    const SourceFile& src = *source;

    const auto content = body_content(src, *file.body, file.body->range.start, {},
                                      {{"provider", "source_addr"}, {"module", "path"}}, diags);
    std::map<Provider, Range> seen;
    bool module_warned = false;
    for (const auto* block : content.blocks) {
        if (block->type == "module") {
            if (module_warned) continue;
            module_warned = true;
            const auto product = product_name(options.engine);
            const std::string running = options.core_version.empty()
                                            ? std::string(product)
                                            : fmt::format("{} v{}", product, options.core_version);
            diags.push_back(Diagnostic{
                Severity::warning, "Dependency locks for modules are not yet supported",
                fmt::format("{} only supports dependency locks for providers, not for modules. This configuration may "
                            "be intended for a later version of {} that also supports dependency locks for modules.",
                            running, product),
                src.path(), block->type_range(), std::nullopt});
            continue;
        }
        auto lock = decode_provider_block(src, *block, options.engine, diags);
        if (!lock) continue;
        if (auto it = seen.find(lock->provider); it != seen.end()) {
            diags.push_back(error_at(src, "Duplicate provider lock",
                                     fmt::format("This lockfile already declared a lock for provider {} at {}.",
                                                 lock->provider.to_string(), range_string(src, it->second)),
                                     block->type_range()));
            continue;
        }
        seen.emplace(lock->provider, block->def_range());
        auto key = lock->provider;
        result.locks.providers.emplace(std::move(key), std::move(*lock));
    }
    return result;
}

LockFileRead load_lock_file(const std::filesystem::path& path, const LockReadOptions& options) {
    FileContent content = read_regular_file(path.string(), options.read_policy);
    if (content.failure == ReadFailure::missing) return {};
    if (!content.ok()) {
        LockFileRead result;
        result.diagnostics.push_back(
            Diagnostic{Severity::error, "Failed to read file",
                       fmt::format("The file {} could not be read: {}.", go_quote(path.string()), content.message),
                       path.string(), std::nullopt, std::nullopt});
        return result;
    }
    return read_lock_file(std::make_shared<const SourceFile>(path.string(), std::move(content.bytes)), options);
}

}  // namespace tfsift::providers
