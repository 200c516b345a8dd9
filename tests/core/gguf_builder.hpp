#pragma once
// GGUF files put together by hand, field by field, for the tests of the reader's checks: each
// field as the format stores it (little-endian), so a test can write any value into any of them.
#include <cstdint>
#include <string>
#include <string_view>

namespace embedlab::test {

class GgufBuilder {
 public:
  GgufBuilder& u8(std::uint8_t x) { return le(x, 1); }
  GgufBuilder& u32(std::uint32_t x) { return le(x, 4); }
  GgufBuilder& u64(std::uint64_t x) { return le(x, 8); }
  GgufBuilder& str(std::string_view s) {
    u64(s.size());
    bytes_.append(s);
    return *this;
  }
  GgufBuilder& raw(std::string_view s) {
    bytes_.append(s);
    return *this;
  }
  // Zeros up to the next multiple of `alignment`.
  GgufBuilder& pad(std::size_t alignment = 32) {
    bytes_.append((alignment - bytes_.size() % alignment) % alignment, '\0');
    return *this;
  }
  // "GGUF", the version, the tensor and metadata counts.
  GgufBuilder& start(std::uint64_t tensors, std::uint64_t metadata, std::uint32_t version = 3) {
    return raw("GGUF").u32(version).u64(tensors).u64(metadata);
  }
  // A 2-D tensor info: name, 2 dimensions, ne = [cols, rows], type, data offset.
  GgufBuilder& tensor(std::string_view name, std::uint64_t cols, std::uint64_t rows,
                      std::uint32_t type, std::uint64_t offset = 0) {
    return str(name).u32(2).u64(cols).u64(rows).u32(type).u64(offset);
  }
  const std::string& bytes() const { return bytes_; }

 private:
  GgufBuilder& le(std::uint64_t x, int n) {
    for (int b = 0; b < n; ++b) bytes_ += static_cast<char>((x >> (8 * b)) & 0xff);
    return *this;
  }
  std::string bytes_;
};

}  // namespace embedlab::test
