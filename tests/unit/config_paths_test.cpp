#include <catch2/catch.hpp>

#include "tfsift/config/paths.hpp"
#include "tfsift/config/version_constraints.hpp"

using namespace tfsift::config;

TEST_CASE("paths: Go path.Clean", "[config]") {
    CHECK(clean_path("") == ".");
    CHECK(clean_path("./") == ".");
    CHECK(clean_path("a//b/./c/") == "a/b/c");
    CHECK(clean_path("a/../..") == "..");
    CHECK(clean_path("../a/../../b") == "../../b");
    CHECK(clean_path("/../a") == "/a");
    CHECK(clean_path("modules/net/../vpc") == "modules/vpc");
    CHECK(join_path(".", "./modules/net") == "modules/net");
    CHECK(join_path("modules/net", "../shared") == "modules/shared");
    CHECK(join_path("modules", "../../outside") == "../outside");
}

TEST_CASE("paths: local module sources", "[config]") {
    CHECK(is_local_module_source("./a"));
    CHECK(is_local_module_source("../a"));
    CHECK_FALSE(is_local_module_source("hashicorp/consul/aws"));
    CHECK_FALSE(is_local_module_source(".a"));
    CHECK(normalize_local_module_source("./modules/net/") == "./modules/net");
    CHECK(normalize_local_module_source("./a/../b") == "./b");
    CHECK(normalize_local_module_source("../x/./y") == "../x/y");
}

TEST_CASE("version constraints: split and trimmed, spelling kept", "[config]") {
    CHECK(split_version_constraints(">= 1.2, < 2.0") == std::vector<std::string>{">= 1.2", "< 2.0"});
    CHECK(split_version_constraints("~>2.0.0") == std::vector<std::string>{"~>2.0.0"});
    CHECK(split_version_constraints("\t= 1.0 ,\n\f!=1.1\r") == std::vector<std::string>{"= 1.0", "!=1.1"});
}
