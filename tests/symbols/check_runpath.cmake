# ctest `no_cwd_runpath`: fails when a binary we build has an RPATH or RUNPATH entry that is empty
# or relative ("", ".", "lib"): the dynamic loader reads such an entry as a folder relative to
# the current working directory, so starting TrainScope in a folder holding a file named like
# one of its libraries (libc10.so.1.13) would load that file's code. CMake's build RPATH padding
# ("::::", room for an install-time RPATH) was exactly that (issue 45); every library TrainScope
# links is in the system's folders, so the binaries need no RPATH at all.
#
# Usage: cmake -DREADELF=<readelf> -DFILES=<file|file|...> -P check_runpath.cmake
cmake_minimum_required(VERSION 3.22)

if(NOT READELF OR NOT FILES)
  message(FATAL_ERROR "usage: cmake -DREADELF=<readelf> -DFILES=<a|b|...> -P check_runpath.cmake")
endif()
string(REPLACE "|" ";" _files "${FILES}")
set(_bad "")
set(_checked 0)
foreach(_f IN LISTS _files)
  if(NOT EXISTS "${_f}")
    continue()
  endif()
  execute_process(COMMAND "${READELF}" -d "${_f}" OUTPUT_VARIABLE _out RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    list(APPEND _bad "${_f}: readelf failed")
    continue()
  endif()
  math(EXPR _checked "${_checked} + 1")
  string(REGEX MATCHALL "\\((RPATH|RUNPATH)\\)[^\n]*\\[[^]\n]*\\]" _entries "${_out}")
  foreach(_e IN LISTS _entries)
    string(REGEX REPLACE ".*\\[([^]]*)\\]" "\\1" _path "${_e}")
    # An empty entry: the path is empty, starts or ends with ':' or holds '::'.
    set(_wrong FALSE)
    if(_path STREQUAL "" OR _path MATCHES "^:" OR _path MATCHES ":$" OR _path MATCHES "::")
      set(_wrong TRUE)
    else()
      string(REPLACE ":" ";" _parts "${_path}")
      foreach(_p IN LISTS _parts)
        if(NOT (_p MATCHES "^/" OR _p MATCHES "^\\$ORIGIN"))
          set(_wrong TRUE)
        endif()
      endforeach()
    endif()
    if(_wrong)
      list(APPEND _bad "${_f}: ${_e}")
    endif()
  endforeach()
endforeach()
if(_checked EQUAL 0)
  message(FATAL_ERROR "no binary to check (build first)")
endif()
if(_bad)
  list(JOIN _bad "\n  " _text)
  message(FATAL_ERROR "binaries whose RPATH/RUNPATH has an empty or relative entry (the loader "
                      "reads it as the current working directory):\n  ${_text}")
endif()
message(STATUS "${_checked} binaries: no empty or relative RPATH/RUNPATH entry")
