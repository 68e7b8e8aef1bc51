// `tfsift effective`: a module tree loaded and its effective configuration
// rendered in one call, so that front ends only print the text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfsift/config/module_tree.hpp"

namespace tfsift::config {

enum class EffectiveFormat : std::uint8_t {
    json,  // the effective document (effective_document.hpp)
    hcl,   // the effective configuration as HCL (effective_hcl.hpp)
};

struct EffectiveOutput {
    bool loaded = false;      // false: the directory could not be read, `text` is empty
    bool has_errors = false;  // the configuration has errors (the text shows them)
    // Files that exist but could not be read (a FIFO, a device, no
    // permission), and why: not the configuration's fault, an I/O error.
    std::vector<std::string> read_failures;
    std::string text;
    // The module calls that were not loaded ("FILE:LINE:COLUMN: module.x
    // ... is not loaded ..."): they are about what tfsift could read, not
    // about the configuration, so they are not part of the document; a
    // front end shows them apart. A call whose fetch failed is an error
    // and stays in the document.
    std::vector<std::string> notices;
};

// Loads the module tree rooted at `dir` and renders it in `format`.
EffectiveOutput render_effective(const std::string& dir, const TreeOptions& options, EffectiveFormat format);

}  // namespace tfsift::config
