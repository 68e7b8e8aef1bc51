#include <catch2/catch.hpp>

#include "tfsift/config/block_schemas.hpp"

using namespace tfsift::config;

TEST_CASE("block schemas: one table per block type", "[config]") {
    const auto* res = find_block(schema::file, "resource");
    REQUIRE(res != nullptr);
    CHECK(res->label_names.size() == 2);
    CHECK(find_block(schema::file, "provider")->label_names[0] == "name");
    CHECK(find_block(schema::file, "locals")->label_names.empty());
    CHECK(find_block(schema::file, "lifecycle") == nullptr);

    CHECK(schema::resource.partial);
    CHECK(find_attribute(schema::resource, "depends_on") != nullptr);
    CHECK(find_block(schema::resource, "provisioner")->label_names.size() == 1);
    CHECK(find_block(schema::data, "provisioner") == nullptr);
    CHECK(find_attribute(schema::managed_lifecycle, "ignore_changes") != nullptr);
    // Named so that the decoder can reject it with Terraform's own message.
    CHECK(find_attribute(schema::data_lifecycle, "ignore_changes") != nullptr);
    CHECK(find_attribute(schema::validation, "condition")->required);
    CHECK(find_attribute(schema::moved, "to")->required);
    CHECK_FALSE(schema::variable.partial);
    CHECK(find_block(schema::terraform, "backend")->label_names[0] == "type");
    CHECK(find_block(schema::dynamic, "content") != nullptr);
}
