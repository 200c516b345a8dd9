// How the product streamed through a table file compares with its parts: the time of
// StreamedProduct over the file against a sequential read of the same bytes (pread, in the
// stream's blocks) plus the GEMM alone (the same StreamedProduct over the table already in memory
// as float32). The three run interleaved, each repetition in turn, in one process; the medians
// and the ratio (read + GEMM) / streamed are printed, a ratio of 1 meaning the stream costs
// nothing beyond its parts.
//
//   embedlab_stream_bench [--dir DIR] [--reps N] [--n IDS] [SHAPE...]
//   SHAPE: V:d:dtype, e.g. 50257:768:F32 (GPT-2) or 151936:1024:BF16 (Qwen3-0.6B)
//
// The table file is written once into DIR (random values; F32 or BF16 as a .safetensors file)
// and read back through the page cache, as a file read twice is.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "embedlab/byte_source.hpp"
#include "embedlab/encoding.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/safetensors.hpp"
#include "embedlab/streamed.hpp"

namespace {

using embedlab::Index;

struct Shape {
  Index vocab;
  Index dim;
  std::string dtype;  // F32 or BF16
};

std::string file_for(const std::string& dir, const Shape& s) {
  const std::string path = dir + "/stream_" + std::to_string(s.vocab) + "x" +
                           std::to_string(s.dim) + "_" + s.dtype + ".safetensors";
  if (std::ifstream(path).good()) return path;
  const Index value_bytes = s.dtype == "F32" ? 4 : 2;
  const std::uint64_t bytes = static_cast<std::uint64_t>(s.vocab * s.dim * value_bytes);
  std::string json = "{\"wte.weight\": {\"dtype\": \"" + s.dtype + "\", \"shape\": [" +
                     std::to_string(s.vocab) + ", " + std::to_string(s.dim) +
                     "], \"data_offsets\": [0, " + std::to_string(bytes) + "]}}";
  json.append((8 - json.size() % 8) % 8, ' ');
  std::ofstream out(path, std::ios::binary);
  for (int b = 0; b < 8; ++b) out.put(static_cast<char>((json.size() >> (8 * b)) & 0xff));
  out << json;
  std::mt19937 rng(1);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<char> row(static_cast<std::size_t>(s.dim * value_bytes));
  for (Index i = 0; i < s.vocab; ++i) {
    for (Index j = 0; j < s.dim; ++j) {
      const std::uint32_t bits = embedlab::float_bits(normal(rng));
      if (value_bytes == 4)
        std::memcpy(&row[static_cast<std::size_t>(4 * j)], &bits, 4);
      else {
        const auto top = static_cast<std::uint16_t>(bits >> 16);
        std::memcpy(&row[static_cast<std::size_t>(2 * j)], &top, 2);
      }
    }
    out.write(row.data(), static_cast<std::streamsize>(row.size()));
  }
  return path;
}

double seconds_of(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void measure(const std::string& dir, const Shape& s, Index n, int reps) {
  const std::string path = file_for(dir, s);
  const auto file = embedlab::open_file(path);
  const embedlab::SafetensorsTable t = embedlab::open_safetensors_table(file);
  const embedlab::Table in_memory(
      t.table.to_matrix(embedlab::Limits{65536, 1 << 22, 1 << 16, Index{1} << 32}));
  std::mt19937 rng(2);
  std::uniform_int_distribution<Index> pick(0, s.vocab - 1);
  embedlab::Ids ids(static_cast<std::size_t>(n));
  for (auto& id : ids) id = pick(rng);
  const Index block_bytes =
      embedlab::stream_block_rows(s.dim) * static_cast<Index>(t.table.row_bytes());
  std::vector<char> buffer(static_cast<std::size_t>(block_bytes));
  std::vector<double> streamed, read, gemm;
  float checksum = 0.0f;
  for (int r = 0; r < reps + 1; ++r) {  // the first round warms the page cache, uncounted
    const double a = seconds_of([&] {
      embedlab::StreamedProduct p(t.table, embedlab::one_hot_encoding(ids, s.vocab));
      p.run();
      checksum += p.result()(0, 0);
    });
    const double b = seconds_of([&] {
      const std::uint64_t end = t.entry.end;
      for (std::uint64_t at = t.entry.begin; at < end;
           at += static_cast<std::uint64_t>(block_bytes))
        file->read(at, static_cast<std::size_t>(std::min<std::uint64_t>(block_bytes, end - at)),
                   buffer.data());
      checksum += static_cast<float>(buffer[0]);
    });
    const double c = seconds_of([&] {
      embedlab::StreamedProduct p(in_memory, embedlab::one_hot_encoding(ids, s.vocab));
      p.run();
      checksum += p.result()(0, 0);
    });
    if (r == 0) continue;
    streamed.push_back(a);
    read.push_back(b);
    gemm.push_back(c);
  }
  const double ts = median(streamed), tr = median(read), tg = median(gemm);
  std::printf("| %lld x %lld %s | %lld | %.3f | %.3f | %.3f | %.2f |\n",
              static_cast<long long>(s.vocab), static_cast<long long>(s.dim), s.dtype.c_str(),
              static_cast<long long>(n), ts, tr, tg, (tr + tg) / ts);
  if (checksum == 12345.0f) std::printf(" ");  // keeps the work observable
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = ".";
  int reps = 5;
  Index n = 16;
  std::vector<Shape> shapes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else if (arg == "--reps" && i + 1 < argc) {
      reps = std::stoi(argv[++i]);
    } else if (arg == "--n" && i + 1 < argc) {
      n = std::stoll(argv[++i]);
    } else {
      const std::size_t a = arg.find(':'), b = arg.find(':', a + 1);
      if (a == std::string::npos || b == std::string::npos) {
        std::fprintf(stderr, "usage: %s [--dir DIR] [--reps N] [--n IDS] V:d:F32|BF16...\n",
                     argv[0]);
        return 2;
      }
      shapes.push_back({std::stoll(arg.substr(0, a)), std::stoll(arg.substr(a + 1, b - a - 1)),
                        arg.substr(b + 1)});
    }
  }
  if (shapes.empty()) shapes = {{50257, 768, "F32"}, {151936, 1024, "BF16"}};
  std::printf(
      "| table | n | streamed (s) | sequential read (s) | GEMM (s) | (read + GEMM) / streamed |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  for (const Shape& s : shapes) measure(dir, s, n, reps);
  return 0;
}
