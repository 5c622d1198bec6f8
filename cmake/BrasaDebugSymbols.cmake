# Note [Symbols beside the library]
# A Release library carries no symbol table: after each link its .symtab/.strtab move to
# <library>.debug beside it (objcopy --only-keep-debug), and the library keeps a .gnu_debuglink to
# that file, so gdb, perf and addr2line still name every function (the way Debian ships -dbgsym
# packages). The exported symbols (.dynsym), which programs link against, stay in the library.
# The symbol table was 2.9 MB of libbrasa's 15 MB; the code itself is unchanged.
include(GNUInstallDirs)
find_program(BRASA_OBJCOPY NAMES objcopy REQUIRED)

function(brasa_split_debug_symbols target)
  if(NOT CMAKE_BUILD_TYPE STREQUAL "Release")
    return()
  endif()
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${BRASA_OBJCOPY} --only-keep-debug $<TARGET_FILE_NAME:${target}>
            $<TARGET_FILE_NAME:${target}>.debug
    COMMAND ${BRASA_OBJCOPY} --strip-unneeded
            --add-gnu-debuglink=$<TARGET_FILE_NAME:${target}>.debug $<TARGET_FILE_NAME:${target}>
    WORKING_DIRECTORY $<TARGET_FILE_DIR:${target}>
    COMMENT "Moving ${target}'s symbol table to $<TARGET_FILE_NAME:${target}>.debug"
    VERBATIM)
  install(FILES $<TARGET_FILE:${target}>.debug DESTINATION ${CMAKE_INSTALL_LIBDIR}/.debug)
endfunction()
