// The tensorx side of npy_numpy_test.py, a command-line program around tx::load_npy and
// tx::save_npy (typed, so that every rank from 0 to 6 works):
//   npy_tool dump FILE                         the header as tensorx reads it, then every element
//                                              in row-major order, one per line
//   npy_tool write DTYPE ORDER FILE EXTENT...  saves element i (row-major) = test_value(i), in C
//                                              or F (column-major) order
//   npy_tool copy IN OUT                       loads IN and saves what it got as OUT
// Errors go to stderr with exit status 1.
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <tensorx/array/array_view.h>
#include <tensorx/core/data_type.h>
#include <tensorx/interop/npy.h>

namespace tx = tensorx;

namespace {

constexpr int kMaxToolRank = 6;

/// Calls f(std::integral_constant<int, N>{}) for the run-time rank N in 0..kMaxToolRank.
template <class F, int... Ranks>
void rank_switch(int rank, F&& f, std::integer_sequence<int, Ranks...>) {
  const bool known =
      ((rank == Ranks ? (f(std::integral_constant<int, Ranks>{}), true) : false) || ...);
  if (!known) throw tx::Error("npy_tool handles ranks 0 to 6, not " + std::to_string(rank));
}
template <class F>
void rank_switch(int rank, F&& f) {
  rank_switch(rank, f, std::make_integer_sequence<int, kMaxToolRank + 1>());
}

/// The value npy_numpy_test.py expects at row-major position i: exact in every element type.
template <class T>
T test_value(std::int64_t i) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(i * 1000003 - 7);
  } else {
    return static_cast<T>(static_cast<double>((i * 37) % 251 - 125) * 0.5);
  }
}

template <class T>
void print_element(const T& value) {
  if constexpr (std::is_integral_v<T>) {
    std::cout << value << '\n';
  } else {
    std::cout << std::setprecision(17) << static_cast<double>(value) << '\n';
  }
}

template <int N>
std::string joined(const tx::Dim<N>& d) {
  std::string text;
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) text += (i ? "," : "") + std::to_string(d.at(i));
  }
  return text;
}

void dump(const std::string& path) {
  const tx::NpyHeader header = tx::npy_header(path);
  tx::type_switch(header.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    rank_switch(static_cast<int>(header.shape.size()), [&](auto rank) {
      const auto array = tx::load_npy<T, rank>(path);
      std::cout << "dtype=" << tx::name(header.type) << " shape=" << joined(array.dims())
                << " fortran=" << header.fortran_order << " strides=" << joined(array.strides())
                << '\n';
      for (const T& value : tx::make_view(array)) print_element(value);
    });
  });
}

void write(const std::string& dtype, const std::string& order, const std::string& path,
           const std::vector<tx::index_t>& extents) {
  tx::type_switch(tx::data_type_from_name(dtype), [&](auto tag) {
    using T = typename decltype(tag)::type;
    rank_switch(static_cast<int>(extents.size()), [&](auto rank) {
      constexpr int N = rank;
      tx::Dim<N> dims;
      tx::Dim<N> strides;
      if constexpr (N > 0) {
        tx::index_t stride = 1;
        for (int i = 0; i < N; ++i) {
          // C order fills the strides from the last extent, F order from the first.
          const int d = order == "F" ? i : N - 1 - i;
          dims.at(d) = extents[static_cast<std::size_t>(d)];
          strides.at(d) = stride;
          stride *= dims.at(d);
        }
      }
      const auto buffer = std::make_shared<tx::Allocation>(
          static_cast<std::size_t>(tx::product(dims)) * sizeof(T), tx::CpuPlace());
      const tx::Array<T, N> array(buffer, dims, strides, 0);
      std::int64_t i = 0;
      for (T& value : tx::make_view(array)) value = test_value<T>(i++);
      tx::save_npy(path, array);
    });
  });
}

void copy(const std::string& in, const std::string& out) {
  const tx::NpyHeader header = tx::npy_header(in);
  tx::type_switch(header.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    rank_switch(static_cast<int>(header.shape.size()),
                [&](auto rank) { tx::save_npy(out, tx::load_npy<T, rank>(in)); });
  });
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 2 && args[0] == "dump") {
      dump(args[1]);
    } else if (args.size() >= 4 && args[0] == "write") {
      std::vector<tx::index_t> extents;
      for (std::size_t i = 4; i < args.size(); ++i) extents.push_back(std::stoll(args[i]));
      write(args[1], args[2], args[3], extents);
    } else if (args.size() == 3 && args[0] == "copy") {
      copy(args[1], args[2]);
    } else {
      std::cerr << "usage: npy_tool dump FILE | write DTYPE C|F FILE EXTENT... | copy IN OUT\n";
      return 2;
    }
  } catch (const tx::Error& e) {
    std::cerr << "npy_tool: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
