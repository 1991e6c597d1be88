// What the prepare phase needs to materialise a sub-expression: the place temporaries go to, and
// (as a type) the translation unit, so that materialising runs on the engine this unit can use.
#pragma once

#include "tensorx/core/translation_unit.h"
#include "tensorx/place/place.h"

namespace tensorx {
namespace detail {

template <class TU>
struct EvalContext {
  Place place;
};

}  // namespace detail
}  // namespace tensorx
