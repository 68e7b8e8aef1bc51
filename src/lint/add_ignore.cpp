#include "tfsift/lint/add_ignore.hpp"

#include <cctype>
#include <map>
#include <set>
#include <vector>

#include "tfsift/lint/rule.hpp"

namespace tfsift::lint {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Native-syntax configuration files take `#` comments.
bool takes_comments(const std::string& path) { return ends_with(path, ".tf") || ends_with(path, ".tofu"); }

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// The 1-based lines that are the body of a heredoc (after its `<<EOT` line,
// up to and including its closing marker): a comment there would become text.
std::set<std::uint32_t> heredoc_lines(const SourceFile& file) {
    std::set<std::uint32_t> out;
    std::string marker;
    const std::string_view text = file.text();
    std::uint32_t line = 1;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view current = trim(text.substr(begin, end - begin));
        if (!marker.empty()) {
            out.insert(line);
            if (current == marker) marker.clear();
        } else if (auto at = current.rfind("<<"); at != std::string_view::npos) {
            std::string_view rest = current.substr(at + 2);
            if (!rest.empty() && rest.front() == '-') rest.remove_prefix(1);
            bool identifier = !rest.empty();
            for (char c : rest) {
                if (!(std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-')) identifier = false;
            }
            if (identifier) marker = std::string(rest);
        }
        if (end == text.size()) break;
        begin = end + 1;
        ++line;
    }
    return out;
}

}  // namespace

AddIgnorePlan plan_add_ignores(const Findings& findings, const std::string& reason) {
    AddIgnorePlan plan;
    struct FileWork {
        std::shared_ptr<const SourceFile> file;
        std::map<std::uint32_t, std::set<std::string>> rules_by_line;
    };
    std::map<std::string, FileWork> files;
    for (const auto& f : findings) {
        if (f.rule_id == unused_ignore_rule_id || f.rule_id == syntax_error_rule_id ||
            !takes_comments(f.file->path()) || f.file->size() == 0) {
            ++plan.findings_skipped;
            continue;
        }
        auto& work = files[f.file->path()];
        work.file = f.file;
        work.rules_by_line[f.file->line(f.range.start)].insert(f.rule_id);
        ++plan.findings_covered;
    }
    for (auto& [path, work] : files) {
        const auto heredoc = heredoc_lines(*work.file);
        const std::string_view text = work.file->text();
        std::string out;
        out.reserve(text.size() + work.rules_by_line.size() * 64);
        std::size_t copied = 0;
        bool changed = false;
        for (const auto& [line, rules] : work.rules_by_line) {
            if (heredoc.count(line)) {
                plan.findings_covered -= rules.size();
                plan.findings_skipped += rules.size();
                continue;
            }
            const std::string_view line_text = work.file->line_text(line);
            const auto line_start = static_cast<std::size_t>(line_text.data() - text.data());
            out.append(text.substr(copied, line_start - copied));
            copied = line_start;
            const std::size_t indent = line_text.find_first_not_of(" \t");
            out.append(line_text.substr(0, indent == std::string_view::npos ? 0 : indent));
            out += "# tfsift-ignore: ";
            bool first = true;
            for (const auto& id : rules) {
                if (!first) out += ", ";
                out += id;
                first = false;
            }
            if (!reason.empty()) out += " -- " + reason;
            // Keep the file's line breaks.
            out += (!line_text.empty() && line_text.back() == '\r') ||
                           (line_start + line_text.size() < text.size() && text[line_start + line_text.size()] == '\r')
                       ? "\r\n"
                       : "\n";
            ++plan.comments;
            changed = true;
        }
        if (!changed) continue;
        out.append(text.substr(copied));
        plan.edits.old_text[path] = std::string(text);
        plan.edits.new_text[path] = std::move(out);
    }
    plan.edits.findings_fixed = plan.findings_covered;
    return plan;
}

}  // namespace tfsift::lint
