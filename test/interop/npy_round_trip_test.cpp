// .npy files written and read by tensorx: every element type at ranks 0 to 6, DArrays, C and
// Fortran order, strided views, empty arrays, the exact header NumPy writes, and the header forms
// of format versions 2.0 and 3.0 and of older writers (built byte by byte, not by tensorx).
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "interop/interop_cases.h"
#include "interop/npy_bytes.h"
#include "interop/scratch_dir.h"
#include "support/errors.h"
#include "tensorx/array/darray.h"
#include "tensorx/interop/npy.h"

namespace tx = tensorx;
using tx::testing::npy_bytes;
using tx::testing::raw_bytes;

namespace {

/// Column-major strides of `dims`: the layout of a Fortran-order file.
template <int N>
tx::Dim<N> column_major_strides(const tx::Dim<N>& dims) {
  tx::Dim<N> strides;
  tx::index_t stride = 1;
  for (int d = 0; d < N; ++d) {
    strides.at(d) = stride;
    stride *= dims.at(d);
  }
  return strides;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(npy_round_trip)

BOOST_AUTO_TEST_CASE(every_element_type_round_trips_at_ranks_0_to_6) {
  tx::testing::ScratchDir dir;
  auto rng = tx::testing::make_rng(13);
  tx::testing::for_each_numpy_element_type([&](auto tag) {
    using T = typename decltype(tag)::type;
    tx::testing::for_each_rank<0, 6>([&](auto rank) {
      constexpr int N = rank;
      BOOST_TEST_CONTEXT(tx::name(tx::data_type_of<T>()) << ", rank " << N) {
        const auto original =
            tx::testing::random_values<T>(tx::testing::random_dim<N>(rng, 1, 4), rng);
        const std::string path = dir.file("a.npy");
        tx::save_npy(path, original);

        const tx::NpyHeader header = tx::npy_header(path);
        BOOST_TEST(header.type == tx::data_type_of<T>());
        BOOST_TEST(header.shape.size() == static_cast<std::size_t>(N));
        BOOST_TEST(!header.fortran_order);

        const auto loaded = tx::load_npy<T, N>(path);
        BOOST_TEST(loaded.is_contiguous());
        BOOST_TEST(tx::is_cpu_place(loaded.place()));
        tx::testing::check_same_elements(loaded, original);
      }
    });
  });
}

BOOST_AUTO_TEST_CASE(darrays_round_trip_at_ranks_1_to_4) {
  tx::testing::ScratchDir dir;
  auto rng = tx::testing::make_rng(14);
  tx::testing::for_each_numpy_element_type([&](auto tag) {
    using T = typename decltype(tag)::type;
    tx::testing::for_each_rank<1, 4>([&](auto rank) {
      const auto original =
          tx::testing::random_values<T>(tx::testing::random_dim<rank>(rng, 1, 5), rng);
      tx::save_npy(dir.file("d.npy"), tx::DArray(original));
      const tx::DArray loaded = tx::load_npy(dir.file("d.npy"));
      BOOST_TEST(tx::dtype(loaded) == tx::data_type_of<T>());
      tx::testing::check_same_elements(loaded.as<T, rank>(), original);
    });
  });
}

BOOST_AUTO_TEST_CASE(column_major_arrays_are_saved_in_fortran_order_and_load_as_such) {
  tx::testing::ScratchDir dir;
  auto rng = tx::testing::make_rng(15);
  const tx::Dim<3> dims(2, 3, 4);
  const auto dense = tx::testing::random_values<double>(tx::make_dim(24), rng);
  const tx::Array<double, 3> fortran(dense.buffer(), dims, column_major_strides(dims), 0);
  const std::string path = dir.file("f.npy");
  tx::save_npy(path, fortran);

  BOOST_TEST(tx::npy_header(path).fortran_order);
  // The data is the buffer as it lies in memory: Fortran order needs no reordering.
  const std::string bytes = tx::testing::read_file(path);
  BOOST_TEST_REQUIRE(bytes.size() == 128u + 24 * sizeof(double));
  BOOST_TEST(bytes.compare(128, std::string::npos, static_cast<const char*>(dense.buffer()->data()),
                           24 * sizeof(double)) == 0);

  const auto loaded = tx::load_npy<double, 3>(path);
  BOOST_TEST(loaded.strides() == column_major_strides(dims));
  tx::testing::check_same_elements(loaded, fortran);
  // Saving what was loaded writes Fortran order again.
  tx::save_npy(dir.file("g.npy"), loaded);
  BOOST_TEST(tx::testing::read_file(dir.file("g.npy")) == bytes);
}

BOOST_AUTO_TEST_CASE(strided_views_are_saved_as_dense_c_order_copies) {
  tx::testing::ScratchDir dir;
  auto rng = tx::testing::make_rng(16);
  const auto base = tx::testing::random_values<std::int32_t>(tx::make_dim(5, 6), rng);
  const tx::Array<std::int32_t, 2> every_other_column(base.buffer(), tx::make_dim(4, 3),
                                                      tx::make_dim(6, 2), 7);
  const tx::Array<std::int32_t, 2> reversed_rows(base.buffer(), tx::make_dim(5, 6),
                                                 tx::make_dim(-6, 1), 24);
  const tx::Array<std::int32_t, 2> broadcast_row(base.buffer(), tx::make_dim(3, 6),
                                                 tx::make_dim(0, 1), 6);
  for (const auto& view : {every_other_column, reversed_rows, broadcast_row}) {
    BOOST_TEST_CONTEXT("strides " << view.strides() << ", offset " << view.offset()) {
      tx::save_npy(dir.file("v.npy"), view);
      BOOST_TEST(!tx::npy_header(dir.file("v.npy")).fortran_order);
      const auto loaded = tx::load_npy<std::int32_t, 2>(dir.file("v.npy"));
      BOOST_TEST(loaded.is_contiguous());
      tx::testing::check_same_elements(loaded, view);
    }
  }
}

BOOST_AUTO_TEST_CASE(empty_arrays_round_trip) {
  tx::testing::ScratchDir dir;
  const tx::Array<float, 3> empty(tx::make_dim(2, 0, 3));
  tx::save_npy(dir.file("e.npy"), empty);
  BOOST_TEST(tx::testing::read_file(dir.file("e.npy")).size() == 128u);
  const auto loaded = tx::load_npy<float, 3>(dir.file("e.npy"));
  BOOST_TEST(loaded.dims() == tx::make_dim(2, 0, 3));
  BOOST_TEST(loaded.numel() == 0);
}

BOOST_AUTO_TEST_CASE(the_header_is_the_one_numpy_writes) {
  tx::testing::ScratchDir dir;
  const auto header_of = [&](const auto& array) {
    tx::save_npy(dir.file("h.npy"), array);
    const std::string bytes = tx::testing::read_file(dir.file("h.npy"));
    BOOST_TEST(bytes.compare(0, 8, tx::testing::npy_magic() + '\x01' + '\0') == 0);
    const std::size_t length =
        static_cast<unsigned char>(bytes[8]) + 256u * static_cast<unsigned char>(bytes[9]);
    BOOST_TEST((10 + length) % 64 == 0u);
    BOOST_TEST(bytes[10 + length - 1] == '\n');
    const std::string text = bytes.substr(10, length);
    return text.substr(0, text.find_last_not_of(" \n") + 1);
  };
  BOOST_TEST(header_of(tx::zeros<float>(tx::make_dim(2, 3))) ==
             "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  BOOST_TEST(header_of(tx::zeros<tx::float16>(tx::make_dim(7))) ==
             "{'descr': '<f2', 'fortran_order': False, 'shape': (7,), }");
  BOOST_TEST(header_of(tx::Array<std::int64_t, 0>()) ==
             "{'descr': '<i8', 'fortran_order': False, 'shape': (), }");
}

BOOST_AUTO_TEST_CASE(format_versions_2_and_3_and_other_writers_headers_load) {
  tx::testing::ScratchDir dir;
  const std::string data = raw_bytes<float>({1.5f, -2.0f, 3.25f, 4.0f, 5.0f, -6.5f});
  const std::string c_order = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  struct Variant {
    const char* what;
    std::string bytes;
    bool fortran;
  };
  const Variant variants[] = {
      {"version 2.0", npy_bytes(c_order, data, 2), false},
      {"version 3.0", npy_bytes(c_order, data, 3), false},
      {"double quotes, keys in another order, no trailing comma, odd spacing",
       npy_bytes("{ \"shape\" :(2,3),\"fortran_order\":False ,\t\"descr\":\"<f4\"}", data), false},
      {"Python 2 long integers",
       npy_bytes("{'descr': '<f4', 'fortran_order': False, "
                 "'shape': (2L, 3L), }",
                 data),
       false},
      {"Fortran order",
       npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }", data), true},
  };
  for (const Variant& variant : variants) {
    BOOST_TEST_CONTEXT(variant.what) {
      tx::testing::write_file(dir.file("v.npy"), variant.bytes);
      const auto loaded = tx::load_npy<float, 2>(dir.file("v.npy"));
      // Element (i, j) of a Fortran-order (3, 2) file is element i + 3 j of its data.
      const tx::Array<float, 2> expected =
          variant.fortran
              ? tx::Array<float, 2>(loaded.buffer(), tx::make_dim(3, 2), tx::make_dim(1, 3), 0)
              : tx::Array<float, 2>(loaded.buffer(), tx::make_dim(2, 3), tx::make_dim(3, 1), 0);
      BOOST_TEST(std::string(static_cast<const char*>(loaded.buffer()->data()), data.size()) ==
                 data);
      tx::testing::check_same_elements(loaded, expected);
      BOOST_TEST((loaded(1, 0) == (variant.fortran ? -2.0f : 4.0f)));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_different_element_type_or_rank_is_a_type_error_before_reading_data) {
  tx::testing::ScratchDir dir;
  const std::string path = dir.file("t.npy");
  // The header promises 6 floats and the data is missing: a TypeError shows the check came first.
  tx::testing::write_file(path,
                          npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"));
  BOOST_CHECK_EXCEPTION((tx::load_npy<double, 2>(path)), tx::TypeError,
                        tx::testing::message_is("expected an Array<float64, 2> but '" + path +
                                                "' holds an Array<float32, 2>"));
  BOOST_CHECK_EXCEPTION((tx::load_npy<float, 3>(path)), tx::TypeError,
                        tx::testing::message_has({"Array<float32, 3>", "Array<float32, 2>", path}));
  BOOST_CHECK_THROW((tx::load_npy<float, 2>(path)), tx::NpyError);

  for (const char* shape : {"()", "(1, 2, 3, 4, 5)"}) {
    tx::testing::write_file(
        path, npy_bytes(std::string("{'descr': '<i8', 'fortran_order': False, 'shape': ") + shape +
                        ", }"));
    BOOST_CHECK_EXCEPTION(
        tx::load_npy(path), tx::TypeError,
        tx::testing::message_has({path, "a DArray holds ranks 1 to 4", "use tx::load_npy<T, N>"}));
  }
}

BOOST_AUTO_TEST_CASE(files_that_cannot_be_opened_are_npy_errors_naming_them) {
  tx::testing::ScratchDir dir;
  const std::string missing = dir.file("missing.npy");
  BOOST_CHECK_EXCEPTION(tx::load_npy(missing), tx::NpyError,
                        tx::testing::message_has({"'" + missing +
                                                  "': cannot open the file for "
                                                  "reading: No such file"}));
  BOOST_CHECK_EXCEPTION(tx::npy_header(missing), tx::NpyError,
                        tx::testing::message_has({missing, "cannot open"}));
  const std::string unwritable = dir.file("no/such/dir/a.npy");
  BOOST_CHECK_EXCEPTION(tx::save_npy(unwritable, tx::zeros<float>(tx::make_dim(2))), tx::NpyError,
                        tx::testing::message_has({"'" + unwritable +
                                                  "': cannot open the file "
                                                  "for writing"}));
}

BOOST_AUTO_TEST_SUITE_END()
