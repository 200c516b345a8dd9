#pragma once
// Where a table file's bytes come from, read one range at a time: a file on disk (natively, with
// pread), a JavaScript object { size, read(offset, length) } (in the WebAssembly module: a File
// read with FileReaderSync in a worker, or fs.readSync in Node), or bytes held in memory. A table
// reads the rows it needs through it, so nothing ever holds a whole file.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace embedlab {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual std::uint64_t size() const = 0;
  // Exactly `length` bytes from `offset` into `out`; throws InputError (Argument::weights) naming
  // the range when they cannot be read. Callers keep [offset, offset + length) within size().
  virtual void read(std::uint64_t offset, std::size_t length, char* out) const = 0;
  // All size() bytes, when the source holds them in memory (they are then used in place); else
  // nullptr.
  virtual const char* bytes() const { return nullptr; }
};

// Bytes [begin, end) of the source.
std::string read_range(const ByteSource& source, std::uint64_t begin, std::uint64_t end);

// Bytes held in memory.
std::shared_ptr<const ByteSource> memory_source(std::string bytes);

// A file on disk, opened for reading (natively: pread, so any number of readers share it).
// Errors name the path: a missing or unreadable file, a failed read, and a folder ("it is a
// folder, not <what>", e.g. "a .npy file").
std::shared_ptr<const ByteSource> open_file(const std::string& path, const char* what = "a file");

}  // namespace embedlab
