// Indexing and attribute access on values, as hcl.Index and hcl.GetAttr:
// used by index expressions and by traversal steps.
#pragma once

#include <string>
#include <string_view>

#include "tfsift/cty/value.hpp"

namespace tfsift::hcl {

// A failed access: a summary and a detail for the diagnostic.
struct AccessError {
    std::string summary;
    std::string detail;
};

struct AccessResult {
    cty::Value value;  // DynamicVal on error
    std::optional<AccessError> error;
};

AccessResult index_value(const cty::Value& collection, const cty::Value& key);
AccessResult get_attribute(const cty::Value& object, std::string_view name);

}  // namespace tfsift::hcl
