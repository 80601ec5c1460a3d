# SPDX-License-Identifier: Apache-2.0
# Run by the test package/systemc-example (cmake -P): the example of
# docs/guide/systemc-library.md (docs/guide/examples/systemc_host), a SystemC program
# with its own sc_main and its own host module on the switch's TLM-2.0
# sockets, built against a fresh `cmake --install` prefix and run. The
# example checks its own results (PAUSE and RESUME reached its host, nothing
# dropped) and exits non-zero otherwise; its last line says "passed".
#   -DDSH_BUILD_DIR -DDSH_EXAMPLE_SRC -DDSH_WORK_DIR -DDSH_GENERATOR -DDSH_CXX -DDSH_BUILD_TYPE
cmake_minimum_required(VERSION 3.16)

set(prefix ${DSH_WORK_DIR}/prefix)
set(build ${DSH_WORK_DIR}/build)
file(REMOVE_RECURSE ${DSH_WORK_DIR})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT out STREQUAL "")
    message("${out}")
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package/systemc-example: ${what} failed (${rc}): ${ARGN}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run("cmake --install" ${CMAKE_COMMAND} --install ${DSH_BUILD_DIR} --prefix ${prefix})
foreach(h fabric.h topology.h tlm_netlist.h)
  if(NOT EXISTS ${prefix}/include/dsh_mmu/${h})
    message(FATAL_ERROR "package/systemc-example: ${h} is not installed in ${prefix}/include/dsh_mmu")
  endif()
endforeach()
# The package in the prefix only (no user package registry).
run("configuring the example" ${CMAKE_COMMAND} -S ${DSH_EXAMPLE_SRC} -B ${build}
    -G ${DSH_GENERATOR} -DCMAKE_CXX_COMPILER=${DSH_CXX} -DCMAKE_BUILD_TYPE=${DSH_BUILD_TYPE}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS ${build}/CMakeCache.txt found REGEX "^dsh_mmu_DIR:")
string(REGEX REPLACE "^[^=]*=" "" found "${found}")
get_filename_component(found "${found}" REALPATH)
get_filename_component(real_prefix "${prefix}" REALPATH)
string(FIND "${found}" "${real_prefix}/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "package/systemc-example: found dsh_mmu in '${found}', not in ${prefix}")
endif()
run("building the example" ${CMAKE_COMMAND} --build ${build})
set(ENV{SYSTEMC_DISABLE_COPYRIGHT_MESSAGE} 1)
run("my_host" ${build}/my_host)
if(NOT out MATCHES "my_host: passed")
  message(FATAL_ERROR "package/systemc-example: my_host did not say 'passed'")
endif()
message("package/systemc-example: passed")
