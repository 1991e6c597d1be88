// The DArray forms of interop's erased arrays: each visits the 20 typed arrays a DArray may hold,
// so they are compiled here once rather than in every translation unit that includes tensorx
// (src/array/darray.cpp does the same for DArray's own operations).
#include "tensorx/interop/erased_array.h"

namespace tensorx {
namespace detail {

template <class X, if_darray<X>>
ErasedArray erase(const X& array) {
  return visit([](auto& typed) { return erase(typed); }, array);
}
template ErasedArray erase(const DArray& array);

DArray darray_view(const ErasedArray& erased) {
  return type_switch(erased.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return darray_rank_switch(erased.rank,
                              [&](auto rank) { return DArray(typed_view<T, rank>(erased)); });
  });
}

}  // namespace detail
}  // namespace tensorx
