# SPDX-License-Identifier: Apache-2.0
# Two requesters of one on-demand RTL model at once, as under ctest -j or
# dsh-sim's children: both succeed, and at most one builds while the other
# waits on the lock and then reuses the result (on a warm cache neither
# builds). cmake -DREPLAY=<dsh-replay> -DARGS=<;-list> -P ondemand_race.cmake
# execute_process with two COMMANDs runs them at the same time (a pipe).
execute_process(COMMAND ${REPLAY} ${ARGS} -o race_a.csv
                COMMAND ${REPLAY} ${ARGS} -o race_b.csv
                RESULTS_VARIABLE _rcs OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
message("${_out}")
string(REGEX MATCHALL "dsh: building the RTL model" _built "${_out}")
string(REGEX MATCHALL "dsh: waiting for another process building" _waited "${_out}")
list(LENGTH _built _nb)
list(LENGTH _waited _nw)
if(NOT _rcs STREQUAL "0;0")
  message(FATAL_ERROR "exit codes ${_rcs}, expected 0;0")
endif()
if(_nb GREATER 1 OR NOT _nb EQUAL _nw)
  message(FATAL_ERROR "${_nb} builds and ${_nw} waits: expected one of each (cold cache) or none (warm)")
endif()
file(READ race_a.csv _a)
file(READ race_b.csv _b)
if(NOT _a STREQUAL _b)
  message(FATAL_ERROR "the two requesters' responses differ")
endif()
message("${_nb} build(s), ${_nw} wait(s)")
