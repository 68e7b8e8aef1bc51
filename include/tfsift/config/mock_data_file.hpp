// A mock data file (`*.tfmock.hcl`, `*.tfmock.json`): the mocks and
// overrides a Terraform `mock_provider` reads from the directory its
// `source` names, beside the ones written in the block itself. Such a file
// belongs to the test files that name its directory; it is neither
// configuration nor a test file. OpenTofu has no mock data files.
#pragma once

#include <vector>

#include "tfsift/config/test_file.hpp"

namespace tfsift::config {

struct MockDataFile {
    const SourceFile* source = nullptr;
    std::vector<TestMock> mocks;          // mock_resource and mock_data, source order, each type once per kind
    std::vector<TestOverride> overrides;  // override_resource and override_data, each target once
};

}  // namespace tfsift::config
