# -DTFSIFT_STATIC=ON: tfsift-static, the same objects as tfsift (the CLI's
# object library and the tfsift_core archive, compiled once) linked against
# the static archives Debian ships, so that it costs one more link and no
# compilation. Libraries without a static archive in Debian 12, and those a
# remaining shared library loads anyway, stay shared; README.md ("A static
# binary") lists them and a test compares the binary with that list.
if(NOT TFSIFT_STATIC)
  return()
endif()

# Linked from their static archives: nothing else in the process loads them
# as shared libraries, so one copy of each is all there is.
set(_tfsift_static_archives)
foreach(lib IN ITEMS re2 utf8proc mpfr gmp)
  find_library(TFSIFT_STATIC_${lib} NAMES lib${lib}.a)
  if(NOT TFSIFT_STATIC_${lib})
    message(FATAL_ERROR "TFSIFT_STATIC: lib${lib}.a not found (its Debian -dev package ships it)")
  endif()
  list(APPEND _tfsift_static_archives ${TFSIFT_STATIC_${lib}})
endforeach()

add_executable(tfsift-static $<TARGET_OBJECTS:tfsift_cli>)
add_dependencies(tfsift-static tfsift_core)
set_property(TARGET tfsift-static APPEND PROPERTY LINK_DEPENDS $<TARGET_FILE:tfsift_core>)
target_link_libraries(tfsift-static PRIVATE
  $<TARGET_FILE:tfsift_core> ${_tfsift_static_archives}
  # Shared: no static archive in Debian 12 (fmt, toml++, libzip, RNP), or
  # one whose own dependencies have none (libcurl: GSSAPI, LDAP, RTMP, SSH,
  # PSL), or loaded anyway by those (OpenSSL's libcrypto, libstdc++).
  fmt::fmt tomlplusplus::tomlplusplus libzip::zip CURL::libcurl rnp::librnp OpenSSL::Crypto
  Threads::Threads tfsift_flags)
