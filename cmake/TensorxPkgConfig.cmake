# tensorx.pc, installed into <libdir>/pkgconfig, for build systems without CMake (Make, Meson,
# Bazel): `pkg-config --cflags --libs tensorx` gives what tensorx::tensorx gives a CMake consumer
# of this build (the include paths, TENSORX_WITH_CUDA=1 and the CUDA runtime, cuBLAS and cuBLASLt
# where it has CUDA, the CPU BLAS it found), read off the link interface of `tensorx` and of the
# imported targets it links, so that the file cannot drift from the targets.
#
# libtensorx is a static library (BUILD_SHARED_LIBS is off by default): the libraries it calls must
# be on the application's own link line. So every dependency goes in Libs, where a plain
# `pkg-config --libs tensorx` gives it, and none in Libs.private, which pkg-config prints only with
# --static: `-ltensorx` without them leaves cudaFreeAsync undefined. A shared libtensorx gets the
# same Libs, as a CMake consumer gets the same links (tensorx links them PUBLIC).
#
# Cflags and Libs hold only flags that both g++ and nvcc take (-I, -isystem, -D, -L, -l, paths of
# libraries). The nvcc options of the interface (--extended-lambda) and the architectures of the
# library's device code are the variable cuda_flags, for CUDA sources; with_cuda is yes or no.
# C++17, which the headers need, is left to the user's flags (-std=c++17 is what CMake's
# cxx_std_17 asks where the compiler's default is older).

# Configuring fails on a generator expression that tensorx_pc_usage has no flag for, rather than
# copy it into the file.
function(tensorx_pc_require_plain value entry)
  if(value MATCHES "\\$<")
    message(FATAL_ERROR "tensorx.pc: ${entry} hands its consumers ${value}, a generator "
                        "expression with no pkg-config flag: teach "
                        "${CMAKE_CURRENT_FUNCTION_LIST_FILE} its flags")
  endif()
endfunction()

# tensorx_pc_usage(<entry> <out>): the flags one entry of a link interface brings, in
# <out>_cflags, <out>_cuda_flags, <out>_link_dirs and <out>_libs. A target brings its own library,
# then its usage requirements, then what it links in turn (so each library comes before those it
# needs, as a static link wants); a path or a flag brings itself; a bare name is a system library.
# Configuring fails on what this cannot turn into a flag rather than leave it out of the file.
function(tensorx_pc_usage entry out)
  set(cflags "")
  set(cuda_flags "")
  set(link_dirs "")
  set(libs "")
  if(TARGET "${entry}")
    get_property(type TARGET "${entry}" PROPERTY TYPE)
    get_property(imported TARGET "${entry}" PROPERTY IMPORTED)
    if(NOT imported)
      # One of ours, installed into libdir.
      list(APPEND link_dirs "\${libdir}")
      list(APPEND libs "-l$<TARGET_FILE_BASE_NAME:${entry}>")
    elseif(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_property(location TARGET "${entry}" PROPERTY IMPORTED_LOCATION)
      if(NOT location)
        message(FATAL_ERROR "tensorx.pc: ${entry} has no IMPORTED_LOCATION; teach "
                            "${CMAKE_CURRENT_FUNCTION_LIST_FILE} where its library is")
      endif()
      tensorx_pc_usage("${location}" file)
      list(APPEND link_dirs ${file_link_dirs})
      list(APPEND libs ${file_libs})
    endif()

    get_property(includes TARGET "${entry}" PROPERTY INTERFACE_INCLUDE_DIRECTORIES)
    foreach(include IN LISTS includes)
      if(include MATCHES "^\\$<BUILD_INTERFACE:")
        continue()  # the source tree, which an installed tensorx does not have
      endif()
      string(REGEX REPLACE "^\\$<INSTALL_INTERFACE:(.*)>$" "\\1" include "${include}")
      tensorx_pc_require_plain("${include}" ${entry})
      if(NOT IS_ABSOLUTE "${include}")
        list(APPEND cflags "-I\${prefix}/${include}")
      elseif(include IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
        continue()  # searched anyway
      elseif(imported)
        list(APPEND cflags "-isystem ${include}")  # as CMake includes an imported target's
      else()
        list(APPEND cflags "-I${include}")
      endif()
    endforeach()

    get_property(definitions TARGET "${entry}" PROPERTY INTERFACE_COMPILE_DEFINITIONS)
    foreach(definition IN LISTS definitions)
      tensorx_pc_require_plain("${definition}" ${entry})
      list(APPEND cflags "-D${definition}")
    endforeach()

    get_property(options TARGET "${entry}" PROPERTY INTERFACE_COMPILE_OPTIONS)
    foreach(option IN LISTS options)
      if(option MATCHES "^\\$<\\$<COMPILE_LANGUAGE:CUDA>:(.*)>$")
        list(APPEND cuda_flags "${CMAKE_MATCH_1}")
      else()
        tensorx_pc_require_plain("${option}" ${entry})
        list(APPEND cflags "${option}")
      endif()
    endforeach()

    get_property(directories TARGET "${entry}" PROPERTY INTERFACE_LINK_DIRECTORIES)
    foreach(directory IN LISTS directories)
      tensorx_pc_require_plain("${directory}" ${entry})
      list(APPEND link_dirs "${directory}")
    endforeach()
    get_property(link_options TARGET "${entry}" PROPERTY INTERFACE_LINK_OPTIONS)
    foreach(link_option IN LISTS link_options)
      tensorx_pc_require_plain("${link_option}" ${entry})
      list(APPEND libs "${link_option}")
    endforeach()

    tensorx_interface_links("${entry}" links)
    foreach(link IN LISTS links)
      tensorx_pc_usage("${link}" linked)
      list(APPEND cflags ${linked_cflags})
      list(APPEND cuda_flags ${linked_cuda_flags})
      list(APPEND link_dirs ${linked_link_dirs})
      list(APPEND libs ${linked_libs})
    endforeach()
  elseif(IS_ABSOLUTE "${entry}")
    # A shared library by its directory and name, as a Makefile would write it; a static archive
    # by its path, so that a shared library of the same name beside it cannot take its place.
    get_filename_component(directory "${entry}" DIRECTORY)
    get_filename_component(file "${entry}" NAME)
    if(file MATCHES "^lib(.+)\\.so(\\.[0-9.]+)?$")
      list(APPEND libs "-l${CMAKE_MATCH_1}")
      if(NOT directory IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
        list(APPEND link_dirs "${directory}")
      endif()
    else()
      list(APPEND libs "${entry}")
    endif()
  elseif(entry MATCHES "::")
    message(FATAL_ERROR "tensorx.pc: the interface of tensorx links ${entry}, which is not a "
                        "target where ${CMAKE_CURRENT_FUNCTION_LIST_FILE} runs (find its package "
                        "GLOBAL, as src/blas/ finds BLAS)")
  else()
    tensorx_pc_require_plain("${entry}" tensorx)
    if(entry MATCHES "^-")
      list(APPEND libs "${entry}")
    else()
      list(APPEND libs "-l${entry}")
    endif()
  endif()
  foreach(kind cflags cuda_flags link_dirs libs)
    set(${out}_${kind} "${${kind}}" PARENT_SCOPE)
  endforeach()
endfunction()

tensorx_pc_usage(tensorx tensorx_pc)
list(REMOVE_DUPLICATES tensorx_pc_cflags)
list(REMOVE_DUPLICATES tensorx_pc_cuda_flags)
list(REMOVE_DUPLICATES tensorx_pc_link_dirs)
# A library needed twice stays at its last place, after everything that needs it.
list(REVERSE tensorx_pc_libs)
list(REMOVE_DUPLICATES tensorx_pc_libs)
list(REVERSE tensorx_pc_libs)

# The device code of the library exists for CMAKE_CUDA_ARCHITECTURES only: CUDA sources are
# compiled for the same, in nvcc's words (90 is machine code and PTX, 90-real and 90-virtual one
# of them; native, all and all-major are nvcc's -arch values too).
set(tensorx_pc_with_cuda no)
if(TENSORX_WITH_CUDA)
  set(tensorx_pc_with_cuda yes)
  foreach(architecture IN LISTS CMAKE_CUDA_ARCHITECTURES)
    if(architecture MATCHES "^([0-9]+[a-z]?)(-real|-virtual)?$")
      set(number ${CMAKE_MATCH_1})
      if(NOT CMAKE_MATCH_2 STREQUAL "-virtual")
        list(APPEND tensorx_pc_cuda_flags "-gencode=arch=compute_${number},code=sm_${number}")
      endif()
      if(NOT CMAKE_MATCH_2 STREQUAL "-real")
        list(APPEND tensorx_pc_cuda_flags "-gencode=arch=compute_${number},code=compute_${number}")
      endif()
    else()
      list(APPEND tensorx_pc_cuda_flags "-arch=${architecture}")
    endif()
  endforeach()
endif()

# The file finds its prefix from where it lies, as tensorxConfig.cmake does, so that an install
# with --prefix (test/install/run.sh's) or a moved one points at itself.
set(tensorx_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(tensorx_pc_prefix "${CMAKE_INSTALL_PREFIX}")
  set(tensorx_pc_libdir "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH tensorx_pc_up "/${tensorx_pc_dir}" "/")
  string(REGEX REPLACE "/$" "" tensorx_pc_up "${tensorx_pc_up}")
  set(tensorx_pc_prefix "\${pcfiledir}/${tensorx_pc_up}")
  set(tensorx_pc_libdir "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()

list(JOIN tensorx_pc_cflags " " tensorx_pc_cflags)
list(JOIN tensorx_pc_cuda_flags " " tensorx_pc_cuda_flags)
list(TRANSFORM tensorx_pc_link_dirs PREPEND "-L")
list(JOIN tensorx_pc_link_dirs " " tensorx_pc_link_dirs)
list(JOIN tensorx_pc_libs " " tensorx_pc_libs)
configure_file(${CMAKE_CURRENT_LIST_DIR}/tensorx.pc.in ${PROJECT_BINARY_DIR}/tensorx.pc.in @ONLY)
# The library's name ($<TARGET_FILE_BASE_NAME:tensorx>) is known when the build is generated.
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/tensorx.pc INPUT ${PROJECT_BINARY_DIR}/tensorx.pc.in)
install(FILES ${PROJECT_BINARY_DIR}/tensorx.pc DESTINATION ${tensorx_pc_dir})
