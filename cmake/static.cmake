# -DTFSIFT_STATIC=ON: tfsift-static, the same objects as tfsift (the CLI's
# object library and the tfsift_core archive, compiled once) linked against
# the static archives Debian ships, so that it costs one more link and no
# recompilation of tfsift; fmt and toml++, which Debian ships as shared
# libraries only, are compiled from their headers in two small files.
# Libraries without a static archive in Debian 12, and those a remaining
# shared library loads anyway, stay shared; CONTRIBUTING.md ("A mostly static
# binary") lists them and a test compares the binary with that list.
if(NOT TFSIFT_STATIC)
  return()
endif()

# Linked from their static archives: nothing else in the process loads them
# as shared libraries, so one copy of each is all there is. jemalloc's
# archive defines malloc and free in the executable, where the shared
# libraries that remain find them too.
set(_tfsift_static_archives)
set(_tfsift_static_libs re2 utf8proc mpfr gmp)
if(TFSIFT_USE_JEMALLOC)
  list(APPEND _tfsift_static_libs jemalloc_pic)
endif()
foreach(lib IN ITEMS ${_tfsift_static_libs})
  find_library(TFSIFT_STATIC_${lib} NAMES lib${lib}.a)
  if(NOT TFSIFT_STATIC_${lib})
    message(FATAL_ERROR "TFSIFT_STATIC: lib${lib}.a not found (its Debian -dev package ships it)")
  endif()
  list(APPEND _tfsift_static_archives ${TFSIFT_STATIC_${lib}})
endforeach()

# fmt and toml++ ship no static archive, but their headers hold their
# definitions: two small translation units compile them into the binary.
set(_tfsift_header_libraries
  ${PROJECT_SOURCE_DIR}/src/cli/static_link/fmt_definitions.cpp
  ${PROJECT_SOURCE_DIR}/src/cli/static_link/tomlplusplus_definitions.cpp)
add_executable(tfsift-static $<TARGET_OBJECTS:tfsift_cli> ${_tfsift_header_libraries})
# Their usage requirements (FMT_SHARED, TOML_HEADER_ONLY=0, include paths),
# without linking their shared libraries.
target_compile_definitions(tfsift-static PRIVATE $<TARGET_PROPERTY:fmt::fmt,INTERFACE_COMPILE_DEFINITIONS>)
target_compile_options(tfsift-static PRIVATE $<TARGET_PROPERTY:tomlplusplus::tomlplusplus,INTERFACE_COMPILE_OPTIONS>)
target_include_directories(tfsift-static PRIVATE
  $<TARGET_PROPERTY:fmt::fmt,INTERFACE_INCLUDE_DIRECTORIES>
  $<TARGET_PROPERTY:tomlplusplus::tomlplusplus,INTERFACE_INCLUDE_DIRECTORIES>)
add_dependencies(tfsift-static tfsift_core)
set_property(TARGET tfsift-static APPEND PROPERTY LINK_DEPENDS $<TARGET_FILE:tfsift_core>)
target_link_libraries(tfsift-static PRIVATE
  $<TARGET_FILE:tfsift_core> ${_tfsift_static_archives}
  # Shared: OpenSSL's libcrypto, which libcurl and libzip load too when a
  # command opens them (include/tfsift/lazy_library.hpp), and libstdc++,
  # which RNP loads.
  OpenSSL::Crypto Threads::Threads ${CMAKE_DL_LIBS} tfsift_flags)
