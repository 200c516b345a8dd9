// Runs the positions and the tied head through embedlab and writes every result as raw
// little-endian float32 to stdout, for test_positions_vs_torch.py to compare with PyTorch.
//
// One command per line on stdin:
//   head S V D C B T BLOCK ID...   torch.manual_seed(S); token table (V, D); position table
//                                  (C, D); inputs (B, T); writes input_embeddings (B*T, D), then
//                                  out_head(input_embeddings) (B*T, V) streamed BLOCK rows of W
//                                  at a time (0: the default), then the top-5 of each row as
//                                  (id, logit) pairs of floats
#include <sstream>
#include <stdexcept>
#include <string>

#include "driver_io.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/positions.hpp"
#include "embedlab/tied_head.hpp"

namespace {

using embedlab::Index;

Index read_index(std::istringstream& in, const std::string& line) {
  long long value = 0;
  if (!(in >> value)) throw std::runtime_error("expected an integer in: " + line);
  return value;
}

void run_line(const std::string& line) {
  std::istringstream in(line);
  std::string op;
  if (!(in >> op)) return;
  if (op != "head") throw std::runtime_error("unknown command: " + line);
  const auto seed = read_index(in, line), vocab = read_index(in, line), dim = read_index(in, line),
             context = read_index(in, line), rows = read_index(in, line),
             length = read_index(in, line), block = read_index(in, line);
  embedlab::Ids ids;
  for (Index k = 0; k < rows * length; ++k) ids.push_back(read_index(in, line));
  auto tables = embedlab::seeded_position_tables(seed, vocab, dim, context);
  const embedlab::Table token(std::move(tables.token)), position(std::move(tables.position));
  const embedlab::Matrix h = embedlab::add_positions(embedlab::lookup(token, ids),
                                                     embedlab::position_rows(position, length));
  driver::write(h);
  embedlab::HeadOptions options;
  options.whole = true;
  options.block_rows = block;
  embedlab::StreamedHead head(token, h, options);
  head.run();
  driver::write(head.logits());
  for (const auto& top : head.top()) {
    for (const auto& t : top) {
      const float pair[2] = {static_cast<float>(t.id), t.logit};
      driver::write(pair, 2);
    }
  }
}

}  // namespace

int main() { return driver::run_commands("head_torch_driver", run_line); }
