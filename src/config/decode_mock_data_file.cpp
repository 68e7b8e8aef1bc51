// Mock data files, decoded as Terraform's test loader reads the files of a
// mock provider's `source` directory (internal/configs/mock_provider.go,
// decodeMockDataBody): `mock_resource` and `mock_data` blocks with their
// `defaults` and `override_during`, and `override_resource` and
// `override_data` blocks; nothing else. Within one file a second mock of the
// same type and kind, or a second override of the same target, is an error
// at the later block.
#include <map>

#include <fmt/core.h>

#include "decoder.hpp"
#include "tfsift/diagnostic_codes.hpp"

namespace tfsift::config {

void Decoder::decode_mock_data_root(const BodyRef& body, MockDataFile& out) {
    Content c = detail::body_content(ctx_, body, schema::mock_data_file, nullptr);
    std::map<std::string, Range> mocked_resources;
    std::map<std::string, Range> mocked_data;
    std::vector<TestOverride> overrides;
    for (const auto& b : c.blocks) {
        if (b.type == "mock_resource" || b.type == "mock_data") {
            Content mc = detail::body_content(ctx_, b.body, schema::terraform_mock_resource, nullptr);
            if (const auto* a = mc.attribute("override_during")) decode_override_during(*a);
            TestMock m{std::string(b.type), std::string(b.labels[0]), b.def_range, b.label_ranges[0]};
            auto& seen = b.type == "mock_resource" ? mocked_resources : mocked_data;
            if (auto it = seen.find(m.type); it != seen.end()) {
                ctx_.error(code::duplicate_mock_resource_block, fmt::format("Duplicate {} block", b.type),
                           fmt::format("A {} block for {} has already been defined at {}.", b.type, m.type,
                                       test_range_string(it->second)),
                           m.type_range);
                continue;
            }
            seen.emplace(m.type, b.def_range);
            out.mocks.push_back(std::move(m));
        } else if (auto o = decode_test_override(b)) {
            overrides.push_back(std::move(*o));
        }
    }
    check_duplicate_overrides(overrides, "this mock data file");
    for (auto& o : overrides) out.overrides.push_back(std::move(o));
}

MockDataFile Decoder::run_mock_data_file() {
    MockDataFile out;
    out.source = ctx_.file;
    for_each_root_body([&](const BodyRef& body) { decode_mock_data_root(body, out); });
    return out;
}

MockDataFile decode_mock_data_file(ParsedFile& file, Diagnostics& diags) {
    // Mock data files exist only for Terraform.
    Decoder d(file, false, diags, Engine::terraform);
    return d.run_mock_data_file();
}

}  // namespace tfsift::config
