// Parsing einsum's subscript strings (labels/einsum.h).
#include "tensorx/labels/einsum_spec.h"

#include <cctype>
#include <string>

namespace tensorx {
namespace detail {
namespace {

[[noreturn]] void throw_spec(const char* spec, const std::string& what) {
  throw LabelError(message("einsum \"", spec, "\": ", what));
}

// Adds the subscript `c` to `list`.
void add_subscript(const char* spec, char c, LabelList& list) {
  if (!std::isalpha(static_cast<unsigned char>(c))) {
    throw_spec(spec, message("'", c, "' is not a letter (each letter labels one axis)"));
  }
  if (list.size == kMaxRank) {
    throw_spec(spec, message("an operand has more than ", kMaxRank, " subscripts"));
  }
  list.labels[list.size++] = label_of(c);
}

}  // namespace

EinsumSpec parse_einsum(const char* spec, int operands) {
  if (spec == nullptr) throw LabelError("einsum needs a subscript string, not a null pointer");
  std::string text;
  for (const char* p = spec; *p != '\0'; ++p) {
    if (*p != ' ' && *p != '\t') text += *p;
  }
  const std::size_t arrow = text.find("->");
  const std::string inputs = text.substr(0, arrow);
  EinsumSpec parsed;
  int count = 0;
  int seen[128] = {};
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = inputs.find(',', start);
    const std::size_t end = comma == std::string::npos ? inputs.size() : comma;
    if (count < kMaxEinsumOperands) {
      for (std::size_t i = start; i < end; ++i) {
        add_subscript(spec, inputs[i], parsed.inputs[count]);
        ++seen[static_cast<unsigned char>(inputs[i])];
      }
    }
    ++count;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (count != operands) {
    throw_spec(spec, message("names ", count, " operands, but ", operands, " were given"));
  }
  if (arrow == std::string::npos) {
    // NumPy's implicit form: the labels that appear exactly once, in ASCII order.
    for (int c = 0; c < 128; ++c) {
      if (seen[c] == 1) add_subscript(spec, static_cast<char>(c), parsed.output);
    }
  } else {
    const std::string output = text.substr(arrow + 2);
    if (output.find("->") != std::string::npos) throw_spec(spec, "\"->\" appears twice");
    for (char c : output) add_subscript(spec, c, parsed.output);
  }
  return parsed;
}

}  // namespace detail
}  // namespace tensorx
