#pragma once
// .safetensors files put together by hand from the format description, for the tests of the
// header reader and of the sharded index, and the message of an error about the weights.
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <string>

#include "embedlab/error.hpp"

namespace embedlab::test {

// The JSON's length as 8 little-endian bytes, the JSON, the data.
inline std::string safetensors_file(const std::string& json, const std::string& data = "") {
  std::string out;
  for (int b = 0; b < 8; ++b) out += static_cast<char>((json.size() >> (8 * b)) & 0xff);
  return out + json + data;
}

// One header entry: "name": {"dtype": ..., "shape": [...], "data_offsets": [begin, end]}.
inline std::string entry(const std::string& name, const std::string& dtype,
                         const std::string& shape, std::uint64_t begin, std::uint64_t end) {
  return "\"" + name + "\": {\"dtype\": \"" + dtype + "\", \"shape\": " + shape +
         ", \"data_offsets\": [" + std::to_string(begin) + ", " + std::to_string(end) + "]}";
}

// The message of the InputError that f throws, which must be about the weights.
inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    CHECK(e.argument() == Argument::weights);
    return e.what();
  }
  return "no error";
}

}  // namespace embedlab::test
