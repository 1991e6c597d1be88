// Every error of a labelled assignment is an exception derived from tx::Error whose message names
// the labels and extents involved, thrown before anything is written: each case checks that the
// left side still holds what it held.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/errors.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::message_has;
using tx::testing::on_host;
using tx::testing::random_array;

namespace {

// Runs `assignment`, which must throw E with a message naming `parts`, and checks that `dst`
// kept its values.
template <class E, class T, int N, class F>
void check_throws_unchanged(const tx::Array<T, N>& dst, F&& assignment,
                            std::initializer_list<std::string> parts) {
  const auto before = on_host(dst);
  BOOST_CHECK_EXCEPTION(assignment(), E, message_has(parts));
  tx::testing::check_close(
      dst,
      tx::testing::reference(dst.dims(), [&](const tx::Dim<N>& i) { return double(before[i]); }),
      0.0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(labelled_errors)

BOOST_AUTO_TEST_CASE(extents_that_disagree_name_the_label_and_both_extents) {
  auto rng = tx::testing::make_rng(1601);
  const auto a = random_array<float>(tx::make_dim(3, 4), rng);
  const auto b = random_array<float>(tx::make_dim(5, 6), rng);
  const auto c = random_array<float>(tx::make_dim(3, 6), rng);
  check_throws_unchanged<tx::ShapeError>(c, [&] { c("i,j") = a("i,k") * b("k,j"); },
                                         {"label k", "extent 5", "\"k,j\"", "extent 4", "\"i,k\""});
  check_throws_unchanged<tx::ShapeError>(c, [&] { c("i,j") = a("i,j") + b("i,j"); },
                                         {"label i", "extent 5", "extent 3"});
  // The left side's extent is checked too.
  const auto d = random_array<float>(tx::make_dim(4, 6), rng);
  check_throws_unchanged<tx::ShapeError>(d, [&] { d("i,j") = a("i,k") * a("k,j"); },
                                         {"label k", "extent 3", "extent 4"});
  const auto e = random_array<float>(tx::make_dim(4, 3), rng);
  check_throws_unchanged<tx::ShapeError>(e, [&] { e("i,j") = a("i,j"); },
                                         {"label i", "extent 4 on the left", "extent 3"});
  // A repeated label needs equal extents on its axes.
  const auto v = random_array<float>(tx::make_dim(3), rng);
  check_throws_unchanged<tx::ShapeError>(v, [&] { v("i") = a("i,i"); },
                                         {"label i", "extent 4", "extent 3", "\"i,i\""});
}

BOOST_AUTO_TEST_CASE(label_counts_must_match_the_rank) {
  auto rng = tx::testing::make_rng(1602);
  const auto a = random_array<float>(tx::make_dim(3, 4), rng);
  BOOST_CHECK_EXCEPTION(a("i,j,k"), tx::LabelError, message_has({"\"i,j,k\"", "3 axes", "rank 2"}));
  BOOST_CHECK_EXCEPTION(a("i"), tx::LabelError, message_has({"\"i\"", "1 axes", "rank 2"}));
  const tx::DArray x = a;
  BOOST_CHECK_EXCEPTION(x("i"), tx::LabelError, message_has({"\"i\"", "rank 2"}));
}

BOOST_AUTO_TEST_CASE(left_labels_must_be_distinct_and_known) {
  auto rng = tx::testing::make_rng(1603);
  const auto a = random_array<float>(tx::make_dim(3, 3), rng);
  const auto c = random_array<float>(tx::make_dim(3, 3), rng);
  check_throws_unchanged<tx::LabelError>(c, [&] { c("i,i") = a("i,j"); },
                                         {"label i appears twice on the left", "\"i,i\""});
  check_throws_unchanged<tx::LabelError>(c, [&] { c("i,l") = a("i,j"); },
                                         {"label l on the left", "\"i,l\"", "no operand"});
}

BOOST_AUTO_TEST_CASE(a_term_without_a_summed_label_is_rejected) {
  auto rng = tx::testing::make_rng(1604);
  const auto a = random_array<double>(tx::make_dim(3, 4), rng);
  const auto b = random_array<double>(tx::make_dim(4, 5), rng);
  const auto d = random_array<double>(tx::make_dim(3, 5), rng);
  auto c = random_array<double>(tx::make_dim(3, 5), rng);
  check_throws_unchanged<tx::LabelError>(c, [&] { c("i,j") = a("i,k") * b("k,j") + d("i,j"); },
                                         {"label k is summed", "\"i,j\"", "4 times"});
  auto s = random_array<double>(tx::make_dim(3), rng);
  check_throws_unchanged<tx::LabelError>(s, [&] { s("i") = a("i,k") + 1.0; },
                                         {"label k", "a number", "4 times"});
}

BOOST_AUTO_TEST_CASE(element_types_of_darrays_must_agree) {
  auto rng = tx::testing::make_rng(1605);
  const tx::DArray x = random_array<float>(tx::make_dim(3, 4), rng);
  const tx::DArray y = random_array<double>(tx::make_dim(4, 5), rng);
  const auto c = random_array<float>(tx::make_dim(3, 5), rng);
  tx::DArray z = c;
  const auto before = on_host(c);
  BOOST_CHECK_EXCEPTION(z("i,j") = x("i,k") * y("k,j"), tx::TypeError,
                        message_has({"\"k,j\"", "float64", "float32"}));
  tx::testing::check_close(
      c, tx::testing::reference(c.dims(), [&](const tx::Dim<2>& i) { return double(before[i]); }),
      0.0);
  const tx::DArray w = random_array<double>(tx::make_dim(3, 5), rng);
  BOOST_CHECK_EXCEPTION(z("i,j") = w("i,j"), tx::TypeError,
                        message_has({"\"i,j\"", "float64", "float32"}));
}

#if defined(TENSORX_TEST_ON_GPU)
BOOST_AUTO_TEST_CASE(operands_on_another_place) {
  auto rng = tx::testing::make_rng(1607);
  const auto a = random_array<float>(tx::make_dim(3, 4), rng);  // on GPU 0
  tx::Array<float, 2> host_b(tx::make_dim(4, 5));
  tx::testing::fill_random(host_b, rng);
  const auto c = random_array<float>(tx::make_dim(3, 5), rng);
  check_throws_unchanged<tx::PlaceError>(c, [&] { c("i,j") = a("i,k") * host_b("k,j"); },
                                         {"\"k,j\"", "CpuPlace", "CudaPlace(0)"});
  tx::Array<float, 2> fresh;
  BOOST_CHECK_EXCEPTION(fresh("i,j") = a("i,k") * host_b("k,j"), tx::PlaceError,
                        message_has({"\"k,j\"", "CpuPlace"}));
  BOOST_TEST(!fresh.allocated());
}
#endif

BOOST_AUTO_TEST_CASE(unallocated_destinations) {
  auto rng = tx::testing::make_rng(1606);
  const auto a = random_array<float>(tx::make_dim(3, 4), rng);
  tx::Array<float, 2> c;
  BOOST_CHECK_EXCEPTION(c("i,j") += a("i,j"), tx::ShapeError,
                        message_has({"cannot accumulate", "\"i,j\"", "unallocated"}));
  const tx::Array<float, 2> fixed;
  BOOST_CHECK_EXCEPTION(fixed("i,j") = a("i,j"), tx::ShapeError,
                        message_has({"\"i,j\"", "unallocated", "const"}));
  BOOST_TEST(!c.allocated());
  c("j,i") = a("i,j");
  BOOST_TEST(c.dims() == tx::make_dim(4, 3));
}

BOOST_AUTO_TEST_CASE(malformed_label_strings) {
  BOOST_CHECK_EXCEPTION(tx::parse_labels("i,,j"), tx::LabelError,
                        message_has({"\"i,,j\"", "label 2 is empty"}));
  BOOST_CHECK_EXCEPTION(tx::parse_labels("i,"), tx::LabelError, message_has({"label 2 is empty"}));
  BOOST_CHECK_EXCEPTION(tx::parse_labels("i,j-k"), tx::LabelError,
                        message_has({"'-' is not a letter, digit or underscore"}));
  BOOST_CHECK_EXCEPTION(tx::parse_labels("a_label_longer_than_16"), tx::LabelError,
                        message_has({"longer than 16 characters"}));
  BOOST_CHECK_EXCEPTION(tx::parse_labels("a,b,c,d,e,f,g,h,i,j"), tx::LabelError,
                        message_has({"more than 9 axes"}));
  BOOST_CHECK_EXCEPTION(tx::parse_labels(nullptr), tx::LabelError, message_has({"null pointer"}));
}

BOOST_AUTO_TEST_CASE(labels_parse_with_spaces_and_long_names) {
  const tx::LabelList list = tx::parse_labels(" batch , row,col_2 ");
  BOOST_TEST(list.size == 3);
  BOOST_TEST(list.labels[0].name() == "batch");
  BOOST_TEST(list.labels[2].name() == "col_2");
  BOOST_TEST(tx::parse_labels("").size == 0);
  BOOST_TEST(tx::parse_labels("   ").size == 0);
  BOOST_TEST(tx::parse_labels("exactly_16_chars").labels[0].name() == "exactly_16_chars");
  std::ostringstream printed;
  printed << list;
  BOOST_TEST(printed.str() == "\"batch,row,col_2\"");
}

BOOST_AUTO_TEST_SUITE_END()
