// A test file (`*.tftest.hcl`, `*.tftest.json`; OpenTofu also
// `*.tofutest.*`) decoded the way `terraform test` loads it: its run blocks,
// the variables and provider configurations it gives them, and the
// overrides and mocks it applies. Test files belong to the module they sit
// in (or whose `tests/` directory holds them); they are not configuration
// and are never merged into the module.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tfsift/config/model.hpp"

namespace tfsift::config {

// An `override_resource`, `override_data` or `override_module` block: the
// object it replaces with fixed values.
struct TestOverride {
    std::string block_type;           // "override_resource", ...
    std::optional<Traversal> target;  // unset when missing or not an address
    // The target without instance keys, split at the dots:
    // `module.a[0].aws_instance.web` gives module, a, aws_instance, web.
    std::vector<std::string> target_names;
    // What duplicates are told apart by: the target as written, except that
    // with Terraform a resource's optional `resource.` keyword is left out
    // (`resource.aws_instance.web` is `aws_instance.web`), as its address
    // prints.
    std::string key;
    Range def_range;
};

// A `mock_resource` or `mock_data` block of a mock provider.
struct TestMock {
    std::string block_type;  // "mock_resource" or "mock_data"
    std::string type;        // the resource type it mocks
    Range def_range;
    Range type_range;  // the type label
};

// A `provider` or `mock_provider` block of a test file.
struct TestProvider {
    std::string name;
    std::optional<std::string> alias;
    bool mock = false;
    std::optional<std::string> source;  // mock_provider `source`: a directory of .tfmock.hcl files
    std::optional<Origin> source_origin;
    std::vector<TestMock> mocks;
    std::vector<TestOverride> overrides;
    Body config;  // a real provider's own arguments
    Range name_range;
    Range def_range;

    [[nodiscard]] std::string key() const { return alias ? name + "." + *alias : name; }
};

// A run block's `module` block: the module the run executes instead of
// the one under test.
struct TestRunModule {
    std::string source_as_written;
    std::optional<std::string> source;  // normalized; unset when invalid
    bool local = false;
    Origin source_origin;
    Range def_range;
};

enum class TestCommand : std::uint8_t { apply, plan };

struct TestRun {
    std::string name;
    Range name_range;
    Range def_range;
    TestCommand command = TestCommand::apply;
    std::vector<Argument> variables;
    std::vector<Check> asserts;
    std::vector<Traversal> expect_failures;
    std::vector<Traversal> replace;  // plan_options
    std::vector<Traversal> target;   // plan_options
    std::vector<ProviderPassing> providers;
    std::optional<TestRunModule> module;
    std::vector<TestOverride> overrides;
    std::optional<std::string> state_key;
    bool has_backend = false;
};

// A `variable` block of a test file (Terraform): a variable the test file
// declares for itself.
struct TestVariable {
    std::string name;
    std::optional<Expression> default_expr;
    Range def_range;
};

struct TestFile {
    const SourceFile* source = nullptr;
    std::vector<TestRun> runs;  // source order, every run block that has a name
    std::vector<Argument> variables;
    std::vector<TestVariable> variable_blocks;
    std::vector<TestProvider> providers;
    std::vector<TestOverride> overrides;
};

}  // namespace tfsift::config
