# Writes the definition of tfsift::cli::build_commit() (src/cli/build_info.hpp)
# into the build directory, run at every build so that `tfsift --version`
# names the commit actually built. The file is rewritten only when its text
# changes, so an unchanged commit recompiles nothing.
#   cmake -DSOURCE=dir -DOUT=file.cpp [-DCOMMIT=id] -P build_info.cmake
# COMMIT (from -DTFSIFT_COMMIT=) wins; otherwise git is asked, and only when
# SOURCE is the top of a git work tree (not a source archive unpacked inside
# some other repository).
set(commit "${COMMIT}")
if(commit STREQUAL "")
  find_program(GIT_EXECUTABLE git)
  if(GIT_EXECUTABLE)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE} rev-parse --show-toplevel
                    OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
    if(status EQUAL 0)
      file(REAL_PATH "${top}" top)
      file(REAL_PATH "${SOURCE}" source_real)
    endif()
    if(status EQUAL 0 AND top STREQUAL source_real)
      execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE} rev-parse --short=12 HEAD
                      OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
      if(NOT status EQUAL 0)
        set(commit "")
      endif()
      if(NOT commit STREQUAL "")
        execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE} status --porcelain --untracked-files=no
                        OUTPUT_VARIABLE changes ERROR_QUIET RESULT_VARIABLE status)
        if(status EQUAL 0 AND NOT changes STREQUAL "")
          string(APPEND commit "-dirty")
        endif()
      endif()
    endif()
  endif()
endif()
# The id goes into a C++ string literal: letters, digits and . _ + - only.
if(NOT commit MATCHES "^[0-9A-Za-z._+-]*$" OR commit MATCHES "^.{65}")
  message(FATAL_ERROR "TFSIFT_COMMIT must be at most 64 letters, digits and . _ + - (got \"${commit}\")")
endif()

set(text "// Written by cmake/build_info.cmake at build time.
#include \"cli/build_info.hpp\"

namespace tfsift::cli {

std::string_view build_commit() { return \"${commit}\"; }

}  // namespace tfsift::cli
")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT}.tmp "${text}")
  file(RENAME ${OUT}.tmp ${OUT})
endif()
