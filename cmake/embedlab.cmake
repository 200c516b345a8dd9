# What every part of the build shares: the warnings each target compiles with, and how a part
# whose tools are missing is switched off (or, for the README's test command, refused).

# One set of warnings for every C++ target: the core, the CLI, the benchmarks, the tests, the
# fuzzers, the WebAssembly bindings and the CUDA backend's host code. Link it PRIVATE.
add_library(embedlab_warnings INTERFACE)
target_compile_options(embedlab_warnings INTERFACE
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU,Clang>>:-Wall -Wextra -Wpedantic -Wshadow>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)

# ON for the README's test command (scripts/build.sh): a missing tool is an error there. OFF, a
# part that needs a missing tool is left out with one message naming it, so that the core and its
# Catch2 tests build with a compiler, CMake, Eigen, nlohmann-json and Catch2 alone.
option(EMBEDLAB_REQUIRE_ALL "Fail when a tool some part of the build needs is missing" OFF)

# embedlab_needs(<result> <part> <what>... ): <result> is TRUE when every <what> is a variable that
# holds something found (a find_program/find_package result, or <Pkg>_FOUND), else FALSE with a
# message naming <part> and what it lacks; an error under EMBEDLAB_REQUIRE_ALL.
function(embedlab_needs result part)
  set(missing "")
  foreach(what IN LISTS ARGN)
    if(NOT ${what})
      # Named as a person knows it: CLI11_FOUND -> CLI11, EMBEDLAB_NODE -> node.
      string(REGEX REPLACE "_FOUND$" "" name ${what})
      if(name MATCHES "^EMBEDLAB_")
        string(REGEX REPLACE "^EMBEDLAB_" "" name ${name})
        string(TOLOWER ${name} name)
      endif()
      list(APPEND missing ${name})
    endif()
  endforeach()
  if(missing)
    list(JOIN missing ", " missing)
    if(EMBEDLAB_REQUIRE_ALL)
      message(FATAL_ERROR "${part}: not found: ${missing} (EMBEDLAB_REQUIRE_ALL is ON)")
    endif()
    message(STATUS "${part}: off, not found: ${missing}")
    set(${result} FALSE PARENT_SCOPE)
  else()
    set(${result} TRUE PARENT_SCOPE)
  endif()
endfunction()

# embedlab_find_python(<var> <imports>): <var> (cached) is the first Python on the PATH that
# imports every module of <imports> ("torch, numpy"): Debian's python3, where a Python of one's
# own without them (pyenv's) may come first.
function(embedlab_find_python var imports)
  set(EMBEDLAB_PYTHON_IMPORTS ${imports})  # seen by the validator, which find_program calls here
  find_program(${var} NAMES python3 python NAMES_PER_DIR VALIDATOR embedlab_python_imports)
endfunction()
function(embedlab_python_imports result candidate)
  execute_process(COMMAND ${candidate} -c "import ${EMBEDLAB_PYTHON_IMPORTS}"
                  RESULT_VARIABLE failed OUTPUT_QUIET ERROR_QUIET)
  if(failed)
    set(${result} FALSE PARENT_SCOPE)
  endif()
endfunction()
