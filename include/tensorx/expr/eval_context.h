// What the prepare phase needs to materialise a sub-expression: the place temporaries go to, and
// (as a type) the translation unit, so that materialising runs on the engine this unit can use.
#pragma once

#include "tensorx/core/translation_unit.h"
#include "tensorx/place/place.h"

namespace tensorx {
namespace detail {

/// Made for one prepare() call, so the place is the caller's, not a copy.
template <class TU>
struct EvalContext {
  const Place& place;
};

}  // namespace detail
}  // namespace tensorx
