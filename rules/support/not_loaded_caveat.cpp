#include "not_loaded_caveat.hpp"

#include <fmt/format.h>

namespace tfsift::lint::rules {

std::string not_loaded_caveat(const std::vector<std::string>& unloaded, std::string_view what) {
    if (unloaded.empty()) return {};
    constexpr std::size_t named = 3;
    std::string calls;
    for (std::size_t i = 0; i < unloaded.size() && i < named; ++i) {
        if (i > 0) calls += ", ";
        calls += unloaded[i];
    }
    if (unloaded.size() > named) calls += fmt::format(" and {} more", unloaded.size() - named);
    return fmt::format("; {}, which {} not loaded, may {}", calls, unloaded.size() == 1 ? "is" : "are", what);
}

}  // namespace tfsift::lint::rules
