# SPDX-License-Identifier: Apache-2.0
# An S1 point's recorded MMU stimulus (dsh-sim --trace) replays what the
# switch's MMU saw: on the one-lane chip (format 2), through the lockstep,
# every cycle matches, the replay's peak S equals the switch's, and the
# trace window holds just the cycles asked for; on the scenario's lane chip
# (format 3), through the lockstep, every cycle matches. cmake -DSIM=<dsh-sim> -DREPLAY=<dsh-replay> -DSCENARIO=<pfc-avoidance.toml>
# -P s1_stimulus.cmake
set(_d ${CMAKE_CURRENT_BINARY_DIR}/s1_stimulus)
file(REMOVE_RECURSE ${_d})

function(run out)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _o ERROR_VARIABLE _o)
  message("$ ${ARGN}\n${_o}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "exit ${_rc}")
  endif()
  set(${out} "${_o}" PARENT_SCOPE)
endfunction()

run(_o ${SIM} ${SCENARIO} --trace dsh:30 -o ${_d}/lanes -b golden --no-plot)
if(NOT _o MATCHES "MMU stimulus: ([^ ]*[.]stim[.]csv)")
  message(FATAL_ERROR "dsh-sim does not name the lane chip's stimulus file")
endif()
run(_o ${REPLAY} ${CMAKE_MATCH_1} -b lockstep -o ${_d}/lanes/resp.csv)
if(NOT _o MATCHES "through lockstep: matched [1-9][0-9]* cycles")
  message(FATAL_ERROR "the lockstep replay of the lane chip's stimulus did not match")
endif()

run(_o ${SIM} ${SCENARIO} --trace dsh:30 -o ${_d} -b golden --set chip.lanes=1 --set chip.deq_per_cycle=1
    --set chip.mmu_clock_ghz=0.2 --no-plot)
if(NOT _o MATCHES "peak S ([0-9]+)")
  message(FATAL_ERROR "dsh-sim printed no peak S")
endif()
set(_peak ${CMAKE_MATCH_1})
if(NOT _o MATCHES "MMU stimulus: ([^ ]*[.]stim[.]csv)")
  message(FATAL_ERROR "dsh-sim does not name the stimulus file")
endif()
set(_stim ${CMAKE_MATCH_1})
run(_o ${REPLAY} ${_stim} -b lockstep -o ${_d}/resp.csv --fst ${_d}/w.fst --trace-from 40000 --trace-cycles 100)
if(NOT _o MATCHES "matched [1-9][0-9]* cycles")
  message(FATAL_ERROR "the lockstep replay did not match")
endif()
file(STRINGS ${_d}/resp.csv _rows REGEX "^[0-9]")
set(_max 0)
foreach(_r IN LISTS _rows)
  string(REPLACE "," ";" _f "${_r}")
  list(GET _f 3 _s)
  if(_s GREATER _max)
    set(_max ${_s})
  endif()
endforeach()
if(NOT _max EQUAL _peak)
  message(FATAL_ERROR "the replay's peak S is ${_max}, the switch's ${_peak}")
endif()
# The window: every time in the FST lies in cycles 40000..40099 (idle
# stretches of a quiet MMU are skipped, not clocked, so the ends may be
# inside it), and the trace is not empty.
find_program(_fst2vcd fst2vcd)
if(_fst2vcd)
  execute_process(COMMAND ${_fst2vcd} ${_d}/w.fst OUTPUT_VARIABLE _vcd)
  string(REGEX MATCHALL "\n#[0-9]+" _times "${_vcd}")
  list(LENGTH _times _n)
  list(GET _times 0 _first)
  list(GET _times -1 _last)
  string(REGEX REPLACE "[^0-9]" "" _first "${_first}")
  string(REGEX REPLACE "[^0-9]" "" _last "${_last}")
  message("trace: ${_n} times, ${_first} .. ${_last} ps")
  if(_n LESS 20 OR _first LESS 400000000 OR _last GREATER 400995000)
    message(FATAL_ERROR "the trace spans ${_first}..${_last} ps in ${_n} times, not cycles 40000..40099")
  endif()
endif()
