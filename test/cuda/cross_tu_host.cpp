// The g++ half of test_cross_tu: defines Half<Gxx> and checks what the nvcc half hands over.
#include "cuda/cross_tu.h"

namespace cross_tu = tensorx::testing::cross_tu;

template struct cross_tu::Half<cross_tu::Gxx>;

BOOST_AUTO_TEST_SUITE(compiled_by_gxx)

BOOST_AUTO_TEST_CASE(both_compilers_agree_on_the_types) {
  cross_tu::check_facts<cross_tu::Gxx, cross_tu::Nvcc>();
}

BOOST_AUTO_TEST_CASE(places_cross_from_nvcc_and_back) {
  cross_tu::check_places<cross_tu::Gxx, cross_tu::Nvcc>();
}

BOOST_AUTO_TEST_CASE(dims_cross_from_nvcc_and_back) {
  cross_tu::check_dims<cross_tu::Gxx, cross_tu::Nvcc>();
}

BOOST_AUTO_TEST_CASE(darrays_cross_from_nvcc_and_back) {
  cross_tu::check_darrays<cross_tu::Gxx, cross_tu::Nvcc>();
}

BOOST_AUTO_TEST_SUITE_END()
