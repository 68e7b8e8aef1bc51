#include "tfsift/config/mock_data_checks.hpp"

#include <map>
#include <string>
#include <utility>

#include <fmt/core.h>

#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::config {

namespace {

// hcl's Range.String() of `r` in `file`.
std::string range_text(const SourceFile* file, Range r) {
    if (file == nullptr) return "?";
    const ResolvedPos a = file->resolve(r.start);
    const ResolvedPos b = file->resolve(r.end);
    if (a.line == b.line) return fmt::format("{}:{},{}-{}", file->path(), a.line, a.column, b.column);
    return fmt::format("{}:{},{}-{},{}", file->path(), a.line, a.column, b.line, b.column);
}

}  // namespace

std::vector<ModuleProblem> merge_mock_data_files(const std::vector<const MockDataFile*>& files) {
    std::vector<ModuleProblem> out;
    // (kind, type) and target: where the first one was written.
    std::map<std::pair<std::string, std::string>, std::pair<const SourceFile*, Range>> mocks;
    std::map<std::string, std::pair<const SourceFile*, Range>> overrides;
    for (const MockDataFile* f : files) {
        for (const TestMock& m : f->mocks) {
            auto [it, added] =
                mocks.try_emplace(std::make_pair(m.block_type, m.type), std::make_pair(f->source, m.def_range));
            if (added) continue;
            out.push_back({Severity::error, code::duplicate_mock_resource_block, "Duplicate mock resource block",
                           fmt::format("A {} \"{}\" block already exists at {}.", m.block_type, m.type,
                                       range_text(it->second.first, it->second.second)),
                           Origin{f->source, m.type_range.start}});
        }
        for (const TestOverride& o : f->overrides) {
            if (!o.target) continue;
            auto [it, added] = overrides.try_emplace(o.key, std::make_pair(f->source, o.def_range));
            if (added) continue;
            out.push_back({Severity::error, code::duplicate_override_block, "Duplicate override block",
                           fmt::format("An override block for {} already exists at {}.", o.target->text,
                                       range_text(it->second.first, it->second.second)),
                           Origin{f->source, o.def_range.start}});
        }
    }
    return out;
}

}  // namespace tfsift::config
