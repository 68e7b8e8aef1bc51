// What the server shows on hover: over a finding, its rule's documentation;
// over a module call or a block that an override file changed, where its
// effective value comes from (the origins `tfsift effective` prints).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tfsift/lint/finding.hpp"
#include "tfsift/lint/rule.hpp"

namespace tfsift::server {

// Markdown for the findings of the file `path` (absolute; relative names
// resolved against `base_dir`) whose range holds the byte offset `offset`
// (its end included): each message, then its rule's documentation from
// `catalogue`. None when no finding is there.
std::optional<std::string> finding_hover(const lint::Findings& findings, const std::vector<lint::Rule>& catalogue,
                                         const std::string& path, const std::string& base_dir, std::size_t offset);

// Markdown saying where the effective value of the module call or
// overridden block that starts on `line` (1-based) of `path` comes from,
// read from `module` (a MODULE object of the effective document, whose
// origins name files absolutely or relative to `base_dir`). None when no
// module call or overridden block starts there.
std::optional<std::string> origin_hover(const nlohmann::json& module, const std::string& path,
                                        const std::string& base_dir, std::uint32_t line);

}  // namespace tfsift::server
