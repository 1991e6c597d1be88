# tensorx_strict(target): warnings as errors (and sanitizers when asked) for tensorx's own targets.
# Users' targets never get these flags: they live on our targets, not on tensorx::tensorx.
function(tensorx_strict target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)
  # UndefinedBehaviorSanitizer without its null and alignment checks: together they instrument
  # every pointer and reference use of the expression templates, a quarter of a sanitized test
  # unit's compile time (test/layout: 44 s to 33 s), while AddressSanitizer already stops any
  # access through a null or wild pointer, and x86 loads at any alignment.
  if(TENSORX_SANITIZE)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-sanitize=null,alignment -fno-sanitize-recover=all -fno-omit-frame-pointer>)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
