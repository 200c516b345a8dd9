#pragma once
#include <stdexcept>
#include <string>

namespace embedlab {

// Bad input from a user: the message is meant to be shown verbatim to a learner
// (it names the offending value, where it is, and what was expected).
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace embedlab
