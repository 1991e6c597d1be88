// Where GPU work can start. A kernel can only be launched from a translation unit compiled as
// CUDA; each feature's CUDA entry point (cuda_engine.cuh, cuda_reduce.cuh, ...) is therefore
// included only there, and called through on_gpu, which in plain C++ throws the error that says
// to compile as CUDA instead. The call inside `launch` names the entry point unqualified with the
// translation-unit tag as its first argument, so that it is looked up (by argument-dependent
// lookup) only where it is instantiated: in CUDA translation units.
#pragma once

#include <type_traits>

#include "tensorx/core/error.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/place/place.h"

namespace tensorx {
namespace detail {

/// Throws Error when a plain C++ translation unit must evaluate into memory on a GPU.
template <class TU>
void check_can_run(TU, const Place& place) {
  if constexpr (std::is_same_v<TU, HostTranslationUnit>) {
    if (is_gpu_place(place)) {
      throw Error(message(
          "cannot evaluate an expression into an array on ", place,
          " from a translation unit compiled as plain C++: compile it as CUDA (a .cu file, or "
          "nvcc -x cu); copies, BLAS and reductions of plain arrays work from any translation "
          "unit"));
    }
  }
}

/// Calls launch(tu) for GPU work on `place`: in a CUDA translation unit; in plain C++, throws the
/// error of check_can_run instead.
template <class TU, class Launch>
void on_gpu(TU tu, const Place& place, Launch&& launch) {
  if constexpr (std::is_same_v<TU, CudaTranslationUnit>) {
    launch(tu);
  } else {
    check_can_run(tu, place);
  }
}

}  // namespace detail
}  // namespace tensorx
