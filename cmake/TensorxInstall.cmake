# `cmake --install`: the headers, the compiled layer (`tensorx` and the `tensorx_core` it links,
# exported as tensorx::tensorx and tensorx::core) and a package configuration, so that an outside
# project needs only
#   find_package(tensorx CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE tensorx::tensorx)
# to get the include path, C++17 and every library the interface of tensorx links (Boost, and
# where this build uses them the CUDA runtime and cuBLAS, the threads library and the CPU BLAS).
# Build systems without CMake get the same through pkg-config (cmake/TensorxPkgConfig.cmake).
include(CMakePackageConfigHelpers)

# tensorx_interface_links(<target> <out>): what <target> hands its consumers to link, as
# INTERFACE_LINK_LIBRARIES lists it, less CMake's bookkeeping: PRIVATE links of a static library
# reach its consumers as $<LINK_ONLY:...>, and links added from another directory (src/blas/) come
# between ::@ markers.
function(tensorx_interface_links target out)
  get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
  set(entries "")
  foreach(link IN LISTS links)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" link "${link}")
    if(link AND NOT link MATCHES "^::@")
      list(APPEND entries "${link}")
    endif()
  endforeach()
  set(${out} "${entries}" PARENT_SCOPE)
endfunction()

# tensorx_imported_links(<target> <out>): the imported targets, paths and flags that <target> hands
# its consumers, through its own libraries (tensorx links tensorx_core) as well.
function(tensorx_imported_links target out)
  tensorx_interface_links(${target} links)
  set(entries "")
  foreach(link IN LISTS links)
    if(TARGET "${link}")
      get_property(imported TARGET "${link}" PROPERTY IMPORTED)
      if(NOT imported)
        tensorx_imported_links("${link}" linked)
        list(APPEND entries ${linked})
        continue()
      endif()
    endif()
    list(APPEND entries "${link}")
  endforeach()
  set(${out} "${entries}" PARENT_SCOPE)
endfunction()

# tensorx_package_dependencies(<out>): CMake code for the package configuration that finds, in a
# consumer, the package defining each imported target the interface of `tensorx` links. This is
# the one place where a new dependency of tensorx::tensorx is added: configuring fails when the
# interface links a namespaced target (Pkg::name) that is not mapped to its package here.
function(tensorx_package_dependencies out)
  tensorx_imported_links(tensorx links)
  set(packages "")
  foreach(link IN LISTS links)
    if(link MATCHES "^Boost::")
      list(APPEND packages Boost)
    elseif(link MATCHES "^CUDA::")
      list(APPEND packages CUDAToolkit)
    elseif(link MATCHES "^Threads::")
      list(APPEND packages Threads)
    elseif(link MATCHES "^BLAS::")
      list(APPEND packages BLAS)
    elseif(link MATCHES "::")
      message(FATAL_ERROR "tensorx links ${link}, whose package is unknown to the installed "
                          "configuration: map it in tensorx_package_dependencies "
                          "(${CMAKE_CURRENT_FUNCTION_LIST_FILE})")
    endif()
    # Anything else is a plain library path or flag, or a build-tree entry: no package to find.
  endforeach()
  list(REMOVE_DUPLICATES packages)

  set(code "")
  foreach(package IN LISTS packages)
    if(package STREQUAL "Boost")
      # At least the Boost that the compiled layer was built with: Place crosses into it.
      string(APPEND code "find_dependency(Boost ${Boost_VERSION_MAJOR}.${Boost_VERSION_MINOR})\n")
    elseif(package STREQUAL "BLAS" AND BLA_VENDOR)
      # The vendor this build linked, without overriding the consumer's own BLA_VENDOR.
      string(APPEND code "set(tensorx_consumer_bla_vendor \"\${BLA_VENDOR}\")\n"
                         "set(BLA_VENDOR ${BLA_VENDOR})\n"
                         "find_dependency(BLAS)\n"
                         "if(tensorx_consumer_bla_vendor)\n"
                         "  set(BLA_VENDOR \"\${tensorx_consumer_bla_vendor}\")\n"
                         "else()\n"
                         "  unset(BLA_VENDOR)\n"
                         "endif()\n"
                         "unset(tensorx_consumer_bla_vendor)\n")
    else()
      string(APPEND code "find_dependency(${package})\n")
    endif()
  endforeach()
  set(${out} "${code}" PARENT_SCOPE)
endfunction()

set(tensorx_config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/tensorx)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tensorx
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh")

install(TARGETS tensorx tensorx_core EXPORT tensorxTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(EXPORT tensorxTargets
  NAMESPACE tensorx::
  FILE tensorxTargets.cmake
  DESTINATION ${tensorx_config_dir})

# What tensorxConfig.cmake.in records about this build, normalised to ON/OFF so that
# `if(tensorx_WITH_CUDA)` reads the same in every consumer.
if(TENSORX_WITH_CUDA)
  set(tensorx_config_with_cuda ON)
  set(tensorx_config_cuda_architectures "${CMAKE_CUDA_ARCHITECTURES}")
else()
  set(tensorx_config_with_cuda OFF)
  set(tensorx_config_cuda_architectures "")
endif()
tensorx_package_dependencies(tensorx_config_dependencies)

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/tensorxConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tensorxConfig.cmake
  INSTALL_DESTINATION ${tensorx_config_dir}
  NO_SET_AND_CHECK_MACRO)

# 0.x releases keep SameMajorVersion too: a consumer asking for 0.1 accepts any 0.y >= 0.1.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/tensorxConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)

install(FILES
  ${PROJECT_BINARY_DIR}/tensorxConfig.cmake
  ${PROJECT_BINARY_DIR}/tensorxConfigVersion.cmake
  DESTINATION ${tensorx_config_dir})

include(${CMAKE_CURRENT_LIST_DIR}/TensorxPkgConfig.cmake)
