// Philox4x32 against the known-answer vectors that Random123 publishes with the algorithm (the
// kat_vectors file: counter, key, expected output for 7 and 10 rounds), and against the test's own
// reference on random inputs.
#include <array>
#include <cstdint>
#include <random>

#include <boost/test/unit_test.hpp>

#include "random/random_reference.h"
#include "tensorx/random/philox.h"

namespace tx = tensorx;

namespace {

struct KnownAnswer {
  int rounds;
  std::array<std::uint32_t, 4> counter;
  std::array<std::uint32_t, 2> key;
  std::array<std::uint32_t, 4> expected;
};

const KnownAnswer kKnownAnswers[] = {
    {7, {0, 0, 0, 0}, {0, 0}, {0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48}},
    {7,
     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x5207ddc2, 0x45165e59, 0x4d8ee751, 0x8c52f662}},
    {7,
     {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a}},
    {10, {0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {10,
     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {10,
     {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

tx::detail::PhiloxBlock run(int rounds, const tx::detail::PhiloxBlock& counter,
                            const tx::detail::PhiloxKey& key) {
  return rounds == 7 ? tx::detail::philox4x32<7>(counter, key)
                     : tx::detail::philox4x32<10>(counter, key);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(philox)

BOOST_AUTO_TEST_CASE(matches_the_published_known_answers) {
  for (const KnownAnswer& k : kKnownAnswers) {
    const tx::detail::PhiloxBlock counter = {
        {k.counter[0], k.counter[1], k.counter[2], k.counter[3]}};
    const tx::detail::PhiloxKey key = {{k.key[0], k.key[1]}};
    const tx::detail::PhiloxBlock got = run(k.rounds, counter, key);
    const tx::testing::Words reference = tx::testing::reference_philox(
        {{k.counter[0], k.counter[1], k.counter[2], k.counter[3]}}, k.key[0], k.key[1], k.rounds);
    for (int w = 0; w < 4; ++w) {
      BOOST_TEST_CONTEXT("rounds " << k.rounds << ", counter " << std::hex << k.counter[0]
                                   << ", word " << w) {
        BOOST_TEST(got.words[w] == k.expected[w]);
        BOOST_TEST(reference.w[w] == k.expected[w]);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(matches_the_reference_on_random_counters_and_keys) {
  std::mt19937_64 rng(20240621);
  int mismatches = 0;
  for (int i = 0; i < 100000; ++i) {
    const auto c = rng(), d = rng(), k = rng();
    const tx::detail::PhiloxBlock counter = {
        {static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c >> 32),
         static_cast<std::uint32_t>(d), static_cast<std::uint32_t>(d >> 32)}};
    const tx::detail::PhiloxKey key = {
        {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(k >> 32)}};
    const auto got = tx::detail::philox4x32(counter, key);
    const auto want = tx::testing::reference_philox(
        {{counter.words[0], counter.words[1], counter.words[2], counter.words[3]}}, key.words[0],
        key.words[1]);
    for (int w = 0; w < 4; ++w) mismatches += got.words[w] != want.w[w];
  }
  BOOST_TEST(mismatches == 0);
}

BOOST_AUTO_TEST_SUITE_END()
