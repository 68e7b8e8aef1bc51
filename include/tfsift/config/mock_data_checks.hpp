// How Terraform combines the mock data files of one mock provider's
// `source` directory: file by file in name order, where a mock or an
// override that an earlier file of the directory already has is an error.
// What the mock provider block itself writes wins over the files without a
// word, and the files' override targets are not compared with the
// configuration (Terraform warns only about the block's own).
#pragma once

#include <vector>

#include "tfsift/config/mock_data_file.hpp"
#include "tfsift/config/module_checks.hpp"

namespace tfsift::config {

// The problems of combining `files` (one directory's, in load order).
std::vector<ModuleProblem> merge_mock_data_files(const std::vector<const MockDataFile*>& files);

}  // namespace tfsift::config
