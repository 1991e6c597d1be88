# The CUDA architectures of the test and example programs (TENSORX_CUDA_PROGRAM_ARCHITECTURES).
#
# The library is always compiled for CMAKE_CUDA_ARCHITECTURES, machine code and PTX. The test and
# example programs are too where they can run: on a machine with a usable GPU, or when the
# architectures were named at configure time (-DCMAKE_CUDA_ARCHITECTURES=90, as scripts/gpu-pack
# asks of a build made for another machine). On a machine with no GPU (CI's) nothing would run
# their machine code, so they carry PTX alone: nvcc still compiles every kernel (front end and
# cicc, which is where code that does not compile fails), and ptxas, which turns PTX into machine
# code, is left out. That is a sixth to a quarter of each CUDA test program's compile time
# (nvcc --time on test_cuda_labels: ptxas 31.6 s of 112 s; test_cuda_ops 14.6 s of 91 s). Should
# such a build be run on a GPU after all, the driver compiles the PTX when it loads it: the same
# kernels, later (and, compiled for compile speed as below, slower ones).
#
# Where they carry PTX alone because no GPU was found, their device code is also compiled for
# compile speed, with nvcc's documented -Ofc=max (fast-compile, CUDA 12.8 and later): cicc still
# parses, instantiates and lowers every kernel to PTX, so code that does not compile still fails,
# but leaves out the expensive optimisations whose result nothing here runs. That is a quarter of
# a CUDA test program's compile time again (test_cuda_ops 85 -> 63 user s, test_cuda_labels
# 80 -> 56). Architectures given or named keep the device code users get.
#
# Sets TENSORX_CUDA_PROGRAM_ARCHITECTURES from tensorx_cuda_architectures_named and a query of the
# machine's GPUs at every configure, unless it was given (-DTENSORX_CUDA_PROGRAM_ARCHITECTURES=...),
# and records what it chose in the cache as TENSORX_CUDA_PROGRAM_ARCHITECTURES_CHOSEN (which
# scripts/gpu-pack reads). The folders of CUDA programs call tensorx_use_cuda_program_settings().

set(tensorx_program_fast_compile OFF)
if(DEFINED TENSORX_CUDA_PROGRAM_ARCHITECTURES)
  set(tensorx_program_architectures "${TENSORX_CUDA_PROGRAM_ARCHITECTURES}")
elseif(tensorx_cuda_architectures_named)
  set(tensorx_program_architectures "${CMAKE_CUDA_ARCHITECTURES}")
else()
  # nvcc's own device query (what CMake runs for CMAKE_CUDA_ARCHITECTURES=native): it exits
  # non-zero where no driver or no device answers.
  execute_process(COMMAND "${CUDAToolkit_BIN_DIR}/__nvcc_device_query"
                  RESULT_VARIABLE query_result OUTPUT_VARIABLE query_output ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(query_result EQUAL 0 AND query_output)
    set(tensorx_program_architectures "${CMAKE_CUDA_ARCHITECTURES}")
    message(STATUS "tensorx: a GPU is present (${query_output}): CUDA test programs get machine code")
  else()
    set(tensorx_program_architectures "")
    foreach(architecture IN LISTS CMAKE_CUDA_ARCHITECTURES)
      string(REGEX REPLACE "-(real|virtual)$" "" architecture "${architecture}")
      list(APPEND tensorx_program_architectures "${architecture}-virtual")
    endforeach()
    list(REMOVE_DUPLICATES tensorx_program_architectures)
    include(CheckCompilerFlag)
    check_compiler_flag(CUDA -Ofc=max TENSORX_NVCC_HAS_FAST_COMPILE)
    set(tensorx_program_fast_compile ${TENSORX_NVCC_HAS_FAST_COMPILE})
    set(tensorx_program_speed_note "")
    if(tensorx_program_fast_compile)
      set(tensorx_program_speed_note ", for compile speed (-Ofc=max)")
    endif()
    message(STATUS "tensorx: no GPU here: CUDA test and example programs are compiled to PTX "
                   "(${tensorx_program_architectures})${tensorx_program_speed_note}; name "
                   "CMAKE_CUDA_ARCHITECTURES for machine code")
  endif()
endif()
set(TENSORX_CUDA_PROGRAM_ARCHITECTURES_CHOSEN "${tensorx_program_architectures}" CACHE INTERNAL
    "CUDA architectures of the test and example programs")
set(TENSORX_CUDA_PROGRAM_FAST_COMPILE ${tensorx_program_fast_compile} CACHE INTERNAL
    "whether the CUDA test and example programs' device code is compiled with -Ofc=max")

# For the folders of CUDA test and example programs (a macro: it sets their directory's scope).
macro(tensorx_use_cuda_program_settings)
  set(CMAKE_CUDA_ARCHITECTURES ${TENSORX_CUDA_PROGRAM_ARCHITECTURES_CHOSEN})
  if(TENSORX_CUDA_PROGRAM_FAST_COMPILE)
    add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:-Ofc=max>)
  endif()
endmacro()

# For a folder of CUDA programs whose host code needs no optimisation (a macro: it sets the
# directory's scope): nvcc's -O sets the host compiler's level only, cicc and ptxas optimise the
# device code alike at every level, so the kernels stay as users compile them. The build type's -O
# level is taken out first: nvcc warns when it sees two.
macro(tensorx_cuda_host_code_at_O0)
  foreach(config RELEASE RELWITHDEBINFO MINSIZEREL)
    string(REGEX REPLACE "-O[0-9s]" "" CMAKE_CUDA_FLAGS_${config} "${CMAKE_CUDA_FLAGS_${config}}")
  endforeach()
  add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:-O0>)
endmacro()
