// The labelled copy between two DArrays, z("i,j") = x("j,i"): LabelledDArray's copy assignment
// is not a template, so the compiled layer holds its one definition (labels/labelled_darray.h).
// With CUDA this file is compiled as CUDA (src/labels/CMakeLists.txt), so that the copy runs GPU
// arrays as kernels for every caller, plain C++ or CUDA.
#include "tensorx/labels/labelled_assign.h"
#include "tensorx/labels/labelled_darray.h"

namespace tensorx {

template <class Lazy>
const BasicLabelledDArray<Lazy>& BasicLabelledDArray<Lazy>::operator=(
    const BasicLabelledDArray& rhs) const {
  return assign<saver::write, detail::ThisTranslationUnit>(rhs);
}
template class BasicLabelledDArray<void>;

}  // namespace tensorx
