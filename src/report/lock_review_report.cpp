#include "tfsift/report/lock_review_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "tfsift/report/report.hpp"

namespace tfsift::report {

namespace {

using lint::LockFileReview;
using lint::ReviewedHash;
using lint::ReviewedProvider;

// Hash lists longer than this are folded into <details> in Markdown.
constexpr std::size_t kFoldAfter = 5;

std::string_view state_name(lint::LockFileState s) {
    switch (s) {
        case lint::LockFileState::changed: return "changed";
        case lint::LockFileState::created: return "created";
        case lint::LockFileState::deleted: return "deleted";
    }
    return "changed";
}

std::string version_or(const std::optional<providers::Version>& v, std::string_view none) {
    return v ? v->to_string() : std::string(none);
}

std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ") {
    std::string out;
    for (const auto& i : items) {
        if (!out.empty()) out += separator;
        out += i;
    }
    return out;
}

std::string signer_text(const std::optional<lint::VersionSigner>& s) {
    if (!s || s->key_id.empty()) return {};
    return fmt::format("{}, key {}", s->trust, s->key_id);
}

std::size_t unsigned_count(const ReviewedProvider& p) {
    return static_cast<std::size_t>(
        std::count_if(p.added.begin(), p.added.end(), [](const ReviewedHash& h) { return h.is_signed == false; }));
}

std::size_t signed_count(const ReviewedProvider& p) {
    return static_cast<std::size_t>(
        std::count_if(p.added.begin(), p.added.end(), [](const ReviewedHash& h) { return h.is_signed == true; }));
}

// ---- text ----------------------------------------------------------------------

std::string shown(std::string_view text) { return escape_control_characters(text); }

std::string paint(bool color, std::string_view code, std::string_view text) {
    if (!color) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
}

}  // namespace

void write_lock_review_text(const LockReviewReportInput& input, std::ostream& out) {
    const auto& review = input.review;
    const bool color = input.color;
    if (review.files.empty() && review.errors.empty()) {
        out << fmt::format("No lock file changed against {}.\n", shown(input.base));
    }
    for (const auto& file : review.files) {
        out << paint(color, "1", shown(file.path))
            << fmt::format(" ({} against {})\n", state_name(file.state), shown(file.base));
        std::size_t width = 8;
        for (const auto& p : file.context.providers) width = std::max(width, p.change.provider.to_string().size());
        out << fmt::format("  {:<{}}  {:<11}  {:<12}  {:<12}  {}\n", "PROVIDER", width, "CHANGE", "FROM", "TO",
                           "SIGNED BY");
        for (const auto& p : file.context.providers) {
            const auto& c = p.change;
            out << fmt::format("  {:<{}}  {:<11}  {:<12}  {:<12}  {}\n", shown(c.provider.to_string()), width,
                               providers::to_string(c.change), shown(version_or(c.from, "-")),
                               shown(version_or(c.to, "-")), shown(signer_text(p.signer_after)));
            if (c.moved_from) out << fmt::format("      moved from {}\n", shown(c.moved_from->to_string()));
            if (c.constraints_from && c.constraints_to && *c.constraints_from != *c.constraints_to) {
                out << fmt::format("      constraints: \"{}\" -> \"{}\"\n", shown(*c.constraints_from),
                                   shown(*c.constraints_to));
            }
            if (c.from && c.to && (!p.platforms_before.empty() || !p.platforms_after.empty())) {
                out << fmt::format("      platforms: {} -> {}\n", joined(p.platforms_before),
                                   joined(p.platforms_after));
            } else if (!p.platforms_before.empty() || !p.platforms_after.empty()) {
                out << fmt::format("      platforms: {}\n", joined(c.to ? p.platforms_after : p.platforms_before));
            }
            for (const auto& h : p.added) {
                std::string verdict = !h.is_signed   ? paint(color, "2", "?") + " not verified"
                                      : *h.is_signed ? paint(color, "32", "ok")
                                                     : paint(color, "31", "UNSIGNED");
                out << fmt::format("      + {} {}{}\n", shown(h.hash), verdict,
                                   h.platform.empty() ? "" : " " + shown(h.platform));
            }
            for (const auto& h : c.removed_hashes) out << fmt::format("      - {}\n", shown(h));
            if (!p.error.empty()) out << fmt::format("      not verified: {}\n", shown(p.error));
        }
        for (const auto& f : file.findings) {
            const auto at = f.file->resolve(f.range.start);
            out << fmt::format("  {}:{}:{}: {}: {} [{}]\n", shown(f.file->path()), at.line, at.column,
                               paint(color, f.severity == Severity::error ? "31" : "33", to_string(f.severity)),
                               shown(f.message), f.rule_id);
        }
        out << "\n";
    }
    if (!review.verified) {
        out << "Offline: the changes are shown without verification; no hash was checked against its registry.\n";
    } else {
        out << fmt::format("{} package{} downloaded.\n", review.downloads, review.downloads == 1 ? "" : "s");
    }
}

// ---- markdown --------------------------------------------------------------------

namespace {

// Text from a lock file, as HTML that neither Markdown nor HTML acts on.
std::string md_escape(std::string_view text) {
    std::string out;
    for (char ch : escape_control_characters(text)) {
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '|': out += "&#124;"; break;
            case '`': out += "&#96;"; break;
            case '\n': out += ' '; break;
            case '\\':
            case '*':
            case '_':
            case '[':
            case ']':
            case '(':
            case ')':
            case '#':
            case '!':
            case '~':
                out += '\\';
                out += ch;
                break;
            default: out += ch;
        }
    }
    return out;
}

std::string md_code(std::string_view text) {
    std::string out = "<code>";
    for (char ch : escape_control_characters(text)) {
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '|': out += "&#124;"; break;
            case '\n': out += ' '; break;
            default: out += ch;
        }
    }
    return out + "</code>";
}

std::string md_version(const ReviewedProvider& p) {
    const auto& c = p.change;
    if (!c.from) return fmt::format("→ {}", md_escape(c.to->to_string()));
    if (!c.to) return fmt::format("{} →", md_escape(c.from->to_string()));
    if (*c.from == *c.to) return md_escape(c.to->to_string());
    return fmt::format("{} → {}", md_escape(c.from->to_string()), md_escape(c.to->to_string()));
}

std::string md_added_summary(const ReviewedProvider& p, bool verified) {
    if (p.added.empty()) return "none";
    if (!verified) return fmt::format("{} (not verified)", p.added.size());
    if (!p.error.empty()) return fmt::format("{} ⚠ not verified", p.added.size());
    std::string out = fmt::format("{} ✔", signed_count(p));
    if (auto bad = unsigned_count(p); bad != 0) out += fmt::format(" · {} ✘", bad);
    return out;
}

void md_fold(std::ostream& out, const std::string& title, std::size_t count, const std::string& body) {
    if (count > kFoldAfter) {
        out << "<details><summary>" << title << "</summary>\n\n" << body << "\n</details>\n\n";
    } else {
        out << title << ":\n\n" << body << "\n";
    }
}

}  // namespace

void write_lock_review_markdown(const LockReviewReportInput& input, std::ostream& out) {
    const auto& review = input.review;
    out << lock_review_marker << "\n";
    out << "## Lock file review\n\n";
    out << "Compared with " << md_code(input.base) << ". ";
    if (review.verified) {
        out << "Every added hash was checked against the `SHA256SUMS` its registry signed.\n\n";
    } else {
        out << "**Offline: the changes are shown without verification.**\n\n";
    }
    if (review.files.empty() && review.errors.empty()) out << "No lock file changed.\n";
    if (!review.errors.empty()) out << "**The review is incomplete:**\n\n";
    for (const auto& e : review.errors) out << "> ⚠ " << md_escape(e) << "\n\n";
    for (const auto& file : review.files) {
        out << "### " << md_code(file.path);
        if (file.state != lint::LockFileState::changed) out << " (" << state_name(file.state) << ")";
        out << "\n\n";
        out << "| Provider | Change | Version | Signed by | Added hashes |\n";
        out << "|---|---|---|---|---|\n";
        for (const auto& p : file.context.providers) {
            const std::string signer = signer_text(p.signer_after);
            out << "| " << md_code(p.change.provider.to_string()) << " | " << providers::to_string(p.change.change)
                << " | " << md_version(p) << " | " << (signer.empty() ? "" : md_escape(signer)) << " | "
                << md_added_summary(p, review.verified) << " |\n";
        }
        out << "\n";
        if (!file.findings.empty()) {
            out << "**Findings**\n\n";
            for (const auto& f : file.findings) {
                out << "- " << (f.severity == Severity::error ? "✘ error" : "⚠ warning") << " " << md_code(f.rule_id)
                    << " line " << f.file->line(f.range.start) << ": " << md_escape(f.message) << "\n";
            }
            out << "\n";
        }
        for (const auto& p : file.context.providers) {
            const auto& c = p.change;
            out << "#### " << md_code(c.provider.to_string()) << " " << md_version(p) << "\n\n";
            const auto before_notes = out.tellp();
            if (c.moved_from) out << "- Moved from " << md_code(c.moved_from->to_string()) << "\n";
            if (c.constraints_from && c.constraints_to && *c.constraints_from != *c.constraints_to) {
                out << "- Constraints: " << md_code(*c.constraints_from) << " → " << md_code(*c.constraints_to) << "\n";
            }
            if (p.signer_before && p.signer_after && p.signer_before->key_id != p.signer_after->key_id) {
                out << "- Signed before by " << md_escape(signer_text(p.signer_before)) << "\n";
            }
            if (c.from && c.to && (!p.platforms_before.empty() || !p.platforms_after.empty())) {
                out << "- Platforms: " << md_escape(joined(p.platforms_before)) << " → "
                    << md_escape(joined(p.platforms_after)) << "\n";
            } else if (!p.platforms_before.empty() || !p.platforms_after.empty()) {
                out << "- Platforms: " << md_escape(joined(c.to ? p.platforms_after : p.platforms_before)) << "\n";
            }
            if (!p.error.empty()) out << "- ⚠ Not verified: " << md_escape(p.error) << "\n";
            if (out.tellp() != before_notes) out << "\n";
            if (!p.added.empty()) {
                std::string body = "| | Hash | Platform |\n|---|---|---|\n";
                for (const auto& h : p.added) {
                    const char* mark = !h.is_signed ? "?" : *h.is_signed ? "✔" : "✘";
                    body += fmt::format("| {} | {} | {} |\n", mark, md_code(h.hash),
                                        h.is_signed == false ? std::string("not signed") : md_escape(h.platform));
                }
                md_fold(out, fmt::format("Added hashes ({})", p.added.size()), p.added.size(), body);
            }
            if (!c.removed_hashes.empty()) {
                std::string body;
                for (const auto& h : c.removed_hashes) body += "- " + md_code(h) + "\n";
                md_fold(out, fmt::format("Removed hashes ({})", c.removed_hashes.size()), c.removed_hashes.size(),
                        body);
            }
        }
    }
}

// ---- json ----------------------------------------------------------------------

void write_lock_review_json(const LockReviewReportInput& input, std::ostream& out) {
    using Json = nlohmann::ordered_json;
    const auto& review = input.review;
    const auto text_or_null = [](const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); };
    const auto signer = [&](const std::optional<lint::VersionSigner>& s) {
        if (!s || s->key_id.empty()) return Json(nullptr);
        return Json{{"key_id", s->key_id}, {"trust", s->trust}};
    };
    Json doc;
    doc["version"] = 1;
    doc["base"] = std::string(input.base);
    doc["verified"] = review.verified;
    doc["downloads"] = review.downloads;
    Json files = Json::array();
    for (const auto& file : review.files) {
        Json f;
        f["path"] = file.path;
        f["base"] = file.base;
        f["state"] = std::string(state_name(file.state));
        Json list = Json::array();
        for (const auto& p : file.context.providers) {
            const auto& c = p.change;
            Json e;
            e["address"] = c.provider.to_string();
            e["change"] = std::string(providers::to_string(c.change));
            e["from"] = c.from ? Json(c.from->to_string()) : Json(nullptr);
            e["to"] = c.to ? Json(c.to->to_string()) : Json(nullptr);
            e["constraints"] = {{"from", c.constraints_from ? Json(*c.constraints_from) : Json(nullptr)},
                                {"to", c.constraints_to ? Json(*c.constraints_to) : Json(nullptr)}};
            e["moved_from"] = c.moved_from ? Json(c.moved_from->to_string()) : Json(nullptr);
            e["signed_by"] = {{"from", signer(p.signer_before)}, {"to", signer(p.signer_after)}};
            e["platforms"] = {{"before", p.platforms_before},
                              {"after", p.platforms_after},
                              {"lost", providers::platforms_lost(p.platforms_before, p.platforms_after)}};
            Json added = Json::array();
            for (const auto& h : p.added) {
                added.push_back({{"hash", h.hash},
                                 {"signed", h.is_signed ? Json(*h.is_signed) : Json(nullptr)},
                                 {"platform", text_or_null(h.platform)},
                                 {"key_id", text_or_null(h.key_id)},
                                 {"trust", text_or_null(h.trust)}});
            }
            e["added_hashes"] = std::move(added);
            e["removed_hashes"] = c.removed_hashes;
            e["error"] = text_or_null(p.error);
            list.push_back(std::move(e));
        }
        f["providers"] = std::move(list);
        Json findings = Json::array();
        for (const auto& finding : file.findings) {
            const auto at = finding.file->resolve(finding.range.start);
            findings.push_back({{"rule_id", finding.rule_id},
                                {"severity", std::string(to_string(finding.severity))},
                                {"message", finding.message},
                                {"line", at.line},
                                {"column", at.column}});
        }
        f["findings"] = std::move(findings);
        files.push_back(std::move(f));
    }
    doc["lock_files"] = std::move(files);
    doc["errors"] = review.errors;
    out << doc.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

}  // namespace tfsift::report
