// Table files on disk opened by what they hold, as the CLI's --weights and Python's
// embedlab.open() open them: .npy, .safetensors and GGUF told apart by their first bytes or names,
// each with its origin line; a tensor name asked of a .npy file is refused.
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/table_files.hpp"
#include "gguf_builder.hpp"
#include "safetensors_builder.hpp"

using embedlab::TableFormat;
using namespace std::string_literals;

namespace {

// A file of these bytes in a fresh folder, removed with it.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& bytes)
      : dir_(std::filesystem::temp_directory_path() /
             ("embedlab-table-files-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)))),
        path_((dir_ / name).string()) {
    std::filesystem::create_directories(dir_);
    std::ofstream(path_, std::ios::binary) << bytes;
  }
  ~TempFile() { std::filesystem::remove_all(dir_); }
  const std::string& path() const { return path_; }

 private:
  std::filesystem::path dir_;
  std::string path_;
};

// A 2 x 1 float32 table [[1.5], [-2]].
embedlab::Matrix two_rows() { return (embedlab::Matrix(2, 1) << 1.5f, -2.0f).finished(); }

}  // namespace

TEST_CASE("a .npy file, by its name or its first bytes", "[table_files]") {
  for (const char* name : {"w.npy", "w.bin"}) {
    const TempFile file(name, embedlab::to_npy(two_rows()));
    CHECK(embedlab::table_file_format(file.path()) == TableFormat::npy);
    const embedlab::TableFile t = embedlab::open_table_file(file.path());
    CHECK(t.table.to_matrix() == two_rows());
    CHECK(t.tensor.empty());
    CHECK(t.origin == "W loaded from " + file.path());
    CHECK(embedlab::test::message_of([&] { embedlab::open_table_file(file.path(), "wte"); }) ==
          file.path() +
              ": a .npy file holds one array, not named tensors, so there is no tensor 'wte' to "
              "choose: name none");
  }
}

TEST_CASE("a .safetensors file: its table and how its values became float32", "[table_files]") {
  // 1.5 and -2.0 as float32, little-endian.
  const std::string data = "\x00\x00\xc0\x3f\x00\x00\x00\xc0"s;
  const TempFile file(
      "model.bin",
      embedlab::test::safetensors_file(
          "{" + embedlab::test::entry("wte.weight", "F32", "[2, 1]", 0, 8) + "}", data));
  CHECK(embedlab::table_file_format(file.path()) == TableFormat::safetensors);
  const embedlab::TableFile t = embedlab::open_table_file(file.path());
  CHECK(t.table.to_matrix() == two_rows());
  CHECK(t.tensor == "wte.weight");
  CHECK(t.origin == "W loaded from " + file.path() +
                        ": tensor 'wte.weight', shape [2, 1], F32 (float32), as stored");
}

TEST_CASE("a GGUF file, by its name or its first bytes, with its tokens", "[table_files]") {
  embedlab::test::GgufBuilder gguf;
  gguf.start(1, 1).str("tokenizer.ggml.tokens").u32(9).u32(8).u64(2).str("a").str("b");
  gguf.tensor("token_embd.weight", 1, 2, 0).pad();  // F32, ne [1, 2]
  gguf.raw("\x00\x00\xc0\x3f\x00\x00\x00\xc0"s);
  for (const char* name : {"m.gguf", "m.bin"}) {
    const TempFile file(name, gguf.bytes());
    CHECK(embedlab::table_file_format(file.path()) == TableFormat::gguf);
    const embedlab::TableFile t = embedlab::open_table_file(file.path());
    CHECK(t.table.to_matrix() == two_rows());
    CHECK(t.tokens == std::vector<std::string>{"a", "b"});
    CHECK_FALSE(t.has_head);
    CHECK(t.origin ==
          "W loaded from " + file.path() +
              ": tensor 'token_embd.weight', ne [1, 2] read as (V, d) = (2, 1), F32, as "
              "stored; no output.weight: the head is tied to this table");
  }
}

TEST_CASE("a name ending in .json is a sharded checkpoint's index", "[table_files]") {
  CHECK(embedlab::table_file_format("/nonexistent/model.safetensors.index.json") ==
        TableFormat::safetensors_index);
  CHECK(embedlab::table_file_format("/nonexistent/model.safetensors") == TableFormat::safetensors);
}
