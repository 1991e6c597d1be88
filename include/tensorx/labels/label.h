// Labels of the Einstein notation: `a("i,k")` names the axes of `a`. A label is a short name kept
// by value (its bytes packed into two words, so that comparing labels compares two integers and a
// labelled expression kept past its statement never points into a string that is gone).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "tensorx/core/error.h"
#include "tensorx/shape/dim.h"

namespace tensorx {

/// A malformed label list, a label count that differs from the rank, a repeated label on the
/// left, or a label on the left that no operand has. The message names the labels.
class LabelError : public Error {
  using Error::Error;
};

/// The longest label name, in characters.
constexpr int kMaxLabelLength = 16;

/// One label: up to kMaxLabelLength letters, digits or underscores.
struct Label {
  std::uint64_t words[2] = {0, 0};  ///< the name's bytes, zero-padded

  /// The name, e.g. "batch".
  std::string name() const;
};

/// Equal when the names are.
inline bool operator==(const Label& a, const Label& b) {
  return a.words[0] == b.words[0] && a.words[1] == b.words[1];
}
/// !(a == b).
inline bool operator!=(const Label& a, const Label& b) {
  return !(a == b);
}

/// The labels of one operand, one per axis (a label may repeat: a("i,i") reads a diagonal).
struct LabelList {
  int size = 0;            ///< the number of labels
  Label labels[kMaxRank];  ///< the labels, outermost axis first; those past size are empty
};

/// Parses comma-separated labels ("i, k", "batch,row"); spaces are ignored and "" is the empty
/// list of a rank-0 array. Throws LabelError naming the text for an empty label, a character that
/// is not a letter, digit or underscore, a label longer than kMaxLabelLength, more than kMaxRank
/// labels, or a null pointer.
LabelList parse_labels(const char* text);

/// The label of a single-character name (einsum's labels).
Label label_of(char name);

/// Prints the list as it is written, quoted: "i,k".
std::ostream& operator<<(std::ostream& out, const LabelList& list);

namespace detail {
/// Throws LabelError unless `list` names exactly `rank` axes.
void check_label_count(const LabelList& list, int rank);
}  // namespace detail

}  // namespace tensorx
