// What the override-file rules (seed 000) share: telling override files
// apart by name, and the top-level blocks of a file as they were written
// (native or JSON syntax), with the arguments written directly in them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfsift/config/loaded_tree.hpp"
#include "tfsift/source.hpp"

namespace tfsift::lint::rules {

// True when the last path component is an override file name
// (`override.tf`, `*_override.tf`, and their `.tf.json`, `.tofu` and
// `.tofu.json` forms).
bool is_override_file_path(std::string_view path);

// One argument written directly in a top-level block (for JSON: one
// property of the block's object, which may also be a nested block).
struct WrittenArgument {
    std::string name;
    Range name_range;
};

// One top-level block as written: `resource "a" "b" { ... }`, or the object
// at the end of `{"resource": {"a": {"b": {...}}}}` in JSON.
struct WrittenBlock {
    std::string type;
    std::vector<std::string> labels;
    Range def_range;  // native: type through last label; JSON: the last label's key (or the type's key)
    std::vector<WrittenArgument> arguments;

    [[nodiscard]] const WrittenArgument* find_argument(std::string_view name) const;
};

// The top-level blocks of a file with one of the given types, in source
// order. Blocks whose labels are incomplete are left out.
std::vector<WrittenBlock> written_blocks(const config::ModuleFile& file, const std::vector<std::string_view>& types);

// One top-level block as the decoder read it (config::ConfigFile), with its
// header: the block type, its labels and, for a provider configuration, its
// alias (which tells configurations apart like a label would).
struct DeclaredBlock {
    std::string type;
    std::vector<std::string> labels;
    std::optional<std::string> alias;
    Range def_range;
    std::size_t depends_on = 0;  // references in its depends_on
    config::Origin origin;

    [[nodiscard]] bool same_header(const DeclaredBlock& other) const;
};

// The provider, variable, output, module, resource and data blocks of a
// decoded file, in that order.
std::vector<DeclaredBlock> declared_blocks(const config::ConfigFile& file);

// "resource \"aws_instance\" \"web\"": a block header for messages.
std::string block_header(std::string_view type, const std::vector<std::string>& labels);

}  // namespace tfsift::lint::rules
