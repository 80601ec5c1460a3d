# SPDX-License-Identifier: Apache-2.0
# Runs one command and checks its exit code and its output (stdout and
# stderr together), for tests that need more than CTest's one regular
# expression. cmake -DCMD=<;-list> -DRC=<code> [-DMATCH=<;-list of regex>]
# [-DNOMATCH=<;-list of regex>] [-DENV=<;-list of NAME=value>] -P expect_output.cmake
# In a regular expression, <nl> stands for a line break.
foreach(_e IN LISTS ENV)
  string(FIND "${_e}" "=" _i)
  string(SUBSTRING "${_e}" 0 ${_i} _n)
  math(EXPR _i "${_i} + 1")
  string(SUBSTRING "${_e}" ${_i} -1 _v)
  set(ENV{${_n}} "${_v}")
endforeach()
execute_process(COMMAND ${CMD} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
message("${_out}")
set(_bad "")
if(NOT _rc STREQUAL RC)
  string(APPEND _bad "exit code ${_rc}, expected ${RC}\n")
endif()
foreach(_m IN LISTS MATCH)
  string(REPLACE "<nl>" "\n" _m "${_m}")
  if(NOT _out MATCHES "${_m}")
    string(APPEND _bad "output lacks /${_m}/\n")
  endif()
endforeach()
foreach(_m IN LISTS NOMATCH)
  string(REPLACE "<nl>" "\n" _m "${_m}")
  if(_out MATCHES "${_m}")
    string(APPEND _bad "output has /${_m}/\n")
  endif()
endforeach()
if(_bad)
  message(FATAL_ERROR "${_bad}")
endif()
