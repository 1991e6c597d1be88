# test_darray_lazy (test/CMakeLists.txt): builds the darray_lazy_unit object (typed_calls.cpp,
# whose compiler dumps every class it lays out into DUMPS), then fails if the unit laid out a
# tensorx::BasicDArray, that is, compiled DArray without using one.
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} --target darray_lazy_unit
                RESULT_VARIABLE built)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "darray_lazy_unit did not compile")
endif()
file(GLOB dumps ${DUMPS}/*.class)
if(NOT dumps)
  message(FATAL_ERROR "no class dump in ${DUMPS}: was darray_lazy_unit compiled with "
                      "-fdump-lang-class?")
endif()
foreach(dump IN LISTS dumps)
  file(STRINGS ${dump} instantiated REGEX "^Class tensorx::Basic(Labelled)?DArray")
  if(instantiated)
    message(FATAL_ERROR "typed_calls.cpp uses no DArray but compiled ${instantiated}: a function "
                        "that takes a DArray is not a template enabled for DArray alone, or a "
                        "template names DArray without a parameter (array/darray.h)")
  endif()
endforeach()
message(STATUS "no DArray compiled in ${dumps}")
