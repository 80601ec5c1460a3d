# SPDX-License-Identifier: Apache-2.0
# A planted fault replayed from a vector file in lockstep is caught: exit 1,
# and the report names the failing cycle, the trace time of stage W's write
# (cycle + 4 edges, 10 ns a cycle) and the window's FST and .gtkw, which
# exist, the save file opening that FST with its marker at that time. The
# --fst trace of the whole replay is not written: a failed run leaves no
# output that looks finished (docs/guide/tools.md), its window is its trace.
# cmake -DREPLAY=<dsh-replay> -DFAULT=<n> -DSTIM=<csv> -DDIR=<out dir> -P replay_fault.cmake
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
execute_process(COMMAND ${REPLAY} --fault ${FAULT} --fst ${DIR}/replay.fst -o ${DIR}/resp.csv ${STIM}
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
message("${_out}")
if(NOT _rc STREQUAL 1)
  message(FATAL_ERROR "exit code ${_rc}, expected 1 (a lockstep mismatch)")
endif()
if(NOT _out MATCHES "cycle ([0-9]+) \\(input\\), written by stage W at t=([0-9]+) ns in ([^ ]+\\.fst) \\(trace of cycles [0-9]+\\.\\.[0-9]+, t=[^;]*; view: gtkwave ([^ )]+\\.gtkw)\\)")
  message(FATAL_ERROR "no 'cycle C (input), written by stage W at t=T ns in F.fst (...; view: gtkwave G.gtkw)' in the report")
endif()
set(_cycle ${CMAKE_MATCH_1})
set(_t ${CMAKE_MATCH_2})
set(_fst ${CMAKE_MATCH_3})
set(_gtkw ${CMAKE_MATCH_4})
math(EXPR _want "(${_cycle} + 4) * 10")
if(NOT _t EQUAL _want)
  message(FATAL_ERROR "t=${_t} ns for cycle ${_cycle}: expected ${_want} ns")
endif()
foreach(_f ${_fst} ${_gtkw})
  if(NOT EXISTS ${_f})
    message(FATAL_ERROR "${_f} was not written")
  endif()
endforeach()
if(EXISTS ${DIR}/replay.fst)
  message(FATAL_ERROR "${DIR}/replay.fst was written by a failed run")
endif()
file(SIZE ${_fst} _size)
if(_size LESS 100)
  message(FATAL_ERROR "${_fst} has ${_size} bytes")
endif()
file(READ ${_gtkw} _save)
get_filename_component(_abs ${_fst} ABSOLUTE)
math(EXPR _ps "${_t} * 1000")
if(NOT _save MATCHES "\\[dumpfile\\] \"${_abs}\"" OR NOT _save MATCHES "\n\\*-10\\.000000 ${_ps} ")
  message(FATAL_ERROR "${_gtkw} does not open ${_abs} with its marker at ${_ps} ps")
endif()
message("fault ${FAULT}: caught at cycle ${_cycle}, t=${_t} ns: ${_fst}, ${_gtkw}")
