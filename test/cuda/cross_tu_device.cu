// The nvcc half of test_cross_tu: defines Half<Nvcc> and checks what the g++ half hands over.
#include "cuda/cross_tu.h"

namespace cross_tu = tensorx::testing::cross_tu;

template struct cross_tu::Half<cross_tu::Nvcc>;

BOOST_AUTO_TEST_SUITE(compiled_by_nvcc)

BOOST_AUTO_TEST_CASE(both_compilers_agree_on_the_types) {
  cross_tu::check_facts<cross_tu::Nvcc, cross_tu::Gxx>();
}

BOOST_AUTO_TEST_CASE(places_cross_from_gxx_and_back) {
  cross_tu::check_places<cross_tu::Nvcc, cross_tu::Gxx>();
}

BOOST_AUTO_TEST_CASE(dims_cross_from_gxx_and_back) {
  cross_tu::check_dims<cross_tu::Nvcc, cross_tu::Gxx>();
}

BOOST_AUTO_TEST_CASE(darrays_cross_from_gxx_and_back) {
  cross_tu::check_darrays<cross_tu::Nvcc, cross_tu::Gxx>();
}

BOOST_AUTO_TEST_SUITE_END()
