// Predicates for BOOST_CHECK_EXCEPTION that check an error message names the values involved.
#pragma once

#include <exception>
#include <initializer_list>
#include <iostream>
#include <string>
#include <vector>

namespace tensorx {
namespace testing {

/// A predicate true when the exception's message contains every one of `parts`. When it does not,
/// the message and the first missing part go to stderr: Boost.Test names only the predicate.
inline auto message_has(std::initializer_list<std::string> parts) {
  return [expected = std::vector<std::string>(parts)](const std::exception& e) {
    const std::string what = e.what();
    for (const auto& part : expected) {
      if (what.find(part) == std::string::npos) {
        std::cerr << "message_has: \"" << part << "\" is not in the message: " << what << '\n';
        return false;
      }
    }
    return true;
  };
}

/// A predicate true when the exception's message is exactly `text`.
inline auto message_is(std::string text) {
  return [text](const std::exception& e) { return text == e.what(); };
}

}  // namespace testing
}  // namespace tensorx
