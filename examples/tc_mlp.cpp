// Tensor Comprehensions' production model MLP layers at batch 128: MLP1 (fcrelu, M = 2000 inputs,
// N = 128 outputs) and MLP3 (three fcrelu layers of 128 -> 64 -> 32 -> 2), each layer
//   O(b,o) = max(0, B(o) + sum_n I(b,n) W(o,n)).
// A layer is one line: the fully connected form relu(dot(x, transpose(w)) + bias), which is ONE
// cuBLASLt call with a bias and relu epilogue on the GPU and the BLAS call plus one fused pass on
// the CPU. The same layer as labels is o("b,o") = x("b,n") * w("o,n"); o = tx::relu(o + bias);
// which the check below uses as its second implementation. Checked against plain loops; exits
// non-zero past the tolerance.
#include "tc_support.h"

namespace {

using namespace tc_example;

// One layer written with labels: a GEMM into o, then one pass adding the bias and clamping.
tx::Array<float, 2> labelled_layer(const tx::Array<float, 2>& x, const tx::Array<float, 2>& w,
                                   const tx::Array<float, 1>& bias) {
  tx::Array<float, 2> o;
  o("b,o") = x("b,n") * w("o,n");
  o = tx::relu(o + bias);
  return o;
}

// The plain-loop layer in double.
tx::Array<double, 2> reference_layer(const tx::Array<double, 2>& x, const tx::Array<float, 2>& w,
                                     const tx::Array<float, 1>& bias) {
  const auto hw = tx::to(w, tx::CpuPlace());
  const auto hb = tx::to(bias, tx::CpuPlace());
  tx::Array<double, 2> o(tx::make_dim(x.dims()[0], w.dims()[0]));
  for (index_t b = 0; b < o.dims()[0]; ++b) {
    for (index_t j = 0; j < o.dims()[1]; ++j) {
      double sum = hb(j);
      for (index_t n = 0; n < x.dims()[1]; ++n) sum += x(b, n) * double(hw(j, n));
      o(b, j) = std::max(sum, 0.0);
    }
  }
  return o;
}

tx::Array<double, 2> as_double(const tx::Array<float, 2>& x) {
  tx::Array<double, 2> result;
  result = tx::cast<double>(tx::to(x, tx::CpuPlace()));
  return result;
}

}  // namespace

int main() {
  const index_t B = 128, M = 2000, N = 128, O = 64, P = 32, Q = 2;
  bool ok = true;
  for (const tx::Place& place : places()) {
    const auto x = random_array<float>(tx::make_dim(B, M), place, 11);
    const auto w1 = random_array<float>(tx::make_dim(N, M), place, 12);
    const auto b1 = random_array<float>(tx::make_dim(N), place, 13);
    const auto w2 = random_array<float>(tx::make_dim(O, N), place, 14);
    const auto b2 = random_array<float>(tx::make_dim(O), place, 15);
    const auto w3 = random_array<float>(tx::make_dim(P, O), place, 16);
    const auto b3 = random_array<float>(tx::make_dim(P), place, 17);
    const auto w4 = random_array<float>(tx::make_dim(Q, P), place, 18);
    const auto b4 = random_array<float>(tx::make_dim(Q), place, 19);
    tx::Array<float, 2> o1, o2, o3, o4;

    o1 = tx::relu(tx::dot(x, tx::transpose(w1)) + b1);   // MLP1
    o2 = tx::relu(tx::dot(o1, tx::transpose(w2)) + b2);  // MLP3
    o3 = tx::relu(tx::dot(o2, tx::transpose(w3)) + b3);
    o4 = tx::relu(tx::dot(o3, tx::transpose(w4)) + b4);

    const auto r1 = reference_layer(as_double(x), w1, b1);
    const auto r4 =
        reference_layer(reference_layer(reference_layer(as_double(o1), w2, b2), w3, b3), w4, b4);
    auto matches = [](const tx::Array<double, 2>& r) {
      return [&r](const tx::Dim<2>& i) { return r[i]; };
    };
    ok &= check("MLP1 128x2000 -> 128 on " + name(place), o1, matches(r1), 1e-5 * double(M));
    ok &= check("MLP3 128 -> 64 -> 32 -> 2 on " + name(place), o4, matches(r4), 1e-5 * double(N));
    const auto labelled = labelled_layer(x, w1, b1);
    ok &= check("MLP1 as a labelled layer on " + name(place), labelled, matches(r1),
                1e-5 * double(M));
  }
  return ok ? 0 : 1;
}
