// Warnings about what GitHub would reject or leave out of a report, measured
// on the report as rendered (docs/ci.md lists the limits and their sources).
#include <fmt/format.h>
#include "tfsift/lazy/zip.hpp"

#include <array>
#include <memory>
#include <string>

#include "tfsift/report/report.hpp"

namespace tfsift::report {
namespace {

struct ZipSourceFree {
    void operator()(zip_source_t* s) const { libzip::source_free(s); }
};

// Thousands separated with commas, as GitHub's documentation writes them.
std::string count(std::size_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::vector<std::string> sarif_warnings(const ReportInput& in, std::string_view rendered) {
    using L = GitHubLimits;
    std::vector<std::string> out;
    // tfsift writes one run with one location per result and four tags per
    // rule, so what can grow past a limit is the results, the rules (every
    // [[policy]] is one) and the size.
    const std::size_t results = in.findings.size();
    if (results > L::results_per_run) {
        out.push_back(fmt::format(
            "the SARIF report has {} results in its run; GitHub code scanning rejects a run with more than {}: lint "
            "parts of the repository in separate runs, each uploaded with its own --sarif-category, or disable the "
            "noisiest rules",
            count(results), count(L::results_per_run)));
    } else if (results > L::results_shown) {
        out.push_back(fmt::format("the SARIF report has {} results; GitHub code scanning keeps only the {} most severe",
                                  count(results), count(L::results_shown)));
    }
    if (in.rules.size() > L::rules_per_run) {
        out.push_back(
            fmt::format("the SARIF report lists {} rules; GitHub code scanning rejects a run with more than {}",
                        count(in.rules.size()), count(L::rules_per_run)));
    }
    // Below the limit uncompressed, it is below it compressed.
    if (rendered.size() > L::gzip_bytes) {
        const std::size_t compressed = deflated_size(rendered);
        if (compressed > L::gzip_bytes) {
            out.push_back(fmt::format(
                "the SARIF report is {} bytes gzip-compressed; GitHub code scanning rejects a file over {} bytes",
                count(compressed), count(L::gzip_bytes)));
        }
    }
    return out;
}

std::vector<std::string> github_warnings(const ReportInput& in) {
    std::array<std::size_t, 3> per_level{};  // error, warning, notice
    for (const auto& f : in.findings) ++per_level.at(static_cast<std::size_t>(f.severity));
    std::vector<std::string> out;
    constexpr std::array<std::string_view, 3> names = {"error", "warning", "notice"};
    for (std::size_t i = 0; i < per_level.size(); ++i) {
        if (per_level.at(i) > GitHubLimits::annotations_per_step) {
            out.push_back(
                fmt::format("{} {} annotations; GitHub shows {} of each level per step, the rest stay in the "
                            "log (upload SARIF to code scanning to see them all)",
                            count(per_level.at(i)), names.at(i), GitHubLimits::annotations_per_step));
        }
    }
    return out;
}

}  // namespace

std::vector<std::string> report_warnings(Format format, const ReportInput& input, std::string_view rendered) {
    switch (format) {
        case Format::sarif: return sarif_warnings(input, rendered);
        case Format::github: return github_warnings(input);
        default: return {};
    }
}

std::size_t deflated_size(std::string_view text) {
    zip_error_t error;
    libzip::error_init(&error);
    std::unique_ptr<zip_source_t, ZipSourceFree> archive(libzip::source_buffer_create(nullptr, 0, 0, &error));
    libzip::error_fini(&error);
    if (!archive) return text.size();
    libzip::error_init(&error);
    zip_t* za = libzip::open_from_source(archive.get(), ZIP_TRUNCATE, &error);
    libzip::error_fini(&error);
    if (za == nullptr) return text.size();
    // The archive now owns one reference and frees it when closed; keep one
    // for us, to measure what was written.
    libzip::source_keep(archive.get());
    zip_source_t* member = libzip::source_buffer(za, text.data(), text.size(), 0);
    const zip_int64_t index = member == nullptr ? -1 : libzip::file_add(za, "report", member, ZIP_FL_OVERWRITE);
    if (index < 0) {
        if (member != nullptr) libzip::source_free(member);
        libzip::discard(za);
        return text.size();
    }
    // Level 6 is zlib's and gzip's default.
    libzip::set_file_compression(za, static_cast<zip_uint64_t>(index), ZIP_CM_DEFLATE, 6);
    if (libzip::close(za) != 0) {
        libzip::discard(za);
        return text.size();
    }
    zip_stat_t st;
    libzip::stat_init(&st);
    if (libzip::source_stat(archive.get(), &st) != 0 || (st.valid & ZIP_STAT_SIZE) == 0) return text.size();
    return static_cast<std::size_t>(st.size);
}

}  // namespace tfsift::report
