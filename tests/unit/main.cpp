#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "tfsift/online/openpgp_helper.hpp"

int main(int argc, char* argv[]) {
    // The OpenPGP check re-executes the running program as its helper
    // (`PROGRAM debug openpgp-verify`), as the tfsift binary does; this test
    // program answers that call the same way.
    if (tfsift::online::is_openpgp_helper_invocation(argc, argv)) {
        return tfsift::online::run_openpgp_helper(stdin, stdout);
    }
    return Catch::Session().run(argc, argv);
}
