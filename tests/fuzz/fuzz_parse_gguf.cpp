// libFuzzer target: the GGUF reader on any bytes (taken as a whole file) returns a header and
// tables or throws InputError with a message; it never crashes, reads out of bounds or allocates
// what the file cannot hold. What it returns must agree with the file: the data section aligned
// and inside it, each tensor's bytes inside the data section, and each table's two routes (the
// lookup of a few rows, the streamed one-hot product) equal, decoding the blocks each needs: the
// lookup its rows', the product every row's once.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "embedlab/byte_source.hpp"
#include "embedlab/encoding.hpp"
#include "embedlab/error.hpp"
#include "embedlab/float_bits.hpp"
#include "embedlab/gguf.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/streamed.hpp"
#include "fuzz_check.hpp"

using embedlab::fuzz::require;

namespace {

void check_routes(const embedlab::GgufTable& t) {
  const embedlab::Table& w = t.table;
  require(w.rows() == static_cast<embedlab::Index>(t.tensor.ne[1]) &&
              w.cols() == static_cast<embedlab::Index>(t.tensor.ne[0]),
          "the table is (V, d) for ne = [d, V]");
  require(w.stored_bytes() == t.tensor.end - t.tensor.begin, "the table is the tensor's bytes");
  const embedlab::Ids ids = {w.rows() - 1, 0, w.rows() / 2};
  const std::uint64_t start = w.blocks_decoded();
  const embedlab::Matrix rows = embedlab::lookup(w, ids);
  const std::uint64_t lookup = w.blocks_decoded() - start;
  embedlab::StreamedProduct product(w, embedlab::one_hot_encoding(ids, w.rows()));
  product.run();
  const std::uint64_t all = w.blocks_decoded() - start - lookup;
  // Bit-identical, but for the sign of zero (a block with a negative scale holds -0.0, which the
  // product adds onto +0.0) and NaN, which 0 * Inf elsewhere in W's column makes.
  const embedlab::Matrix& sums = product.result();
  for (embedlab::Index i = 0; i < rows.size(); ++i) {
    const float x = rows.data()[i], y = sums.data()[i];
    require(embedlab::float_bits(x) == embedlab::float_bits(y) ||
                (x == 0.0f && embedlab::float_bits(y) == 0) || std::isnan(y),
            "the lookup and the product agree");
  }
  const auto per_row = static_cast<std::uint64_t>(w.cols() / embedlab::block_values(w.dtype()));
  if (w.dtype() != embedlab::StoredFloat::f32) {
    require(lookup == ids.size() * per_row, "the lookup decodes its rows' blocks");
    require(all == static_cast<std::uint64_t>(w.rows()) * per_row,
            "the product decodes every block once");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto source =
      embedlab::memory_source(std::string(reinterpret_cast<const char*>(data), size));
  embedlab::Limits limits;
  limits.max_vocab = 1 << 12;  // small, so that fuzzed shapes reach the limits
  limits.max_dim = 1 << 10;
  limits.max_elements = 1 << 16;
  embedlab::GgufHeader header;
  try {
    header = embedlab::read_gguf_header(*source);
  } catch (const embedlab::InputError& e) {
    require(e.what()[0] != '\0', "an InputError has a message");
    require(e.argument() == embedlab::Argument::weights, "a file's errors are about weights");
    return 0;
  }
  require(header.version == 2 || header.version == 3, "only versions 2 and 3 are read");
  require(header.data_start <= size && header.data_start % header.alignment == 0,
          "the data section is aligned and inside the file");
  for (const embedlab::GgufTensor& t : header.tensors) {
    require(header.data_start <= t.begin && t.begin <= t.end && t.end <= size,
            "a tensor's bytes are inside the data section");
    require((t.begin - header.data_start) % header.alignment == 0, "a tensor's data is aligned");
    require(!t.ne.empty() && t.ne.size() <= 4, "a tensor has 1 to 4 dimensions");
  }

  std::vector<std::string> names{""};
  for (const auto& t : header.tensors) names.push_back(t.name);
  for (const std::string& name : names) {
    try {
      const embedlab::GgufTable t = embedlab::open_gguf_table(source, name, limits);
      require(t.tensor.name == (name.empty() ? "token_embd.weight" : name),
              "the tensor named is the one opened");
      check_routes(t);
    } catch (const embedlab::InputError& e) {
      require(e.what()[0] != '\0', "an InputError has a message");
    }
  }
  return 0;
}
