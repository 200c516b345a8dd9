#pragma once
// What the PyTorch suite's drivers share: commands in, one per line on stdin; results out, raw
// little-endian float32 on stdout, for the Python side to compare with torch's.
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include "embedlab/matrix.hpp"

namespace driver {

inline void write(const float* data, embedlab::Index count) {
  std::fwrite(data, sizeof(float), static_cast<std::size_t>(count), stdout);
}
inline void write(const embedlab::Matrix& m) { write(m.data(), m.size()); }

// Calls run_line(line) for each line of stdin. Returns main()'s exit status: 1, with the message
// on stderr after `name`, when a command fails or stdout cannot be flushed.
template <class RunLine>
int run_commands(const char* name, RunLine run_line) {
  std::string line;
  try {
    while (std::getline(std::cin, line)) run_line(line);
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return 1;
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace driver
