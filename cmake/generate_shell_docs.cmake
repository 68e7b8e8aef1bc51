# Writes the manual page and the shell completions by running the tfsift
# binary just built (`tfsift man`, `tfsift completion SHELL`).
#   cmake -DTFSIFT=path/to/tfsift -DOUT=dir -P generate_shell_docs.cmake
# A sanitizer build's binary writes the same text; its leak report at exit
# belongs to the test suite, not to this step.
set(ENV{ASAN_OPTIONS} "detect_leaks=0")
foreach(item IN ITEMS "man;tfsift.1" "completion;bash;tfsift.bash" "completion;zsh;_tfsift" "completion;fish;tfsift.fish")
  list(POP_BACK item file)
  execute_process(COMMAND ${TFSIFT} ${item}
                  OUTPUT_FILE ${OUT}/${file}.tmp
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "tfsift ${item} failed (${status})")
  endif()
  file(RENAME ${OUT}/${file}.tmp ${OUT}/${file})
endforeach()
