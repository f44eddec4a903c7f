# Run at build time (see CMakeLists.txt): writes a help2man include file with
# each command's --help, so that the man page documents every command's
# options and not only the top-level list of commands.
#   cmake -DDICESIM=build/dicesim -DOUTPUT=build/man_commands.h2m -P scripts/man_commands.cmake
set(content "[COMMANDS]\nEach command's own help (dicesim COMMAND --help).\n")
foreach(command run check merge show validate list schema bench solve)
  execute_process(COMMAND ${DICESIM} ${command} --help OUTPUT_VARIABLE help RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "${DICESIM} ${command} --help failed")
  endif()
  # The usage line names the binary by its build path: the man page says dicesim.
  string(REPLACE "${DICESIM}" "dicesim" help "${help}")
  # roff: a backslash is \e, and a line starting with . or ' is no request.
  string(REPLACE "\\" "\\e" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(APPEND content ".SS \"dicesim ${command}\"\n.nf\n${help}.fi\n")
endforeach()
file(WRITE ${OUTPUT} "${content}")
