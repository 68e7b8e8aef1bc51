// SHA256SUMS documents (spec 5.5): the line for one file, and the zh:
// hashes of a whole document.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "tfsift/online/provider_fetcher.hpp"

namespace tfsift::online {

namespace {

bool is_hex64(std::string_view text) {
    return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
               return std::isxdigit(static_cast<unsigned char>(c)) != 0;
           });
}

std::vector<std::string_view> fields_of(std::string_view line) {
    std::vector<std::string_view> fields;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])) != 0) ++i;
        const std::size_t start = i;
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])) == 0) ++i;
        if (i > start) fields.push_back(line.substr(start, i - start));
    }
    return fields;
}

template <typename F>
void for_each_line(std::string_view document, F&& f) {
    std::size_t start = 0;
    while (start <= document.size()) {
        const auto end = document.find('\n', start);
        f(document.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
}

}  // namespace

SumsLine sums_line_for(std::string_view document, std::string_view filename) {
    SumsLine out;
    bool found = false;
    for_each_line(document, [&](std::string_view line) {
        if (found) return;
        auto fields = fields_of(line);
        if (fields.size() >= 2 && fields[1] == filename) {
            found = true;
            out.hex = std::string(fields[0]);
        }
    });
    if (!found) {
        out.error = fmt::format("checksum list has no SHA-256 hash for \"{}\"", filename);
    } else if (!is_hex64(out.hex)) {
        out.error = fmt::format("checksum list has invalid SHA256 hash \"{}\"", out.hex);
    }
    return out;
}

std::vector<std::string> sums_zip_hashes(std::string_view document) {
    std::vector<std::string> out;
    bool valid = true;
    for_each_line(document, [&](std::string_view line) {
        auto fields = fields_of(line);
        if (fields.empty()) return;
        if (fields.size() < 2 || !is_hex64(fields[0])) {
            valid = false;
            return;
        }
        std::string hex(fields[0]);
        std::transform(hex.begin(), hex.end(), hex.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        out.push_back("zh:" + hex);
    });
    if (!valid) return {};
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::map<std::string, std::string> sums_file_names(std::string_view document) {
    std::map<std::string, std::string> out;
    if (sums_zip_hashes(document).empty()) return out;
    for_each_line(document, [&](std::string_view line) {
        auto fields = fields_of(line);
        if (fields.size() < 2) return;
        std::string hex(fields[0]);
        std::transform(hex.begin(), hex.end(), hex.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        out.try_emplace("zh:" + hex, std::string(fields[1]));
    });
    return out;
}

}  // namespace tfsift::online
