#pragma once
// What a fuzz target does when an invariant fails: say which, then abort so libFuzzer keeps
// the input as a crash artifact.
#include <cstdio>
#include <cstdlib>

namespace embedlab::fuzz {

inline void require(bool ok, const char* invariant) {
  if (ok) return;
  std::fprintf(stderr, "invariant broken: %s\n", invariant);
  std::abort();
}

}  // namespace embedlab::fuzz
