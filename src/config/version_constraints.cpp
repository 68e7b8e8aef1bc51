#include "tfsift/config/version_constraints.hpp"

namespace tfsift::config {

std::vector<std::string> split_version_constraints(std::string_view text) {
    constexpr std::string_view space = " \t\r\n\f";
    std::vector<std::string> out;
    std::size_t i = 0;
    while (true) {
        std::size_t comma = text.find(',', i);
        std::string_view part = text.substr(i, comma == std::string_view::npos ? std::string_view::npos : comma - i);
        std::size_t b = part.find_first_not_of(space);
        std::size_t e = part.find_last_not_of(space);
        out.emplace_back(b == std::string_view::npos ? std::string_view{} : part.substr(b, e - b + 1));
        if (comma == std::string_view::npos) break;
        i = comma + 1;
    }
    return out;
}

}  // namespace tfsift::config
