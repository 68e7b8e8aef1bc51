// override-undocumented: a block of a primary file that an override file
// changes carries no comment saying so.
//
// The heuristic: a comment documents the block when it mentions an override
// ("override", "overridden", "overrides"... in any letter case; a rule id
// like `override-depends-on` does not count) and sits
// either on the block's header line or in the run of comment-only lines
// directly above the header (no blank line in between). For a local value
// the comment may also sit at the enclosing `locals` block. Only native
// syntax files are checked: JSON has no comments.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>

#include <fmt/core.h>

#include "support/factories.hpp"
#include "support/override_support.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {

namespace {

constexpr std::string_view rule_id = "override-undocumented";

// True when the text uses a word starting with "overrid" (override,
// overridden, overrides, web_override.tf...). A word followed by `-` is a
// rule id such as `override-depends-on` in an ignore comment, which says
// nothing about the block, so it does not count.
bool mentions_override(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    for (auto at = lower.find("overrid"); at != std::string::npos; at = lower.find("overrid", at + 1)) {
        auto end = at;
        while (end < lower.size() && std::isalpha(static_cast<unsigned char>(lower[end]))) ++end;
        if (end < lower.size() && lower[end] == '-') continue;
        return true;
    }
    return false;
}

// The comments of a file, and which lines hold nothing but comments.
class CommentIndex {
public:
    explicit CommentIndex(const hcl::File& file) : file_(&file) {
        std::string_view text = file.source->text();
        for (const auto& c : file.comments) {
            std::uint32_t line_begin = c.range.start.byte;
            while (line_begin > 0 && text[line_begin - 1] != '\n') --line_begin;
            std::string_view before = text.substr(line_begin, c.range.start.byte - line_begin);
            if (before.find_first_not_of(" \t") != std::string_view::npos) continue;
            // A line comment's range ends before its newline; a block comment may span lines.
            const SourceFile& src = *file.source;
            for (std::uint32_t l = src.line(c.range.start); l <= src.line(c.range.end); ++l) comment_lines_.insert(l);
        }
    }

    // True when a comment on `line`, or in the comment-only lines directly
    // above it, mentions an override.
    [[nodiscard]] bool documents(std::uint32_t line) const {
        std::uint32_t first = line;
        while (first > 1 && comment_lines_.count(first - 1) != 0) --first;
        const SourceFile& src = *file_->source;
        std::string_view text = src.text();
        for (const auto& c : file_->comments) {
            if (src.line(c.range.end) < first || src.line(c.range.start) > line) continue;
            if (mentions_override(text.substr(c.range.start.byte, c.range.end.byte - c.range.start.byte))) return true;
        }
        return false;
    }

private:
    const hcl::File* file_;
    std::set<std::uint32_t> comment_lines_;
};

std::string file_name(const SourceFile* file) {
    if (!file) return "?";
    const std::string& p = file->path();
    auto slash = p.find_last_of('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

// One primary block an override changes.
struct Overridden {
    std::string what;                          // for the message: `resource "a" "b"`
    Range def_range;                           // where the finding points
    std::vector<std::uint32_t> comment_lines;  // header lines where a comment would document it
    std::vector<config::Origin> overrides;
};

void report(const LintContext& ctx, const config::ModuleFile& file, const CommentIndex& comments, const Overridden& o,
            FindingSink& sink) {
    for (std::uint32_t line : o.comment_lines) {
        if (comments.documents(line)) return;
    }
    std::vector<std::string> names;
    for (const auto& origin : o.overrides) {
        std::string n = file_name(origin.file);
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
    std::string joined;
    for (const auto& n : names) joined += (joined.empty() ? "" : ", ") + n;

    Finding f;
    f.rule_id = std::string(rule_id);
    f.severity = Severity::notice;
    f.message = fmt::format("{} is changed by {} but has no comment saying so", o.what, joined);
    f.file = file.parsed->source;
    f.range = o.def_range;
    for (const auto& origin : o.overrides) {
        auto src = ctx.shared_source(origin.file);
        const Range at{origin.pos, origin.pos};
        bool seen = std::any_of(f.related.begin(), f.related.end(),
                                [&](const RelatedLocation& r) { return r.file == src && r.range == at; });
        if (src && !seen) f.related.push_back({src, at, "the override that changes it"});
    }
    // Insert a comment line above the header, indented like it.
    std::string_view text = f.file->text();
    std::uint32_t line_begin = o.def_range.start.byte;
    while (line_begin > 0 && text[line_begin - 1] != '\n') --line_begin;
    std::string_view indent = text.substr(line_begin, o.def_range.start.byte - line_begin);
    if (indent.find_first_not_of(" \t") == std::string_view::npos) {
        Pos at = Pos{static_cast<std::uint32_t>(line_begin)};
        Fix fix;
        fix.description = "Add a comment naming the override file";
        fix.applicability = Applicability::safe;
        fix.edits.push_back({f.file, Range{at, at}, fmt::format("{}# Overridden in {}.\n", indent, joined)});
        f.fix = std::move(fix);
    }
    sink.report(std::move(f));
}

// The merged object a primary block became, when an override changed it.
const std::vector<config::Origin>* overrides_of(const config::Module& m, const DeclaredBlock& b) {
    auto pick = [&](const auto& table, const std::string& key) -> const std::vector<config::Origin>* {
        auto it = table.find(key);
        if (it == table.end() || it->second.overridden_by.empty()) return nullptr;
        // Only the declaration that survived the merge (duplicates are another rule's).
        if (it->second.origin.file != b.origin.file || it->second.origin.pos != b.origin.pos) return nullptr;
        return &it->second.overridden_by;
    };
    if (b.type == "provider") return pick(m.providers, b.alias ? b.labels[0] + "." + *b.alias : b.labels[0]);
    if (b.type == "variable") return pick(m.variables, b.labels[0]);
    if (b.type == "output") return pick(m.outputs, b.labels[0]);
    if (b.type == "module") return pick(m.module_calls, b.labels[0]);
    if (b.type == "resource") return pick(m.resources, b.labels[0] + "." + b.labels[1]);
    if (b.type == "data") return pick(m.data, b.labels[0] + "." + b.labels[1]);
    return nullptr;
}

// The `terraform` settings override files change, and where.
struct TerraformOverrides {
    std::vector<config::Origin> required_version;
    std::map<std::string, std::vector<config::Origin>> required_providers;
    std::vector<config::Origin> backend;  // backend or cloud
};

TerraformOverrides terraform_overrides(const LintContext& ctx) {
    TerraformOverrides out;
    for (const auto& f : ctx.files()) {
        if (!f.is_override) continue;
        for (const auto& tb : f.decoded->terraform) {
            if (tb.required_version) out.required_version.push_back(tb.origin);
            for (const auto& rp : tb.required_providers) {
                for (const auto& e : rp.entries) out.required_providers[e.name].push_back(tb.origin);
            }
            if (!tb.backends.empty() || !tb.clouds.empty()) out.backend.push_back(tb.origin);
        }
    }
    return out;
}

// The top-level native block whose header starts at `pos`.
const hcl::Block* block_at(const hcl::File& file, Pos pos) {
    for (const auto& b : file.body->blocks) {
        if (b.type_range().start == pos) return &b;
    }
    return nullptr;
}

void check(const LintContext& ctx, FindingSink& sink) {
    // Only override files change blocks: without one there is nothing to document.
    if (std::none_of(ctx.files().begin(), ctx.files().end(),
                     [](const config::ModuleFile& f) { return f.is_override; })) {
        return;
    }
    const config::Module& m = *ctx.module().module;
    const TerraformOverrides tf = terraform_overrides(ctx);
    std::map<std::string, std::vector<config::Origin>> local_overrides;
    for (const auto& f : ctx.files()) {
        if (!f.is_override) continue;
        for (const auto& [l, decl] : f.decoded->locals) local_overrides[l.name].push_back(l.expr.origin());
    }

    for (const auto& f : ctx.files()) {
        const hcl::File* native = LintContext::native(f);
        if (f.is_override || !native || !native->body) continue;
        CommentIndex comments(*native);

        for (const DeclaredBlock& b : declared_blocks(*f.decoded)) {
            const auto* overrides = overrides_of(m, b);
            if (!overrides) continue;
            report(ctx, f, comments,
                   Overridden{block_header(b.type, b.labels) + (b.alias ? " (alias \"" + *b.alias + "\")" : ""),
                              b.def_range,
                              {native->source->line(b.def_range.start)},
                              *overrides},
                   sink);
        }

        for (const auto& [l, decl] : f.decoded->locals) {
            auto it = local_overrides.find(l.name);
            if (it == local_overrides.end()) continue;
            auto merged = m.locals.find(l.name);
            if (merged == m.locals.end()) continue;
            std::vector<std::uint32_t> lines{native->source->line(decl.def_range.start)};
            for (const auto& blk : native->body->blocks) {
                if (blk.type == "locals" && blk.body.range.start.byte <= decl.def_range.start.byte &&
                    decl.def_range.end.byte <= blk.body.range.end.byte) {
                    lines.push_back(native->source->line(blk.type_range().start));
                }
            }
            report(ctx, f, comments,
                   Overridden{fmt::format("local value \"{}\"", l.name), decl.def_range, lines, it->second}, sink);
        }

        for (const auto& tb : f.decoded->terraform) {
            std::vector<config::Origin> by;
            if (tb.required_version) by.insert(by.end(), tf.required_version.begin(), tf.required_version.end());
            for (const auto& rp : tb.required_providers) {
                for (const auto& e : rp.entries) {
                    if (auto it = tf.required_providers.find(e.name); it != tf.required_providers.end()) {
                        by.insert(by.end(), it->second.begin(), it->second.end());
                    }
                }
            }
            if (!tb.backends.empty() || !tb.clouds.empty()) by.insert(by.end(), tf.backend.begin(), tf.backend.end());
            if (by.empty()) continue;
            const hcl::Block* blk = block_at(*native, tb.origin.pos);
            if (!blk) continue;
            report(ctx, f, comments,
                   Overridden{"terraform block", blk->def_range(), {native->source->line(blk->type_range().start)}, by},
                   sink);
        }
    }
}

}  // namespace

Rule override_undocumented() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::notice;
    r.category = RuleCategory::maintainability;
    r.precision = RulePrecision::medium;
    r.enabled_by_default = false;  // the strict preset: docs/corpus-findings.md
    r.fixable = true;
    r.doc.summary = "A block that an override file changes has no comment saying so.";
    r.doc.what =
        "For every block of a primary file that an override file (`override.tf`, `*_override.tf`, and their "
        "JSON forms) merges into, the rule looks for a comment that mentions the override: a comment containing "
        "\"override\" (or \"overridden\", \"overrides\", a file name like `web_override.tf`..., in any letter case; "
        "a rule id such as `override-depends-on` in an ignore comment does not count) on the block's header line or in "
        "the comment lines directly above the header, with no blank line in between. Checked are resources, "
        "data sources, variables, outputs, module calls, provider configurations, local values (the comment may "
        "also sit above the enclosing `locals` block) and `terraform` blocks whose `required_version`, "
        "`required_providers` entries, `backend` or `cloud` an override replaces. JSON files carry no comments "
        "and are not checked.";
    r.doc.why =
        "Terraform's documentation asks for exactly this: someone reading only the original file cannot tell "
        "that part of it is replaced elsewhere. A comment at the block sends the reader to the override file "
        "before they change a value that has no effect.";
    r.doc.failing_example = R"hcl(# main.tf
resource "aws_instance" "web" {
  instance_type = "t2.micro"
  ami           = "ami-408c7f28"
}

# override.tf
resource "aws_instance" "web" {
  ami = "foo"
}
)hcl";
    r.doc.passing_example = R"hcl(# main.tf
# The ami is overridden in override.tf.
resource "aws_instance" "web" {
  instance_type = "t2.micro"
  ami           = "ami-408c7f28"
}

# override.tf
resource "aws_instance" "web" {
  ami = "foo"
}
)hcl";
    r.doc.fix_safety =
        "Safe: `--fix` inserts a comment line `# Overridden in FILE.` above the block header, which changes no "
        "behaviour. Rewording it to say what the override changes is left to the author.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
