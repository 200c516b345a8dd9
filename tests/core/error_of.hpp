// The InputError a call throws, for tests that check both its argument and its message.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <utility>

#include "embedlab/error.hpp"

// The argument and message of the InputError f throws; fails the test when it throws none.
template <class F>
std::pair<embedlab::Argument, std::string> error_of(F&& f) {
  try {
    f();
  } catch (const embedlab::InputError& e) {
    return {e.argument(), e.what()};
  }
  FAIL("no InputError was thrown");
  return {};
}
