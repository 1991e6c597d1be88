// A recursive-descent parser for the small subset of Python literals a .npy header uses. It reads
// at most the header's bytes and keeps no more than kMaxRank extents, whatever the input.
#include "interop/npy_header_dict.h"

#include <limits>

#include "interop/npy_format.h"
#include "tensorx/core/error.h"

namespace tensorx {
namespace detail {
namespace {

class HeaderDictParser {
 public:
  HeaderDictParser(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  NpyHeaderDict parse() {
    NpyHeaderDict dict;
    bool has_descr = false, has_fortran_order = false, has_shape = false;
    expect('{', "at the start of the header dictionary");
    while (!accept('}')) {
      skip_space();
      const std::size_t key_position = position_;
      const std::string key = parse_string("a key");
      expect(':', message("after the key '", key, "'").c_str());
      if (key == "descr") {
        mark_seen(has_descr, key, key_position);
        dict.descr = parse_descr();
      } else if (key == "fortran_order") {
        mark_seen(has_fortran_order, key, key_position);
        dict.fortran_order = parse_bool(key);
      } else if (key == "shape") {
        mark_seen(has_shape, key, key_position);
        dict.shape = parse_shape();
      } else {
        fail_at(key_position, message("unexpected key '", key,
                                      "' (a .npy header has descr, fortran_order and shape)"));
      }
      if (!accept(',')) {
        expect('}', "after an entry (expected ',' or '}')");
        break;
      }
    }
    skip_space();
    if (position_ != text_.size()) fail("unexpected text after the header dictionary");
    if (!has_descr) fail_header("has no 'descr' key");
    if (!has_fortran_order) fail_header("has no 'fortran_order' key");
    if (!has_shape) fail_header("has no 'shape' key");
    return dict;
  }

 private:
  [[noreturn]] void fail_at(std::size_t position, const std::string& problem) const {
    throw_npy_error(path_, message("malformed header: ", problem, " at byte ", position,
                                   " of the header dictionary"));
  }
  [[noreturn]] void fail(const std::string& problem) const { fail_at(position_, problem); }
  [[noreturn]] void fail_header(const std::string& problem) const {
    throw_npy_error(path_, "malformed header: the header dictionary " + problem);
  }

  void mark_seen(bool& seen, const std::string& key, std::size_t key_position) const {
    if (seen) fail_at(key_position, message("the key '", key, "' appears twice"));
    seen = true;
  }

  void skip_space() {
    while (position_ < text_.size() && (text_[position_] == ' ' || text_[position_] == '\t' ||
                                        text_[position_] == '\n' || text_[position_] == '\r')) {
      ++position_;
    }
  }

  /// Skips whitespace, then consumes `c` if it comes next.
  bool accept(char c) {
    skip_space();
    if (position_ < text_.size() && text_[position_] == c) {
      ++position_;
      return true;
    }
    return false;
  }

  void expect(char c, const char* where) {
    if (!accept(c)) fail(message("expected '", c, "' ", where));
  }

  std::string parse_string(const char* what) {
    skip_space();
    if (position_ >= text_.size() || (text_[position_] != '\'' && text_[position_] != '"')) {
      fail(message("expected ", what, " (a quoted string)"));
    }
    const char quote = text_[position_++];
    const std::size_t begin = position_;
    while (position_ < text_.size() && text_[position_] != quote) {
      if (text_[position_] == '\\') fail("escape sequences in strings are not supported");
      if (text_[position_] == '\n') fail("a string does not end on its line");
      ++position_;
    }
    if (position_ >= text_.size()) fail_at(begin - 1, "a string does not end");
    return std::string(text_.substr(begin, position_++ - begin));
  }

  std::string parse_descr() {
    skip_space();
    if (position_ < text_.size() && text_[position_] == '[') {
      fail("'descr' is a list of fields (a structured dtype), which tensorx cannot load");
    }
    return parse_string("the dtype string of 'descr'");
  }

  bool parse_bool(const std::string& key) {
    skip_space();
    for (const auto& [word, value] : {std::pair<std::string_view, bool>{"True", true},
                                      std::pair<std::string_view, bool>{"False", false}}) {
      if (text_.substr(position_, word.size()) == word) {
        position_ += word.size();
        return value;
      }
    }
    fail(message("expected True or False for '", key, "'"));
  }

  index_t parse_extent() {
    skip_space();
    if (position_ < text_.size() && text_[position_] == '-') fail("negative extent in 'shape'");
    if (position_ >= text_.size() || text_[position_] < '0' || text_[position_] > '9') {
      fail("expected an extent (a non-negative integer) in 'shape'");
    }
    const std::size_t begin = position_;
    constexpr index_t kLargest = std::numeric_limits<index_t>::max();
    index_t value = 0;
    while (position_ < text_.size() && text_[position_] >= '0' && text_[position_] <= '9') {
      const index_t digit = text_[position_++] - '0';
      if (value > (kLargest - digit) / 10) {
        fail_at(begin, "shape overflow: an extent in 'shape' does not fit in 64 bits");
      }
      value = value * 10 + digit;
    }
    // Python 2 wrote long integers with a suffix, and NumPy's files from then still load.
    if (position_ < text_.size() && (text_[position_] == 'L' || text_[position_] == 'l')) {
      ++position_;
    }
    return value;
  }

  std::vector<index_t> parse_shape() {
    expect('(', "to open the tuple of 'shape'");
    std::vector<index_t> shape;
    if (accept(')')) return shape;
    while (true) {
      if (static_cast<int>(shape.size()) == kMaxRank) {
        fail(message("'shape' has more than ", kMaxRank,
                     " extents, and tensorx arrays hold ranks 0 to ", kMaxRank));
      }
      shape.push_back(parse_extent());
      if (accept(')')) {
        // "(3)" is the number 3 to Python, not a tuple: NumPy rejects it, and so do we.
        if (shape.size() == 1) fail("'shape' is a number in parentheses, not a tuple: write (n,)");
        return shape;
      }
      expect(',', "between the extents of 'shape'");
      if (accept(')')) return shape;
    }
  }

  std::string_view text_;
  const std::string& path_;
  std::size_t position_ = 0;
};

}  // namespace

NpyHeaderDict parse_npy_header_dict(std::string_view text, const std::string& path) {
  return HeaderDictParser(text, path).parse();
}

}  // namespace detail
}  // namespace tensorx
