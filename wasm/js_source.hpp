#pragma once
// The caller's { size, read(offset, length) } as a ByteSource, called synchronously: a File read
// with FileReaderSync in a worker, fs.readSync in Node. The JavaScript wrapper has checked it and
// turns what read() throws, or a wrong answer, into { readError: message }.
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <utility>

#include "embedlab/byte_source.hpp"
#include "embedlab/error.hpp"

namespace embedlab::js {

class JsSource final : public ByteSource {
 public:
  explicit JsSource(emscripten::val source)
      : source_(std::move(source)),
        size_(static_cast<std::uint64_t>(source_["size"].as<double>())) {}
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, std::size_t length, char* out) const override {
    const emscripten::val bytes = source_.call<emscripten::val>("read", static_cast<double>(offset),
                                                                static_cast<double>(length));
    if (!bytes["readError"].isUndefined())
      throw InputError(Argument::weights, "cannot read bytes " + std::to_string(offset) + " to " +
                                              std::to_string(offset + length) + " of the file: " +
                                              bytes["readError"].as<std::string>());
    emscripten::val(emscripten::typed_memory_view(length, reinterpret_cast<unsigned char*>(out)))
        .call<void>("set", bytes);
  }

 private:
  emscripten::val source_;
  std::uint64_t size_;
};

}  // namespace embedlab::js
