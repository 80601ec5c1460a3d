# SPDX-License-Identifier: Apache-2.0
# Run by the test package/installed-tool (cmake -P): an installed dsh-sim
# stands alone. Installs the build into a fresh prefix in a temporary
# directory outside the build and source trees, copies nothing else, and
# from a working directory there runs the installed tools:
#   1. one S1 point of the installed scenario file on a chip no binary has
#      built in (5 x 2 DSH, lockstep): its RTL model is built on demand from
#      the installed sources into an empty cache, the point's result file is
#      written, and the merge writes sweep.csv with the point's row, says
#      the RTL matched the golden model, and plots it with the installed
#      plot script;
#   2. the installed dsh-run on that chip: reuses the model, matched;
#   3. the installed share/dsh_mmu moved away: the same point fails, naming
#      where it looked (so the test can fail).
# The temporary directory is removed when the test passes.
#   -DDSH_BUILD_DIR -DDSH_SOURCE_DIR -DDSH_CAN_PLOT (python3 has matplotlib)
cmake_minimum_required(VERSION 3.16)

# The temporary directory: $TMPDIR or /tmp, unless it is inside the
# checkout or the build tree (a tool there would find the checkout).
get_filename_component(src_real "${DSH_SOURCE_DIR}" REALPATH)
get_filename_component(build_real "${DSH_BUILD_DIR}" REALPATH)
function(outside_trees dir out)
  get_filename_component(d "${dir}" REALPATH)
  set(ok TRUE)
  foreach(t IN ITEMS "${src_real}" "${build_real}")
    string(FIND "${d}/" "${t}/" at)
    if(at EQUAL 0)
      set(ok FALSE)
    endif()
  endforeach()
  set(${out} ${ok} PARENT_SCOPE)
endfunction()
set(tmp_root /tmp)
if(DEFINED ENV{TMPDIR} AND IS_DIRECTORY "$ENV{TMPDIR}")
  outside_trees("$ENV{TMPDIR}" ok)
  if(ok)
    set(tmp_root "$ENV{TMPDIR}")
  endif()
endif()
outside_trees("${tmp_root}" ok)
if(NOT ok)
  message(FATAL_ERROR "package/installed-tool: no temporary directory outside ${src_real} and ${build_real}")
endif()
string(RANDOM LENGTH 8 ALPHABET 0123456789abcdef r)
get_filename_component(top "${tmp_root}/dsh-installed-tool-${r}" ABSOLUTE)
set(prefix ${top}/prefix)
set(work ${top}/work)
set(cache ${top}/rtl_cache)
file(MAKE_DIRECTORY ${work})
get_filename_component(prefix_real "${top}" REALPATH)
set(prefix_real ${prefix_real}/prefix)

function(fail msg)
  message(FATAL_ERROR "package/installed-tool: ${msg} (files kept in ${top})")
endfunction()
# run(<what> <expected exit status> <command...>): output in `out`.
function(run what expect)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${work} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE o)
  list(JOIN ARGN " " cmd)
  message("$ ${cmd}\n${o}")
  if(NOT rc STREQUAL "${expect}")
    fail("${what}: exit status ${rc}, expected ${expect}")
  endif()
  set(out "${o}" PARENT_SCOPE)
endfunction()
function(expect_in what text regex)
  if(NOT text MATCHES "${regex}")
    fail("${what}: no '${regex}' in its output")
  endif()
endfunction()

# Nothing points the tools elsewhere; an empty cache of on-demand models.
unset(ENV{DSH_SHARE_DIR})
unset(ENV{DSH_RTL_DIR})
unset(ENV{DSH_RTL_CACHE_VERBOSE})
set(ENV{DSH_RTL_CACHE} ${cache})

# 0. Install.
run("cmake --install" 0 ${CMAKE_COMMAND} --install ${DSH_BUILD_DIR} --prefix ${prefix})
set(sim ${prefix}/bin/dsh-sim)
set(scenario ${prefix}/share/dsh_mmu/scenarios/pfc-avoidance.toml)
foreach(f ${sim} ${prefix}/bin/dsh-run ${prefix}/bin/dsh-replay ${scenario})
  if(NOT EXISTS ${f})
    fail("${f} is not installed")
  endif()
endforeach()

# 1. One S1 point on a 5 x 2 chip, its model built on demand, then merged.
set(chip --set chip.n_ports=5 --set chip.lanes=1 --set chip.deq_per_cycle=1 --set chip.n_queues=2 --set traffic.fanin_srcs=2
         --set sweep.schemes=dsh --set burst_pct=20 --set refine_steps=0 -b lockstep)
set(id "pfc-avoidance,scheme=dsh,burst_pct=20")
run("dsh-sim --list-points" 0 ${sim} ${scenario} ${chip} --list-points)
expect_in("dsh-sim --list-points" "${out}" "(^|\n)${id}\n")
set(both "${out}")
run("dsh-sim --point" 0 ${sim} ${scenario} ${chip} --point ${id} -o points)
expect_in("dsh-sim --point" "${out}" "wrote points/${id}.json")
string(APPEND both "${out}")
expect_in("dsh-sim --list-points and --point" "${both}" "dsh: built the RTL model for 5x2 DSH L2")
run("dsh-sim --merge" 0 ${sim} ${scenario} ${chip} --merge points -o out)
expect_in("dsh-sim --merge" "${out}" "lockstep: golden and RTL matched [1-9][0-9]* cycles")
if(out MATCHES "cannot find dsh_mmu's shared files|have no ")
  fail("dsh-sim --merge did not find a shared file")
endif()
# sweep.csv: the header and the point's row, read by column name.
file(STRINGS ${work}/out/sweep.csv rows)
list(LENGTH rows n)
if(NOT n EQUAL 2)
  fail("out/sweep.csv has ${n} lines, expected the header and one row")
endif()
list(GET rows 0 header)
list(GET rows 1 row)
string(REPLACE "," ";" header "${header}")
string(REPLACE "," ";" row "${row}")
foreach(pair scheme=dsh burst_pct=20.0000 drops=0 status=ok)
  string(REPLACE "=" ";" kv ${pair})
  list(GET kv 0 k)
  list(GET kv 1 want)
  list(FIND header ${k} i)
  if(i LESS 0)
    fail("out/sweep.csv has no column ${k}")
  endif()
  list(GET row ${i} got)
  if(NOT got STREQUAL want)
    fail("out/sweep.csv: ${k} = ${got}, expected ${want}")
  endif()
endforeach()
if(DSH_CAN_PLOT AND NOT EXISTS ${work}/out/sweep.png)
  fail("no out/sweep.png: the installed plot script did not run")
endif()
# The model was built from the installed sources, not the checkout's.
file(GLOB models LIST_DIRECTORIES true ${cache}/p5q2_dsh_l2_c20s8n32-*)
list(FILTER models EXCLUDE REGEX "\\.(lock|failed|tmp\\..*)$")
list(LENGTH models n)
if(NOT n EQUAL 1)
  fail("${n} models p5q2_dsh_l2 in ${cache}, expected 1")
endif()
file(STRINGS ${models}/build.log cmdline LIMIT_COUNT 1)
foreach(f rtl/dsh_mmu.sv golden/config.cpp cosim/dsh_mmu_public.vlt)
  string(FIND "${cmdline}" "'${prefix_real}/share/dsh_mmu/${f}'" at)
  if(at LESS 0)
    fail("the on-demand build did not read ${prefix_real}/share/dsh_mmu/${f} (${models}/build.log)")
  endif()
endforeach()
string(FIND "${cmdline}" "${src_real}/" at)
if(at GREATER_EQUAL 0)
  fail("the on-demand build read the checkout ${src_real} (${models}/build.log)")
endif()

# 2. The installed dsh-run on that chip: the same model, in lockstep.
set(ENV{DSH_RTL_CACHE_VERBOSE} 1)
run("dsh-run" 0 ${prefix}/bin/dsh-run -n 3000 --n_ports 5 --n_queues 2 --scheme DSH)
expect_in("dsh-run" "${out}" "reused from ${cache}/p5q2_dsh_l2_c20s8n32-")
expect_in("dsh-run" "${out}" "matched 3000 cycles")
unset(ENV{DSH_RTL_CACHE_VERBOSE})

# 3. Without the installed share/dsh_mmu the tool does not stand: the point
#    is refused (exit 2), naming where it looked.
file(RENAME ${prefix}/share/dsh_mmu ${prefix}/share/dsh_mmu.moved)
run("dsh-sim --point without share/dsh_mmu" 2 ${sim} ${chip} --point ${id} -o points --rerun)
expect_in("dsh-sim --point without share/dsh_mmu" "${out}"
          "cannot find dsh_mmu's shared files.*no share/dsh_mmu in any directory above ${prefix_real}/bin/dsh-sim")

file(REMOVE_RECURSE ${top})
message("package/installed-tool: passed")
