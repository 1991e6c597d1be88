// A unit that uses typed arrays through every name that a DArray function shares (reductions,
// global operations, BLAS, interop, printing, labelled expressions, einsum) and never a DArray:
// test_darray_lazy checks that g++ lays out no tensorx::BasicDArray here (array/darray.h says
// why DArray must be compiled only where it is used). The unit is compiled, never run.
#include <iostream>
#include <string>

#include <tensorx/tensorx.h>

namespace tx = tensorx;

void typed_calls(tx::Array<float, 1>& a, tx::Array<float, 2>& m, tx::Array<float, 3>& batch,
                 tx::Array<float, 0>& total, tx::Array<std::int64_t, 1>& positions) {
  total = tx::sum(a);
  total = tx::mean(a) + tx::max(a) - tx::min(a) * tx::prod(a);
  a = tx::sum<1>(m);
  positions = tx::argmax<1>(m) + tx::argmin<1>(m);
  a = tx::reshape(m, tx::make_dim(m.numel()));
  tx::copy(a, tx::to(a, tx::CpuPlace()));
  tx::fill(a, 1.0f);
  tx::gemm(tx::Trans::kNo, tx::Trans::kNo, 1.0f, m, m, 0.0f, m);
  tx::batch_gemm(tx::Trans::kNo, tx::Trans::kNo, 1.0f, batch, batch, 0.0f, batch);
  m("i,j") = m("i,k") * m("k,j");
  m = tx::einsum("ik,kj->ij", m, m);
  tx::save_npy("a.npy", a);
  a = tx::load_npy<float, 1>("a.npy");
  DLManagedTensorVersioned* exported = tx::to_dlpack(a);
  a = tx::from_dlpack<float, 1>(exported);
  std::cout << m.dims() << a.place() << a.numel() << std::string("\n");
}
