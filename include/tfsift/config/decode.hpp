// Reading one configuration file (native syntax or Terraform's JSON
// syntax) and decoding its blocks into a ConfigFile, with the load-time
// decoding and the error messages of Terraform's config loader.
#pragma once

#include <deque>
#include <memory>
#include <optional>

#include "tfsift/arena.hpp"
#include "tfsift/config/config_file.hpp"
#include "tfsift/config/diagnostic_limit.hpp"
#include "tfsift/config/migration_file.hpp"
#include "tfsift/config/mock_data_file.hpp"
#include "tfsift/config/module_files.hpp"
#include "tfsift/config/query_file.hpp"
#include "tfsift/config/test_file.hpp"
#include "tfsift/diagnostic.hpp"
#include "tfsift/hcl/ast.hpp"
#include "tfsift/json/value.hpp"

namespace tfsift::config {

// A parsed file and everything the decoded model points into; it must
// outlive every ConfigFile and Module decoded from it.
struct ParsedFile {
    std::shared_ptr<const SourceFile> source;
    FileSyntax syntax = FileSyntax::native;
    std::optional<hcl::File> native;
    std::optional<json::Document> json;
    std::unique_ptr<Arena> arena = std::make_unique<Arena>();  // expressions parsed from JSON strings
    std::deque<std::shared_ptr<SourceFile>> scratch;           // see body_content.cpp
    Diagnostics parse_diagnostics;

    [[nodiscard]] bool has_parse_errors() const { return has_errors(parse_diagnostics); }
};

// Parses the file with the syntax its name implies. Never throws for bad
// input; problems are in parse_diagnostics.
std::unique_ptr<ParsedFile> parse_config_file(const std::shared_ptr<const SourceFile>& source, FileSyntax syntax);

// Decodes the top-level blocks of a parsed file. `is_override` selects
// Terraform's override-file decoding (nothing required, nothing defaulted).
// `engine` selects OpenTofu's additions (the `tofu` block, provider
// `for_each`). With `left_out`, at most max_diagnostics_per_kind
// diagnostics of one kind (file and summary) go to `diags`, and what is left
// out of each kind is counted there (config/diagnostic_limit.hpp).
ConfigFile decode_config_file(ParsedFile& file, bool is_override, Diagnostics& diags, Engine engine = Engine::terraform,
                              std::vector<LeftOutDiagnostics>* left_out = nullptr);

// Decodes a parsed test file (`*.tftest.hcl`, `*.tftest.json`) the way the
// engine's test loader does.
TestFile decode_test_file(ParsedFile& file, Diagnostics& diags, Engine engine = Engine::terraform);

// Decodes a parsed mock data file (`*.tfmock.hcl`, `*.tfmock.json`) the way
// Terraform's test loader reads a mock provider's `source` directory.
MockDataFile decode_mock_data_file(ParsedFile& file, Diagnostics& diags);

// Decodes a parsed query file (`*.tfquery.hcl`, `*.tfquery.json`) the way
// Terraform's loader does for `terraform query` and `validate -query`.
QueryFile decode_query_file(ParsedFile& file, Diagnostics& diags);

// Decodes a parsed state migration file (`*.tfmigrate.hcl`) the way
// Terraform's loader does for `terraform state migrate`.
MigrationFile decode_migration_file(ParsedFile& file, Diagnostics& diags);

}  // namespace tfsift::config
