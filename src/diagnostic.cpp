#include "tfsift/diagnostic.hpp"

#include <algorithm>

namespace tfsift {

std::string_view to_string(Severity s) {
    switch (s) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        case Severity::notice: return "notice";
    }
    return "error";
}

bool has_errors(const Diagnostics& diags) {
    return std::any_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == Severity::error; });
}

}  // namespace tfsift
