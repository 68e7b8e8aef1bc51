// toml++'s compiled part, for tfsift-static only (cmake/static.cmake): Debian
// ships toml++ as a shared library alone, but its headers hold the whole
// implementation, which the library's documented TOML_IMPLEMENTATION switch
// emits in one translation unit (with the same TOML_HEADER_ONLY=0 settings
// tfsift's other objects were compiled with). The shared build links
// libtomlplusplus instead.
#define TOML_IMPLEMENTATION 1
#include <toml++/toml.h>
