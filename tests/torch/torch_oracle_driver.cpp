// Runs a script of initialisations through embedlab and writes every result as raw
// little-endian float32 to stdout, for test_init_vs_torch.py to compare with PyTorch.
//
// One command per line on stdin (the Python side runs the same script in torch):
//   seed S                      torch.manual_seed(S), S a signed 64-bit integer
//   randn R C | rand R C        torch.randn(R, C) / torch.rand(R, C)
//   embedding V D [P]           nn.Embedding(V, D[, padding_idx=P]).weight
//   linear IN OUT bias|nobias   nn.Linear(IN, OUT, bias).weight, then .bias if any
//   lookup ID...                F.embedding(ids, W) with W the last embedding's weight
//   onehot ID...                F.one_hot(ids, V).float() @ W, same W
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "driver_io.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/torch_init.hpp"

namespace {

using driver::write;

embedlab::Index read_index(std::istringstream& in, const std::string& line) {
  long long value = 0;
  if (!(in >> value)) throw std::runtime_error("expected an integer in: " + line);
  return value;
}

void run_line(const std::string& line, embedlab::TorchGenerator& gen, embedlab::Matrix& table) {
  std::istringstream in(line);
  std::string op;
  if (!(in >> op)) return;
  if (op == "seed") {
    gen.manual_seed(read_index(in, line));
  } else if (op == "randn" || op == "rand") {
    const auto rows = read_index(in, line);
    const auto cols = read_index(in, line);
    write(op == "randn" ? embedlab::torch_randn(gen, rows, cols)
                        : embedlab::torch_rand(gen, rows, cols));
  } else if (op == "embedding") {
    const auto vocab = read_index(in, line);
    const auto dim = read_index(in, line);
    std::optional<embedlab::Index> padding;
    long long p = 0;
    if (in >> p) padding = p;
    table = embedlab::init_embedding(gen, vocab, dim, padding);
    write(table);
  } else if (op == "linear") {
    const auto in_features = read_index(in, line);
    const auto out_features = read_index(in, line);
    std::string bias;
    in >> bias;
    if (bias != "bias" && bias != "nobias") throw std::runtime_error("bias|nobias in: " + line);
    const auto params = embedlab::init_linear(gen, in_features, out_features, bias == "bias");
    write(params.weight);
    write(params.bias);
  } else if (op == "lookup" || op == "onehot") {
    embedlab::Ids ids;
    long long id = 0;
    while (in >> id) ids.push_back(id);
    write(op == "lookup" ? embedlab::lookup(table, ids)
                         : embedlab::onehot_product(embedlab::one_hot(ids, table.rows()), table));
  } else {
    throw std::runtime_error("unknown command: " + line);
  }
}

}  // namespace

int main() {
  embedlab::TorchGenerator gen;
  embedlab::Matrix table;
  return driver::run_commands("torch_oracle_driver",
                              [&](const std::string& line) { run_line(line, gen, table); });
}
