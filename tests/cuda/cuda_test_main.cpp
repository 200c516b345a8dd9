// Catch2's main for the GPU tests: without a usable CUDA device it says why and exits 77,
// which ctest reports as skipped (SKIP_RETURN_CODE 77). Listing tests needs no device, so
// catch_discover_tests works on any build machine.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <iostream>

#include "cuda_backend.hpp"

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  const Catch::ConfigData& config = session.configData();
  const bool listing = config.listTests || config.listTestNamesOnly || config.listTags ||
                       config.listReporters || config.showHelp;
  if (!listing) {
    const std::string why = embedlab::cuda::device_unavailable_reason();
    if (!why.empty()) {
      std::cout << "SKIPPED: no CUDA device (" << why
                << "): the GPU-vs-CPU tests need an NVIDIA GPU\n";
      return 77;
    }
  }
  return session.run();
}
