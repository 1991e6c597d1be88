// A deterministic fuzz test of the .npy reader, with no corpus to keep: valid files of every
// element type, order and format version are mutated (bit flips, bytes the header syntax cares
// about, truncation, insertion, deletion, absurd header lengths) and read from memory. Every
// mutant must either load, as an array that fits the bytes it came from, or be an NpyError; any
// other exception fails the test, and a crash or memory error stops it (sanitizer builds).
// test/interop/fuzz/ has the libFuzzer target that explores the same reader without a bound.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "interop/interop_cases.h"
#include "interop/npy_bytes.h"
#include "interop/scratch_dir.h"
#include "tensorx/interop/npy.h"

namespace tx = tensorx;

namespace {

/// Valid files to start from: tensorx's own output for each element type, C and Fortran order,
/// ranks 0 to 3, and hand-made headers of versions 2.0 and 3.0.
std::vector<std::string> seed_files() {
  tx::testing::ScratchDir dir;
  auto rng = tx::testing::make_rng(21);
  std::vector<std::string> seeds;
  tx::testing::for_each_numpy_element_type([&](auto tag) {
    using T = typename decltype(tag)::type;
    tx::testing::for_each_rank<0, 3>([&](auto rank) {
      const auto array =
          tx::testing::random_values<T>(tx::testing::random_dim<rank>(rng, 1, 3), rng);
      tx::save_npy(dir.file("seed.npy"), array);
      seeds.push_back(tx::testing::read_file(dir.file("seed.npy")));
    });
  });
  const auto fortran = tx::testing::random_values<float>(tx::make_dim(6), rng);
  tx::save_npy(dir.file("f.npy"),
               tx::Array<float, 2>(fortran.buffer(), tx::make_dim(2, 3), tx::make_dim(1, 2), 0));
  seeds.push_back(tx::testing::read_file(dir.file("f.npy")));
  const std::string data(48, '\x01');
  for (int major : {2, 3}) {
    seeds.push_back(tx::testing::npy_bytes(
        "{'descr': '<i4', 'fortran_order': False, 'shape': (3, 4), }", data, major));
  }
  return seeds;
}

/// One random change to `bytes`, most of them aimed at the preamble and header, where the parsing
/// happens.
void mutate(std::string& bytes, std::mt19937_64& rng) {
  static const std::string kInteresting = "{}()[],:'\"-0123456789LTFe<>|fiu \n\t\\\x00\xff\x93";
  const auto pick = [&](std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); };
  const std::size_t header_end = std::min<std::size_t>(bytes.size(), 128);
  const std::size_t at = rng() % 4 == 0 ? pick(bytes.size()) : pick(header_end);
  switch (rng() % 8) {
    case 0:  // flip one bit
      if (!bytes.empty()) bytes[at] = static_cast<char>(bytes[at] ^ (1 << (rng() % 8)));
      break;
    case 1:  // a byte the syntax cares about
      if (!bytes.empty()) bytes[at] = kInteresting[pick(kInteresting.size())];
      break;
    case 2:  // cut the file short
      bytes.resize(pick(bytes.size() + 1));
      break;
    case 3:  // insert bytes
      bytes.insert(at, std::string(1 + pick(4), kInteresting[pick(kInteresting.size())]));
      break;
    case 4:  // delete bytes
      if (!bytes.empty()) bytes.erase(at, 1 + pick(4));
      break;
    case 5:  // an absurd or off-by-a-little header length
      if (bytes.size() > 11) {
        const std::size_t field = 8 + pick(bytes[6] == 1 ? 2 : 4);
        bytes[field] = static_cast<char>(rng() % 2 ? 0xff : bytes[field] + 1 - pick(3));
      }
      break;
    case 6:  // another format version
      if (bytes.size() > 7) bytes[6 + pick(2)] = static_cast<char>(pick(5));
      break;
    default:  // a digit in the shape becomes several
      if (const auto digit = bytes.find_first_of("0123456789", 20); digit != std::string::npos) {
        bytes.insert(digit, std::string(1 + pick(20), static_cast<char>('1' + pick(9))));
      }
      break;
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(npy_mutation)

BOOST_AUTO_TEST_CASE(every_mutant_loads_consistently_or_is_an_npy_error) {
  const std::vector<std::string> seeds = seed_files();
  auto rng = tx::testing::make_rng(22);
  int loaded = 0, rejected = 0;
  constexpr int kMutants = 50000;
  for (int i = 0; i < kMutants; ++i) {
    std::string bytes = seeds[rng() % seeds.size()];
    const int mutations = 1 + static_cast<int>(rng() % 2);
    for (int m = 0; m < mutations; ++m) mutate(bytes, rng);
    std::istringstream in(bytes);
    try {
      tx::detail::NpyReader reader(in, "mutant");
      const tx::detail::ErasedArray array = reader.read_data();
      const auto size = static_cast<std::size_t>(array.numel()) * tx::size_of(array.type);
      // What loaded is no bigger than the file, and the buffer holds exactly its elements.
      if (size > bytes.size() || array.buffer->size() != size) {
        BOOST_ERROR("mutant " << i << " loaded " << array.numel() << " elements from "
                              << bytes.size() << " bytes");
      }
      ++loaded;
    } catch (const tx::NpyError& e) {
      if (std::string(e.what()).rfind("'mutant': ", 0) != 0) {
        BOOST_ERROR("mutant " << i << ": the message does not start with the path: " << e.what());
      }
      ++rejected;
    }
  }
  BOOST_TEST_MESSAGE(loaded << " mutants loaded, " << rejected << " rejected");
  // Both outcomes are common, or the mutations would not be testing the reader.
  BOOST_TEST(loaded > kMutants / 50);
  BOOST_TEST(rejected > kMutants / 2);
}

BOOST_AUTO_TEST_SUITE_END()
