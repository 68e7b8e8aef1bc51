#include <catch2/catch.hpp>

#include <filesystem>

#include "tfsift/config/module_files.hpp"

using namespace tfsift::config;

namespace {
std::vector<std::string> names_of(const std::vector<ConfigFileName>& files, FileRole role) {
    std::vector<std::string> out;
    for (const auto& f : files) {
        if (f.role == role) out.push_back(f.name);
    }
    return out;
}
}  // namespace

TEST_CASE("config files: override names and byte order", "[config]") {
    auto files = select_config_files({"z_override.tf",
                                      "override.tf.json",
                                      "main.tf",
                                      "override_x.tf",
                                      "Override.tf",
                                      "_override.tf",
                                      "B_override.tf",
                                      "a_override.tf",
                                      "override.tf",
                                      "override_override.tf",
                                      "myoverride.tf",
                                      "providers-override.tf",
                                      "x_override.tf.json",
                                      "main.TF",
                                      "notes.txt",
                                      ".hidden.tf",
                                      "backup.tf~",
                                      "#auto.tf#",
                                      "#half.tf",
                                      "vars.tofu"},
                                     Engine::terraform);
    CHECK(names_of(files, FileRole::override) ==
          std::vector<std::string>{"B_override.tf", "_override.tf", "a_override.tf", "override.tf", "override.tf.json",
                                   "override_override.tf", "x_override.tf.json", "z_override.tf"});
    CHECK(names_of(files, FileRole::primary) == std::vector<std::string>{"#half.tf", "Override.tf", "main.tf",
                                                                         "myoverride.tf", "override_x.tf",
                                                                         "providers-override.tf"});
    for (const auto& f : files) {
        CHECK((f.syntax == FileSyntax::json) == (f.name.find(".json") != std::string::npos));
    }
}

TEST_CASE("config files: OpenTofu's .tofu files shadow their .tf twins", "[config]") {
    // The file names of ../shared/conformance/opentofu-configs/tofu-and-tf-files.
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(TFSIFT_SHARED_DIR) /
                                                             "conformance/opentofu-configs/tofu-and-tf-files")) {
        if (e.is_regular_file()) names.push_back(e.path().filename().string());
    }
    REQUIRE(names.size() == 12);
    auto tofu = select_config_files(names, Engine::opentofu);
    CHECK(names_of(tofu, FileRole::primary) == std::vector<std::string>{"more-resources.tf", "more-resources.tf.json",
                                                                        "resources.tofu", "resources.tofu.json",
                                                                        "variables.tf", "variables.tf.json"});
    CHECK(names_of(tofu, FileRole::override) ==
          std::vector<std::string>{"variables_override.tofu", "variables_override.tofu.json"});

    auto tf = select_config_files(names, Engine::terraform);
    CHECK(names_of(tf, FileRole::primary) == std::vector<std::string>{"more-resources.tf", "more-resources.tf.json",
                                                                      "resources.tf", "resources.tf.json",
                                                                      "variables.tf", "variables.tf.json"});
    CHECK(names_of(tf, FileRole::override) ==
          std::vector<std::string>{"variables_override.tf", "variables_override.tf.json"});
}

TEST_CASE("config files: query, migration and mock data files, as Terraform's matchers select them", "[config]") {
    const std::vector<std::string> names{"z.tfquery.hcl",  "a.tfquery.json", "main.tf",       ".hidden.tfquery.hcl",
                                         "x.tfquery.hcl~", "b.tfmock.hcl",   "a.tfmock.json", ".ignored.tfmock.hcl",
                                         "#a.tfmock.hcl#", "web.tftest.hcl", "q.tfquery",     "m.tfmock"};
    auto queries = select_query_files(names, Engine::terraform);
    CHECK(names_of(queries, FileRole::primary) == std::vector<std::string>{"a.tfquery.json", "z.tfquery.hcl"});
    CHECK(queries[0].syntax == FileSyntax::json);
    CHECK(queries[1].syntax == FileSyntax::native);
    // OpenTofu has no query files.
    CHECK(select_query_files(names, Engine::opentofu).empty());

    // State migration files have no JSON form.
    const std::vector<std::string> migrations{"z.tfmigrate.hcl",  "a.tfmigrate.json", ".hidden.tfmigrate.hcl",
                                              "b.tfmigrate.hcl~", "a.tfmigrate.hcl",  "main.tf"};
    auto migration = select_migration_files(migrations, Engine::terraform);
    CHECK(names_of(migration, FileRole::primary) == std::vector<std::string>{"a.tfmigrate.hcl", "z.tfmigrate.hcl"});
    CHECK(migration[0].syntax == FileSyntax::native);
    CHECK(select_migration_files(migrations, Engine::opentofu).empty());

    auto mocks = select_mock_data_files(names);
    CHECK(names_of(mocks, FileRole::primary) == std::vector<std::string>{"a.tfmock.json", "b.tfmock.hcl"});
    CHECK(mocks[0].syntax == FileSyntax::json);
}
