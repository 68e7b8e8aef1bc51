// Diagnostics: what tfsift tells the user about their input. They are values,
// collected and returned, never thrown.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/source.hpp"

namespace tfsift {

enum class Severity : std::uint8_t { error, warning, notice };

std::string_view to_string(Severity s);

struct Diagnostic {
    Severity severity = Severity::error;
    std::string summary;           // one short sentence, no trailing period
    std::string detail;            // may be empty
    std::string filename;          // as given to the parser / loader
    std::optional<Range> subject;  // what the diagnostic is about
    std::optional<Range> context;  // optional wider range for display
    // What kind of problem this is, for programs: a stable id from
    // diagnostic_codes.hpp that does not change when the wording does. Set
    // by the loader on every diagnostic of the load and tree phases; empty
    // for syntax errors.
    std::string_view code;
};

using Diagnostics = std::vector<Diagnostic>;

[[nodiscard]] bool has_errors(const Diagnostics& diags);

}  // namespace tfsift
