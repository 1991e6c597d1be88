// Malformed .npy files, one per way a file can be wrong: each is an NpyError whose message starts
// with the file's path and says what is wrong, from every entry point that reads a file.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "interop/npy_bytes.h"
#include "interop/scratch_dir.h"
#include "support/errors.h"
#include "tensorx/interop/npy.h"

namespace tx = tensorx;
using tx::testing::npy_bytes;
using tx::testing::npy_magic;

namespace {

struct MalformedFile {
  const char* what;
  std::string bytes;
  std::vector<std::string> message_parts;
};

/// A header dictionary with the given entries written as NumPy writes them.
std::string dict(const std::string& descr, const std::string& fortran, const std::string& shape) {
  return "{'descr': " + descr + ", 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
}

/// A version-2.0 preamble announcing `length` header bytes, followed by nothing.
std::string preamble_v2(std::uint32_t length) {
  std::string bytes = npy_magic() + '\x02' + '\0';
  for (int i = 0; i < 4; ++i) bytes += static_cast<char>(length >> (8 * i) & 0xff);
  return bytes;
}

std::vector<MalformedFile> malformed_files() {
  const std::string valid_dict = dict("'<f4'", "False", "(2, 3)");
  return {
      {"an empty file", "", {"truncated preamble: the file ends after 0 bytes"}},
      {"a text file", "hello, world\n", {"not a .npy file", "magic string \\x93NUMPY"}},
      {"a wrong magic string", "\x93NUMPX" + npy_bytes(valid_dict).substr(6), {"not a .npy file"}},
      {"a preamble cut inside the version", npy_magic() + '\x01', {"truncated preamble"}},
      {"format version 4.0",
       npy_magic() + '\x04' + '\0' + '\x10' + '\0',
       {"unsupported .npy format version 4.0", "1.0, 2.0 and 3.0"}},
      {"format version 1.1",
       npy_magic() + '\x01' + '\x01' + '\x10' + '\0',
       {"unsupported .npy format version 1.1"}},
      {"a header length cut short",
       npy_magic() + '\x02' + '\0' + '\x10' + '\0',
       {"truncated preamble: the file ends inside the header length"}},
      {"an absurd header length",
       preamble_v2(0xffffffffu),
       {"header length 4294967295 is larger than 1048576 bytes"}},
      {"a truncated header",
       preamble_v2(100) + valid_dict.substr(0, 20),
       {"truncated header: the preamble announces 100 bytes, the file holds 20"}},
      {"a header that is not a dictionary",
       npy_bytes("[1, 2, 3]"),
       {"malformed header: expected '{' at the start of the header dictionary at byte 0"}},
      {"an unclosed dictionary",
       npy_bytes("{'descr': '<f4', 'fortran_order': False"),
       {"malformed header: expected '}' after an entry"}},
      {"a missing colon", npy_bytes("{'descr' '<f4'}"), {"expected ':' after the key 'descr'"}},
      {"a missing key",
       npy_bytes("{'descr': '<f4', 'fortran_order': False}"),
       {"the header dictionary has no 'shape' key"}},
      {"a repeated key",
       npy_bytes("{'descr': '<f4', 'descr': '<f4'}"),
       {"the key 'descr' appears twice at byte 17"}},
      {"an unknown key", npy_bytes("{'descr': '<f4', 'extra': 1}"), {"unexpected key 'extra'"}},
      {"an unquoted key", npy_bytes("{descr: '<f4'}"), {"expected a key (a quoted string)"}},
      {"a string that does not end", npy_bytes("{'descr: '<f4'}"), {"expected ':'"}},
      {"a string that runs to the end", npy_bytes("{'descr': '<f4"), {"a string does not end"}},
      {"an escape sequence",
       npy_bytes(dict("'<f\\x34'", "False", "(2,)")),
       {"escape sequences in strings are not supported"}},
      {"a structured dtype",
       npy_bytes(dict("[('a', '<f4')]", "False", "(2,)")),
       {"'descr' is a list of fields (a structured dtype)"}},
      {"fortran_order that is not a bool",
       npy_bytes(dict("'<f4'", "1", "(2,)")),
       {"expected True or False for 'fortran_order'"}},
      {"a shape that is a number",
       npy_bytes(dict("'<f4'", "False", "(3)")),
       {"'shape' is a number in parentheses, not a tuple"}},
      {"a shape that is a list",
       npy_bytes(dict("'<f4'", "False", "[2, 3]")),
       {"expected '(' to open the tuple of 'shape'"}},
      {"a negative extent",
       npy_bytes(dict("'<f4'", "False", "(2, -3)")),
       {"negative extent in 'shape'"}},
      {"an extent that is not a number",
       npy_bytes(dict("'<f4'", "False", "(2, x)")),
       {"expected an extent (a non-negative integer)"}},
      {"text after the dictionary",
       npy_bytes(valid_dict + " junk"),
       {"unexpected text after the header dictionary"}},
      {"big-endian data",
       npy_bytes(dict("'>f4'", "False", "(2, 3)")),
       {"big-endian data (dtype '>f4') is not supported"}},
      {"an unsigned dtype",
       npy_bytes(dict("'<u2'", "False", "(2, 3)")),
       {"unsupported dtype '<u2' (tensorx reads <f2, <f4, <f8, <i4 and <i8)"}},
      {"a bool dtype", npy_bytes(dict("'|b1'", "False", "(2, 3)")), {"unsupported dtype '|b1'"}},
      {"an object dtype", npy_bytes(dict("'|O'", "False", "(2, 3)")), {"unsupported dtype '|O'"}},
      {"an extent beyond 64 bits",
       npy_bytes(dict("'<f4'", "False", "(99999999999999999999,)")),
       {"shape overflow: an extent in 'shape' does not fit in 64 bits"}},
      {"a shape whose bytes overflow",
       npy_bytes(dict("'<f8'", "False", "(4294967296, 1073741824)")),
       {"shape overflow: shape (4294967296, 1073741824) of float64 needs more than 2^63 bytes"}},
      {"rank 10",
       npy_bytes(dict("'<f4'", "False", "(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)")),
       {"'shape' has more than 9 extents"}},
      {"data cut short",
       npy_bytes(dict("'<f4'", "False", "(2, 3)"), std::string(20, '\0')),
       {"truncated data: shape (2, 3) of float32 needs 24 bytes after the header, the file holds "
        "20"}},
      {"no data at all",
       npy_bytes(dict("'<f4'", "True", "(1000000, 1000000)")),
       {"truncated data: shape (1000000, 1000000) of float32 needs 4000000000000 bytes",
        "holds 0"}},
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(npy_malformed)

BOOST_AUTO_TEST_CASE(every_malformed_file_is_an_npy_error_naming_the_path_and_the_problem) {
  tx::testing::ScratchDir dir;
  const std::string path = dir.file("bad.npy");
  for (const MalformedFile& file : malformed_files()) {
    BOOST_TEST_CONTEXT(file.what) {
      tx::testing::write_file(path, file.bytes);
      std::vector<std::string> parts = file.message_parts;
      parts.push_back("'" + path + "': ");
      const auto names_path_and_problem = [&](const tx::NpyError& e) {
        const std::string what = e.what();
        bool has_all = what.rfind("'" + path + "': ", 0) == 0;
        for (const auto& part : parts) has_all = has_all && what.find(part) != std::string::npos;
        if (!has_all) BOOST_TEST_MESSAGE("message: " << what);
        return has_all;
      };
      BOOST_CHECK_EXCEPTION(tx::load_npy(path), tx::NpyError, names_path_and_problem);
      BOOST_CHECK_EXCEPTION((tx::load_npy<float, 2>(path)), tx::NpyError, names_path_and_problem);
    }
  }
}

BOOST_AUTO_TEST_CASE(header_problems_are_found_by_npy_header_too) {
  tx::testing::ScratchDir dir;
  const std::string path = dir.file("bad.npy");
  tx::testing::write_file(path, npy_bytes(dict("'>f8'", "False", "(2,)")));
  BOOST_CHECK_EXCEPTION(tx::npy_header(path), tx::NpyError,
                        tx::testing::message_has({path, "big-endian"}));
  // Missing data is not a header problem.
  tx::testing::write_file(path, npy_bytes(dict("'<f8'", "False", "(2,)")));
  BOOST_TEST(tx::npy_header(path).shape == std::vector<tx::index_t>({2}));
}

BOOST_AUTO_TEST_SUITE_END()
