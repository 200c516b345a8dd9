#include "embedlab/sample_weights.hpp"

#include <cmath>
#include <cstdlib>

#include "embedlab/error.hpp"
#include "quoted.hpp"

namespace embedlab {
namespace {

bool separates(char c) {
  return c == ',' || c == '[' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The [begin, end) ranges of the values in text.
template <class F>
void for_each_token(std::string_view text, F f) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && separates(text[pos])) ++pos;
    std::size_t end = pos;
    while (end < text.size() && !separates(text[end])) ++end;
    if (end > pos) f(text.substr(pos, end - pos));
    pos = end;
  }
}

}  // namespace

SampleWeights parse_sample_weights(std::string_view text, const Limits& limits) {
  Index count = 0;
  for_each_token(text, [&](std::string_view) { ++count; });
  check_count(count, Argument::per_sample_weights, "per_sample_weights", limits);
  if (count == 0 && text.find_first_not_of(" \t\n\r") != std::string_view::npos) {
    throw InputError(Argument::per_sample_weights,
                     "per_sample_weights holds no number: give one weight per id, e.g. 1, 0.5, 2");
  }
  SampleWeights w;
  w.values.reserve(static_cast<std::size_t>(count));
  w.texts.reserve(static_cast<std::size_t>(count));
  for_each_token(text, [&](std::string_view token) {
    const std::string s(token);
    char* stop = nullptr;
    const float value = std::strtof(s.c_str(), &stop);
    if (*stop != '\0' || !std::isfinite(value)) {
      throw InputError(Argument::per_sample_weights,
                       "per_sample_weights: value " + std::to_string(w.values.size() + 1) + " is " +
                           quoted(token) + ", which is not a finite number, e.g. 1, 0.5, 2");
    }
    w.values.push_back(value);
    w.texts.push_back(s);
    w.literals.push_back(s.find_first_of(".eE") == std::string::npos ? s + ".0" : s);
  });
  return w;
}

}  // namespace embedlab
