// Tensor Comprehensions' 2LUT, two embedding lookups each summed over its L indices:
//   O1(b,d) = sum_l LUT1(I1(b,l), d)      O2(b,d) = sum_l LUT2(I2(b,l), d)
// at (B, D, L) = (128, 64, 50) with E rows per table (10^7 in the paper; 10^6 by default here, or
// the first argument). Each is ONE reduction pass that reads the gathered rows where they lie:
// tx::take is an element-wise node, so the (B, L, D) rows are never materialised. Checked against
// plain loops; exits non-zero past the tolerance.
#include <cstdint>
#include <cstdlib>

#include "tc_support.h"

int main(int argc, char** argv) {
  using namespace tc_example;
  const index_t E = argc > 1 ? std::atoll(argv[1]) : 1000000;
  const index_t B = 128, D = 64, L = 50;
  bool ok = true;
  for (const tx::Place& place : places()) {
    const auto lut1 = random_array<float>(tx::make_dim(E, D), place, 8);
    const auto lut2 = random_array<float>(tx::make_dim(E, D), place, 9);
    tx::Array<std::int32_t, 2> host_ids1(tx::make_dim(B, L)), host_ids2(tx::make_dim(B, L));
    std::mt19937 rng(10);
    std::uniform_int_distribution<std::int32_t> row(0, static_cast<std::int32_t>(E - 1));
    for (index_t i = 0; i < B * L; ++i) {
      host_ids1.data()[i] = row(rng);
      host_ids2.data()[i] = row(rng);
    }
    const auto ids1 = tx::to(host_ids1, place);
    const auto ids2 = tx::to(host_ids2, place);
    tx::Array<float, 2> o1, o2;

    o1 = tx::sum<1>(tx::take(lut1, ids1));
    o2 = tx::sum<1>(tx::take(lut2, ids2));

    const auto h1 = tx::to(lut1, tx::CpuPlace());
    const auto h2 = tx::to(lut2, tx::CpuPlace());
    auto reference = [&](const tx::Array<float, 2>& lut, const tx::Array<std::int32_t, 2>& ids) {
      return [&lut, &ids, L](const tx::Dim<2>& i) {
        double sum = 0;
        for (index_t l = 0; l < L; ++l) sum += double(lut(ids(i[0], l), i[1]));
        return sum;
      };
    };
    ok &= check("2LUT table 1 on " + name(place), o1, reference(h1, host_ids1), 1e-5 * double(L));
    ok &= check("2LUT table 2 on " + name(place), o2, reference(h2, host_ids2), 1e-5 * double(L));
  }
  return ok ? 0 : 1;
}
