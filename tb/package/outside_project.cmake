# SPDX-License-Identifier: Apache-2.0
# Run by the test package/outside-project (cmake -P): install the build into
# a fresh prefix, check the RTL is there with its manifest, then configure,
# build and run tb/package/outside against that prefix only.
#   -DDSH_BUILD_DIR -DDSH_SOURCE_DIR -DDSH_OUTSIDE_SRC -DDSH_WORK_DIR
#   -DDSH_GENERATOR -DDSH_CXX -DDSH_BUILD_TYPE
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
    message(FATAL_ERROR "package/outside-project: ${what} failed (${rc}): ${ARGN}")
  endif()
endfunction()

# 1. Install.
run("cmake --install" ${CMAKE_COMMAND} --install ${DSH_BUILD_DIR} --prefix ${prefix})

# 2. The RTL: the manifest as in the source tree, and every source it lists
#    beside it, identical.
set(rtl ${prefix}/share/dsh_mmu/rtl)
if(NOT EXISTS ${rtl}/dsh_mmu.f)
  message(FATAL_ERROR "package/outside-project: no RTL manifest at ${rtl}/dsh_mmu.f")
endif()
run("manifest comparison" ${CMAKE_COMMAND} -E compare_files ${DSH_SOURCE_DIR}/rtl/dsh_mmu.f ${rtl}/dsh_mmu.f)
file(STRINGS ${rtl}/dsh_mmu.f srcs REGEX "^[^/].*\\.sv$")
list(LENGTH srcs n)
if(n EQUAL 0)
  message(FATAL_ERROR "package/outside-project: the installed manifest lists no sources")
endif()
foreach(s IN LISTS srcs)
  if(NOT EXISTS ${rtl}/${s})
    message(FATAL_ERROR "package/outside-project: ${s} is in the manifest but not installed in ${rtl}")
  endif()
  run("comparison of ${s}" ${CMAKE_COMMAND} -E compare_files ${DSH_SOURCE_DIR}/rtl/${s} ${rtl}/${s})
endforeach()
message("RTL: manifest and ${n} sources installed in ${rtl}")

# 3. The outside project, finding the package in the prefix only (no user
#    package registry), then checking it found that one.
run("configuring the outside project" ${CMAKE_COMMAND} -S ${DSH_OUTSIDE_SRC} -B ${build}
    -G ${DSH_GENERATOR} -DCMAKE_CXX_COMPILER=${DSH_CXX} -DCMAKE_BUILD_TYPE=${DSH_BUILD_TYPE}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS ${build}/CMakeCache.txt found REGEX "^dsh_mmu_DIR:")
string(REGEX REPLACE "^[^=]*=" "" found "${found}")
get_filename_component(found "${found}" REALPATH)
get_filename_component(real_prefix "${prefix}" REALPATH)
string(FIND "${found}" "${real_prefix}/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "package/outside-project: found dsh_mmu in '${found}', not in ${prefix}")
endif()
message("found dsh_mmu in ${found}")
run("building the outside project" ${CMAKE_COMMAND} --build ${build})

# 4. Run it: each program checks its own results and returns non-zero otherwise.
run("use_golden" ${build}/use_golden)
run("use_cosim" ${build}/use_cosim)
message("package/outside-project: passed")
