# Installing tfsift: the binary, its manual page and its shell completions
# (written at build time by the binary itself from its command table, so they
# cannot drift from the options it accepts), and a Debian package by CPack.
include(GNUInstallDirs)

set(TFSIFT_SHELL_DOCS_DIR ${CMAKE_BINARY_DIR}/share)
set(TFSIFT_SHELL_DOCS
  ${TFSIFT_SHELL_DOCS_DIR}/tfsift.1
  ${TFSIFT_SHELL_DOCS_DIR}/tfsift.bash
  ${TFSIFT_SHELL_DOCS_DIR}/_tfsift
  ${TFSIFT_SHELL_DOCS_DIR}/tfsift.fish)
add_custom_command(
  OUTPUT ${TFSIFT_SHELL_DOCS}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${TFSIFT_SHELL_DOCS_DIR}
  COMMAND ${CMAKE_COMMAND} -DTFSIFT=$<TARGET_FILE:tfsift> -DOUT=${TFSIFT_SHELL_DOCS_DIR}
          -P ${PROJECT_SOURCE_DIR}/cmake/generate_shell_docs.cmake
  DEPENDS tfsift ${PROJECT_SOURCE_DIR}/cmake/generate_shell_docs.cmake
  COMMENT "Writing the manual page and the shell completions"
  VERBATIM)
# The manual page is installed compressed, as Debian policy asks and man
# reads everywhere (gzip -n: no name or time stamp, the same bytes each build).
add_custom_command(
  OUTPUT ${TFSIFT_SHELL_DOCS_DIR}/tfsift.1.gz
  COMMAND gzip -9n -c ${TFSIFT_SHELL_DOCS_DIR}/tfsift.1 > ${TFSIFT_SHELL_DOCS_DIR}/tfsift.1.gz.tmp
  COMMAND ${CMAKE_COMMAND} -E rename ${TFSIFT_SHELL_DOCS_DIR}/tfsift.1.gz.tmp ${TFSIFT_SHELL_DOCS_DIR}/tfsift.1.gz
  DEPENDS ${TFSIFT_SHELL_DOCS_DIR}/tfsift.1
  COMMENT "Compressing the manual page")
add_custom_target(tfsift_shell_docs ALL DEPENDS ${TFSIFT_SHELL_DOCS} ${TFSIFT_SHELL_DOCS_DIR}/tfsift.1.gz)

# The licence in Debian's machine-readable copyright format (DEP-5), made
# from LICENSE: every line indented by one space, an empty line written " .".
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/LICENSE)
file(READ ${PROJECT_SOURCE_DIR}/LICENSE _tfsift_license)
string(REGEX REPLACE "^\n+" "" _tfsift_license "${_tfsift_license}")
string(REGEX REPLACE "\n+$" "" _tfsift_license "${_tfsift_license}")
string(REGEX REPLACE "[ \t]+\n" "\n" _tfsift_license "${_tfsift_license}")
string(REPLACE "\n" "\n " _tfsift_license " ${_tfsift_license}")
string(REGEX REPLACE "\n \n" "\n .\n" _tfsift_license "${_tfsift_license}")
string(REGEX REPLACE "\n \n" "\n .\n" _tfsift_license "${_tfsift_license}")
set(_tfsift_copyright "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: tfsift\n")
if(TFSIFT_HOMEPAGE)
  string(APPEND _tfsift_copyright "Source: ${TFSIFT_HOMEPAGE}\n")
endif()
string(APPEND _tfsift_copyright "\nFiles: *\nCopyright: 2026 the tfsift authors\nLicense: Apache-2.0\n\n"
       "License: Apache-2.0\n${_tfsift_license}\n")
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/copyright CONTENT "${_tfsift_copyright}")

install(TARGETS tfsift RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${TFSIFT_SHELL_DOCS_DIR}/tfsift.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${TFSIFT_SHELL_DOCS_DIR}/tfsift.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME tfsift)
# zsh finds completions on $fpath: Debian's zsh reads vendor-completions under
# /usr (where the Debian package installs), other prefixes such as /usr/local
# use site-functions. The choice is made at install time, when the prefix is
# known (CPack installs under a staging path ending in /usr).
set(TFSIFT_ZSH_COMPLETION_DIR "" CACHE STRING
    "Where the zsh completion is installed, relative to the prefix (default: by prefix)")
install(CODE "set(_tfsift_zsh_dir \"${TFSIFT_ZSH_COMPLETION_DIR}\")
  if(NOT _tfsift_zsh_dir)
    if(CMAKE_INSTALL_PREFIX MATCHES \"(^|/)usr/?$\")
      set(_tfsift_zsh_dir share/zsh/vendor-completions)
    else()
      set(_tfsift_zsh_dir share/zsh/site-functions)
    endif()
  endif()
  file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/\${_tfsift_zsh_dir}\" TYPE FILE FILES \"${TFSIFT_SHELL_DOCS_DIR}/_tfsift\")")
install(FILES ${TFSIFT_SHELL_DOCS_DIR}/tfsift.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
# The installed README is the short one for users (share/README.md); the
# repository's README.md links into the source tree, which is not installed.
install(FILES ${PROJECT_SOURCE_DIR}/share/README.md ${PROJECT_SOURCE_DIR}/LICENSE ${CMAKE_BINARY_DIR}/copyright
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# ---- the Debian package (cpack -G DEB in the build directory) ----------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tfsift)
set(CPACK_PACKAGE_VENDOR "tfsift")
set(CPACK_PACKAGE_CONTACT "tfsift maintainers <tfsift@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "static analysis and policy linter for Terraform and OpenTofu")
set(CPACK_PACKAGE_DESCRIPTION
    "tfsift parses Terraform and OpenTofu configurations with exact source ranges and checks them against the rules the Terraform and OpenTofu documentation states, lock files and provider hashes included.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY tfsift)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends from the shared libraries the binary links, as dpkg-shlibdeps
# (dpkg-dev, part of build-essential) finds them, and the packages of those it
# opens when a command needs them (include/tfsift/lazy_library.hpp), which
# dpkg-shlibdeps cannot see: the packages that install them on this machine.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(_tfsift_lazy_packages)
foreach(_key IN ITEMS LIBCURL LIBRNP LIBARCHIVE LIBZIP)
  find_library(_tfsift_lazy_${_key} NAMES ${TFSIFT_${_key}_SONAME} NO_CACHE)
  execute_process(COMMAND dpkg-query -S ${_tfsift_lazy_${_key}} OUTPUT_VARIABLE _owner RESULT_VARIABLE _rc
                  ERROR_QUIET)
  if(_rc EQUAL 0 AND _owner MATCHES "^([^:,]+)")
    list(APPEND _tfsift_lazy_packages ${CMAKE_MATCH_1})
  else()
    message(WARNING "no Debian package owns ${TFSIFT_${_key}_SONAME}: the .deb will not depend on it")
  endif()
endforeach()
string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_DEPENDS "${_tfsift_lazy_packages}")
set(CPACK_STRIP_FILES ON)
# A Homepage field only for a configured project address (-DTFSIFT_HOMEPAGE=).
if(TFSIFT_HOMEPAGE)
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${TFSIFT_HOMEPAGE}")
else()
  unset(CPACK_DEBIAN_PACKAGE_HOMEPAGE)
endif()
include(CPack)
