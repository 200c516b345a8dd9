#include "embedlab/byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "embedlab/error.hpp"

namespace embedlab {
namespace {

[[noreturn]] void fail(const std::string& message) { throw InputError(Argument::weights, message); }

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
  std::uint64_t size() const override { return bytes_.size(); }
  void read(std::uint64_t offset, std::size_t length, char* out) const override {
    if (offset > bytes_.size() || length > bytes_.size() - offset)
      fail("cannot read bytes " + std::to_string(offset) + " to " +
           std::to_string(offset + length) + ": there are only " + std::to_string(bytes_.size()));
    std::memcpy(out, bytes_.data() + offset, length);
  }
  const char* bytes() const override { return bytes_.data(); }

 private:
  std::string bytes_;
};

class FileSource final : public ByteSource {
 public:
  FileSource(const std::string& path, const char* what) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail("cannot open " + path + ": " + std::strerror(errno));
    struct stat info {};
    if (::fstat(fd_, &info) != 0) {
      const int error = errno;
      ::close(fd_);
      fail("cannot read " + path + ": " + std::strerror(error));
    }
    if (S_ISDIR(info.st_mode)) {
      ::close(fd_);
      fail("cannot read " + path + ": it is a folder, not " + what);
    }
    size_ = static_cast<std::uint64_t>(info.st_size);
  }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  ~FileSource() override { ::close(fd_); }

  std::uint64_t size() const override { return size_; }

  void read(std::uint64_t offset, std::size_t length, char* out) const override {
    std::size_t done = 0;
    while (done < length) {
      const ::ssize_t got =
          ::pread(fd_, out + done, length - done, static_cast<::off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0)
        fail("cannot read bytes " + std::to_string(offset) + " to " +
             std::to_string(offset + length) + " of " + path_ + ": " +
             (got < 0 ? std::strerror(errno) : "the file ended early"));
      done += static_cast<std::size_t>(got);
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace

std::string read_range(const ByteSource& source, std::uint64_t begin, std::uint64_t end) {
  std::string out(static_cast<std::size_t>(end - begin), '\0');
  source.read(begin, out.size(), out.data());
  return out;
}

std::shared_ptr<const ByteSource> memory_source(std::string bytes) {
  return std::make_shared<MemorySource>(std::move(bytes));
}

std::shared_ptr<const ByteSource> open_file(const std::string& path, const char* what) {
  return std::make_shared<FileSource>(path, what);
}

}  // namespace embedlab
