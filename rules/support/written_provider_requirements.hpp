// The entries of `required_providers` blocks as this module's files write
// them, with the ranges of their names and values. Several provider
// requirement rules report on these ranges; the merged model keeps only the
// effective entries and their value's position.
#pragma once

#include <memory>
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
// then source order, with an index from where each value starts to its
// entry. A cheap handle: copies share the entries, which are computed once
// per module and kept alive by every handle.
class WrittenRequirements {
public:
    WrittenRequirements() = default;
    explicit WrittenRequirements(std::vector<WrittenRequirement> entries);

    [[nodiscard]] std::size_t size() const { return entries_ ? entries_->size() : 0; }
    [[nodiscard]] bool empty() const { return size() == 0; }
    const WrittenRequirement& operator[](std::size_t i) const { return (*entries_)[i]; }
    [[nodiscard]] const WrittenRequirement* data() const { return entries_ ? entries_->data() : nullptr; }
    [[nodiscard]] const WrittenRequirement* begin() const { return data(); }
    [[nodiscard]] const WrittenRequirement* end() const { return data() + size(); }

    // The written entry an effective requirement comes from (its value
    // starts where the requirement's origin points), or nullptr. Constant
    // time: rules ask once per requirement, and a module may have thousands.
    [[nodiscard]] const WrittenRequirement* entry_for(const config::RequiredProvider& requirement) const;

private:
    struct Data;
    std::shared_ptr<const Data> data_;
    const std::vector<WrittenRequirement>* entries_ = nullptr;  // in *data_
};

// Native syntax keeps the first of two arguments with one name (the parser
// reports the second); JSON keeps both.
WrittenRequirements written_provider_requirements(const LintContext& ctx);

// written.entry_for(requirement).
const WrittenRequirement* written_entry_for(const WrittenRequirements& written,
                                            const config::RequiredProvider& requirement);

// Whether a diagnostic's subject lies inside a required_providers block of
// its file (parsed again from the diagnostic's source, which is cheap for the
// few diagnostics that need it).
bool subject_in_required_providers(const ClaimedDiagnostic& diagnostic);

// A literal string expression's value (a quoted string without
// interpolation), or nullopt.
std::optional<std::string> literal_string(const hcl::Expr* expr);

}  // namespace tfsift::lint::rules
