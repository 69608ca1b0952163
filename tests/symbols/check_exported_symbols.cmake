# ctest `exported_symbols`: fails when a binary we build exports, in its dynamic symbol table, a
# Qt symbol or a symbol of our own code: something another library could bind to.
#
# Why: Debian's libtorch_cpu.so loads OpenCV's highgui and with it Qt 5, so every TrainScope
# process holds Qt 5 and Qt 6 at once. A Qt 6 inline function compiled out of line in one of our
# binaries has the same mangled name as the exported Qt 5 function (QByteArray::append(const
# char*)); exported from our binary, it is what Qt 5's relocations bind to, and Qt 5 crashes at
# start-up. The top-level CMakeLists.txt hides such symbols (CMAKE_CXX_VISIBILITY_PRESET hidden,
# CMAKE_VISIBILITY_INLINES_HIDDEN ON); this check keeps it so. See docs/two-qt-versions.md.
#
# Usage: cmake -DNM=<nm> -DFILES=<file|file|...> -P check_exported_symbols.cmake
# Reads `nm -D --defined-only` of each file and sorts every exported symbol into:
# - error, Qt: the demangled name mentions a Qt class, namespace or function (QByteArray,
#   QtPrivate::, qt_metacall, qHash, QCustomPlot's QCP..., std::vector<QString>...), versioned
#   or not;
# - allowed: what the linker and C runtime export from any binary (_edata, _IO_stdin_used, ...),
#   the sanitizer runtime's hooks (__asan_*, ...), and definitions that carry another library's
#   version (std::cout@GLIBCXX_3.4, stdout@GLIBC_2.2.5: copy relocations of that library's data;
#   a version-checked reference from another library never binds to them);
# - allowed, third-party ODR: unversioned symbols of std::, __gnu_cxx::, at::, c10::, c10d::
#   (libtorch's distributed engine, whose ReduceOp typeinfo core/distributed instantiates), gloo::, torch::,
#   caffe2:: (template instantiations, typeinfo, vtables, singletons such as
#   c10::UndefinedTensorImpl::_singleton). libstdc++ and libtorch declare these with default
#   visibility on purpose, and libtorch refers to the same names: they must stay one object per
#   process (a hidden copy of _singleton or of typeinfo for c10::Error would break
#   Tensor::defined() and catching c10::Error), so they are not ours to hide;
# - error: anything else, our own code (trainscope::...) above all.
cmake_minimum_required(VERSION 3.22)

if(NOT NM OR NOT FILES)
  message(FATAL_ERROR "usage: cmake -DNM=<nm> -DFILES=<a|b|...> -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
string(REPLACE "|" ";" FILES "${FILES}")

# What the linker and the C runtime export from any executable or shared library.
set(_allowed
  _IO_stdin_used _edata _end __bss_start __data_start data_start _init _fini __dso_handle
  __libc_csu_init __libc_csu_fini _start __gmon_start__)
set(_allowed_prefix_regex "^(__asan_|__ubsan_|__lsan_|__sanitizer_|__tsan_)")
set(_third_party_regex "^(std|__gnu_cxx|__cxxabiv1|at|c10|c10d|torch|caffe2|gloo)::")
# Names (demangled) that mean Qt: Q-classes (QByteArray, QString, QCustomPlot's QCP...), the
# Qt namespaces (Qt::, QtPrivate::, QtMetaTypePrivate::, QtSharedPointer::, ...), qt_ functions
# (qt_metacall, qt_static_metacall, qt_plugin_instance) and q-functions (qHash, qRegisterMetaType,
# qobject_cast, qMetaTypeId).
set(_qt_regex "(^|[^A-Za-z0-9_])(Q[A-Z][A-Za-z0-9_]*|Qt[A-Za-z]*::|qt_[A-Za-z0-9_]+|q[A-Z][A-Za-z0-9_]*|qobject_cast)")

set(_failed 0)
set(_checked 0)
foreach(_file IN LISTS FILES)
  if(NOT EXISTS "${_file}")
    message(SEND_ERROR "missing (not built?): ${_file}")
    math(EXPR _failed "${_failed} + 1")
    continue()
  endif()
  execute_process(COMMAND "${NM}" -D --defined-only -p "${_file}"
    OUTPUT_VARIABLE _raw ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    if(_err MATCHES "no symbols")
      set(_raw "")
    else()
      message(SEND_ERROR "${NM} -D ${_file} failed (${_rc}): ${_err}")
      math(EXPR _failed "${_failed} + 1")
      continue()
    endif()
  endif()
  execute_process(COMMAND "${NM}" -D --defined-only -p -C "${_file}"
    OUTPUT_VARIABLE _demangled ERROR_QUIET)
  string(REPLACE "\n" ";" _lines "${_raw}")
  string(REPLACE "\n" ";" _dlines "${_demangled}")
  list(LENGTH _lines _n)
  list(LENGTH _dlines _dn)
  set(_bad "")
  set(_qt 0)
  if(_n GREATER 0)
    math(EXPR _last "${_n} - 1")
    foreach(_i RANGE ${_last})
      list(GET _lines ${_i} _line)
      if(_line STREQUAL "")
        continue()
      endif()
      # "<address> <type> <name>[@version]"
      string(REGEX REPLACE "^[0-9a-fA-F]* *[A-Za-z] +" "" _name "${_line}")
      string(REGEX REPLACE "@.*$" "" _name "${_name}")
      set(_pretty "${_name}")
      if(_i LESS _dn)
        list(GET _dlines ${_i} _dline)
        string(REGEX REPLACE "^[0-9a-fA-F]* *[A-Za-z] +" "" _pretty "${_dline}")
      endif()
      if(_name IN_LIST _allowed OR _name MATCHES "${_allowed_prefix_regex}")
        continue()
      endif()
      # libtorch has Q-names of its own (c10::QScheme, c10::QEngine): not Qt.
      string(REGEX REPLACE "(c10|at|torch)::Q[A-Za-z0-9_]*" "" _for_qt "${_pretty}")
      if(_for_qt MATCHES "${_qt_regex}")
        string(APPEND _bad "\n    Qt:  ${_pretty}")
        math(EXPR _qt "${_qt} + 1")
        continue()
      endif()
      if(_line MATCHES "@")
        continue()  # carries another library's version (copy relocation)
      endif()
      # The qualified name that owns the symbol: drop "typeinfo for " and the like, the
      # template arguments, the parameter list and a return type.
      string(REGEX REPLACE "^(typeinfo name for|typeinfo for|vtable for|VTT for|construction vtable for|guard variable for|reference temporary #[0-9]+ for|TLS init function for|TLS wrapper function for|non-virtual thunk to|virtual thunk to) " "" _owner "${_pretty}")
      set(_prev "")
      while(NOT _prev STREQUAL _owner)
        set(_prev "${_owner}")
        string(REGEX REPLACE "<[^<>]*>" "" _owner "${_owner}")
      endwhile()
      string(REGEX REPLACE "\\(.*$" "" _owner "${_owner}")
      string(REGEX REPLACE "^.* " "" _owner "${_owner}")
      if(_owner MATCHES "${_third_party_regex}" AND NOT _pretty MATCHES "trainscope")
        continue()
      endif()
      string(APPEND _bad "\n    ours: ${_pretty}")
    endforeach()
  endif()
  math(EXPR _checked "${_checked} + 1")
  if(_bad)
    math(EXPR _failed "${_failed} + 1")
    message("FAIL ${_file}: exports symbols another library could bind to (${_qt} Qt):${_bad}")
  else()
    message("ok   ${_file}")
  endif()
endforeach()

if(_failed GREATER 0)
  message(FATAL_ERROR "${_failed} of ${_checked} binaries export Qt symbols or our own. Every target "
    "must be built with hidden visibility (see the top-level CMakeLists.txt and "
    "docs/two-qt-versions.md); look for -rdynamic, ENABLE_EXPORTS or a visibility(\"default\") "
    "attribute on the target that fails.")
endif()
message("${_checked} binaries checked: none exports a Qt symbol or one of ours")
