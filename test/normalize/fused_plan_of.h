// The fused plan that an assignment `dst = e` runs (reduce/row_fusion.h), made on the host as the
// engines make it, for the tests that check what the GPU row kernel decides or reads without a
// GPU (row_staging_test.cpp, contiguous_row_test.cpp).
#pragma once

#include <tensorx/tensorx.h>

namespace tensorx {
namespace testing {

/// Calls f(plan, row_length) with the fused plan that `dst = e` runs, its reductions numbered;
/// row_length is the output's own row for the rows form, 0 for the per-row form.
template <class E, class T, int N, class F>
void with_plan_of(const E& e, const Array<T, N>& dst, F&& f) {
  constexpr detail::RowFusion kKind = detail::row_fusion_v<E>;
  static_assert(kKind != detail::RowFusion::kNone, "the expression fuses");
  constexpr detail::RowRole kRole = detail::top_role(kKind);
  const Place place = CpuPlace();
  const auto prepared =
      detail::prepare_fused<kRole>(e, detail::EvalContext<detail::HostTranslationUnit>{place});
  auto plan = detail::make_fused_plan<kRole>(prepared, dst.dims());
  detail::number_row_reductions(plan);
  f(plan, kKind == detail::RowFusion::kRows ? dst.dims().at(N - 1) : index_t{0});
}

}  // namespace testing
}  // namespace tensorx
