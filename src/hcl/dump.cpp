#include "tfsift/hcl/dump.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tfsift/cty/json.hpp"
#include "tfsift/hcl/constant.hpp"
#include "tfsift/hcl/references.hpp"

namespace tfsift::hcl {
namespace {

// Writes JSON text directly rather than building an nlohmann DOM: constant
// values arrive as exact JSON text (numbers with every digit, which a double
// would lose), and a DOM of a large file costs many times its text.
class DumpWriter {
public:
    DumpWriter(const SourceFile& src, bool pretty) : src_(src), pretty_(pretty) {}

    std::string take() { return std::move(out_); }

    void file(const File& f) {
        std::size_t errors = 0;
        const Diagnostic* first = nullptr;
        for (const Diagnostic& d : f.diagnostics) {
            if (d.severity != Severity::error) continue;
            if (errors == 0) first = &d;
            ++errors;
        }
        open('{');
        key("errors");
        out_ += std::to_string(errors);
        key("first_error_line");
        if (first != nullptr && first->subject) {
            out_ += std::to_string(src_.line(first->subject->start));
        } else {
            out_ += "null";
        }
        key("body");
        if (f.body != nullptr) {
            body(*f.body);
        } else {
            out_ += R"({"attributes": {}, "blocks": []})";
        }
        close('}');
    }

    void expression(const Expr& expr) {
        open('{');
        if (auto text = constant_value_json_text(expr)) {
            key("value");
            out_ += *text;
        } else {
            std::vector<std::string> refs;
            for (const ScopeTraversalExpr* t : referenced_traversals(expr)) refs.push_back(render_traversal(*t));
            key("refs");
            string_list(std::move(refs));
            std::vector<std::string> funcs;
            for (auto& f : called_functions(expr)) funcs.emplace_back(f);
            key("funcs");
            string_list(std::move(funcs));
        }
        close('}');
    }

private:
    void body(const Body& b) {
        open('{');
        key("attributes");
        open('{');
        for (const Attribute& a : b.attributes) {
            key(a.name);
            open('{');
            key("range");
            range(a.range);
            key("expr");
            expression(*a.expr);
            close('}');
        }
        close('}');
        key("blocks");
        open('[');
        for (const Block& blk : b.blocks) {
            item();
            open('{');
            key("type");
            string(blk.type);
            key("labels");
            open('[');
            for (const Label& l : blk.labels) {
                item();
                string(l.value);
            }
            close(']');
            key("range");
            range(blk.def_range());
            key("body");
            body(blk.body);
            close('}');
        }
        close(']');
        close('}');
    }

    void range(Range r) {
        fmt::format_to(std::back_inserter(out_),
                       R"({{"start": {{"line": {}, "column": {}, "byte": {}}}, )"
                       R"("end": {{"line": {}, "column": {}, "byte": {}}}}})",
                       src_.line(r.start), src_.column(r.start), r.start.byte, src_.line(r.end), src_.column(r.end),
                       r.end.byte);
    }

    void string_list(std::vector<std::string> items) {
        std::sort(items.begin(), items.end());
        items.erase(std::unique(items.begin(), items.end()), items.end());
        out_ += '[';
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i > 0) out_ += ", ";
            string(items[i]);
        }
        out_ += ']';
    }

    void string(std::string_view s) {
        cty::append_json_string(out_, s);  // invalid UTF-8 becomes U+FFFD
    }

    // Structure with optional indentation. `first_` tracks whether a comma is
    // needed before the next member of the innermost open container.
    void open(char c) {
        out_ += c;
        ++depth_;
        first_ = true;
    }
    void close(char c) {
        --depth_;
        if (!first_) newline();
        out_ += c;
        first_ = false;
    }
    void item() {
        if (!first_) out_ += ',';
        first_ = false;
        newline();
    }
    void key(std::string_view k) {
        item();
        string(k);
        out_ += ": ";
    }
    void newline() {
        if (!pretty_) return;
        out_ += '\n';
        out_.append(static_cast<std::size_t>(depth_) * 2, ' ');
    }

    const SourceFile& src_;
    bool pretty_;
    std::string out_;
    int depth_ = 0;
    bool first_ = true;
};

}  // namespace

std::string dump_file_text(const File& file, bool pretty) {
    DumpWriter w(*file.source, pretty);
    w.file(file);
    return w.take();
}

}  // namespace tfsift::hcl
