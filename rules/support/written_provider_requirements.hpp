// The entries of `required_providers` blocks as this module's files write
// them, with the ranges of their names and values. Several provider
// requirement rules report on these ranges; the merged model keeps only the
// effective entries and their value's position.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/config/model.hpp"
#include "tfsift/lint/context.hpp"
#include "tfsift/lint/rule.hpp"

namespace tfsift::lint::rules {

// An argument of a requirement object whose value is a literal string.
struct WrittenString {
    std::string text;
    Range range;  // the value, quotes included
};

struct WrittenRequirement {
    const config::ModuleFile* file = nullptr;
    std::size_t block_index = 0;  // which required_providers block of the file, counted in file order
    std::string name;             // the local name
    Range name_range;
    Range value_range;           // the object, or the legacy version string
    bool legacy_string = false;  // `aws = "~> 1.0"`: the value is the version constraint
    std::optional<WrittenString> source;
    std::optional<WrittenString> version;
    bool has_source = false;   // a `source` key is present, literal or not
    bool has_version = false;  // a `version` key is present (or the legacy string form)
};

// Every required_providers entry of the module's own files, in load order,
// then source order. Native syntax keeps the first of two arguments with one
// name (the parser reports the second); JSON keeps both.
std::vector<WrittenRequirement> written_provider_requirements(const LintContext& ctx);

// The written entry an effective requirement comes from (its value starts
// where the requirement's origin points), or nullptr.
const WrittenRequirement* written_entry_for(const std::vector<WrittenRequirement>& written,
                                            const config::RequiredProvider& requirement);

// Whether a diagnostic's subject lies inside a required_providers block of
// its file (parsed again from the diagnostic's source, which is cheap for the
// few diagnostics that need it).
bool subject_in_required_providers(const ClaimedDiagnostic& diagnostic);

// A literal string expression's value (a quoted string without
// interpolation), or nullopt.
std::optional<std::string> literal_string(const hcl::Expr* expr);

}  // namespace tfsift::lint::rules
