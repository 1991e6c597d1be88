// Parsing and printing of label lists (labels/label.h).
#include "tensorx/labels/label.h"

#include <cctype>
#include <cstring>

namespace tensorx {
namespace {

bool is_label_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

Label pack(const char* name, int length) {
  Label label;
  std::memcpy(label.words, name, static_cast<std::size_t>(length));
  return label;
}

}  // namespace

std::string Label::name() const {
  char bytes[kMaxLabelLength + 1] = {};
  std::memcpy(bytes, words, kMaxLabelLength);
  return bytes;
}

Label label_of(char name) {
  return pack(&name, 1);
}

LabelList parse_labels(const char* text) {
  if (text == nullptr) throw LabelError("labels must be a string, not a null pointer");
  LabelList list;
  char name[kMaxLabelLength];
  int length = 0;
  bool any = false;  // a label (possibly empty) has started: the text is not all spaces
  auto finish = [&] {
    if (length == 0) {
      throw LabelError(detail::message("labels \"", text, "\": label ", list.size + 1,
                                       " is empty (labels are comma-separated names)"));
    }
    if (list.size == kMaxRank) {
      throw LabelError(detail::message("labels \"", text, "\" name more than ", kMaxRank,
                                       " axes, the highest rank of an array"));
    }
    list.labels[list.size++] = pack(name, length);
    length = 0;
  };
  for (const char* p = text; *p != '\0'; ++p) {
    const char c = *p;
    if (c == ' ' || c == '\t') continue;
    any = true;
    if (c == ',') {
      finish();
    } else if (!is_label_character(c)) {
      throw LabelError(
          detail::message("labels \"", text, "\": '", c, "' is not a letter, digit or underscore"));
    } else if (length == kMaxLabelLength) {
      throw LabelError(detail::message("labels \"", text, "\": a label is longer than ",
                                       kMaxLabelLength, " characters"));
    } else {
      name[length++] = c;
    }
  }
  if (any) finish();
  return list;
}

std::ostream& operator<<(std::ostream& out, const LabelList& list) {
  out << '"';
  for (int i = 0; i < list.size; ++i) out << (i ? "," : "") << list.labels[i].name();
  return out << '"';
}

namespace detail {

void check_label_count(const LabelList& list, int rank) {
  if (list.size != rank) {
    throw LabelError(
        message("labels ", list, " name ", list.size, " axes, but the array has rank ", rank));
  }
}

}  // namespace detail
}  // namespace tensorx
