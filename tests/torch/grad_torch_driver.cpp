// Runs gradient, max_norm and EmbeddingBag commands through embedlab and writes every result
// as raw little-endian float32 to stdout, for test_grad_vs_torch.py to compare with PyTorch.
//
// One command per line on stdin; matrices come in .npy files (2-D float32), lists as numbers:
//   backward V PAD SGF G.npy ID...          embedding_backward -> (V, d)
//   onehot_backward V G.npy ID...           onehot_backward(one_hot(ids, V), G) -> (V, d)
//   renorm MAX P W.npy ID...                embedding_renorm_ -> W (V, d), then lookup (n, d)
//   norm P W.npy                            row_norm of every row -> (V)
//   bag MODE ILO PAD SGF W.npy G.npy PSW | ID... | OFFSET...
//        embedding_bag -> output (B, d), then embedding_bag_backward with G -> (V, d)
//   bag_matrix MODE ILO PAD V PSW | ID... | OFFSET...    bag_matrix -> (B, V)
// PAD is a padding_idx or "none"; SGF and ILO are 0 or 1; PSW is a .npy file (1, n) or "none".
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "driver_io.hpp"
#include "embedlab/backward.hpp"
#include "embedlab/embedding_bag.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/max_norm.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/onehot.hpp"

namespace {

using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;

using driver::write;

template <typename T>
T read(std::istringstream& in, const std::string& line) {
  T value{};
  if (!(in >> value)) throw std::runtime_error("malformed command: " + line);
  return value;
}

// Through std::stod, which reads "inf" (operator>> does not).
double read_double(std::istringstream& in, const std::string& line) {
  return std::stod(read<std::string>(in, line));
}

std::optional<Index> read_padding(std::istringstream& in, const std::string& line) {
  const auto word = read<std::string>(in, line);
  if (word == "none") return std::nullopt;
  return std::stoll(word);
}

// Integers up to the next "|" or the end of the line.
Ids read_list(std::istringstream& in) {
  Ids list;
  std::string word;
  while (in >> word && word != "|") list.push_back(std::stoll(word));
  return list;
}

// MODE ILO PAD, which bag and bag_matrix begin with.
embedlab::BagOptions read_bag_options(std::istringstream& in, const std::string& line) {
  embedlab::BagOptions options;
  options.mode = embedlab::parse_bag_mode(read<std::string>(in, line));
  options.include_last_offset = read<int>(in, line) != 0;
  options.padding_idx = read_padding(in, line);
  return options;
}

void read_weights(std::istringstream& in, const std::string& line, embedlab::BagOptions& options) {
  const auto file = read<std::string>(in, line);
  if (file != "none") {
    const Matrix w = embedlab::load_npy(file);
    options.per_sample_weights.assign(w.data(), w.data() + w.size());
  }
  if (read<std::string>(in, line) != "|") throw std::runtime_error("expected | in: " + line);
}

void run_line(const std::string& line) {
  std::istringstream in(line);
  std::string op;
  if (!(in >> op)) return;
  if (op == "backward") {
    const auto vocab = read<Index>(in, line);
    embedlab::EmbeddingOptions options;
    options.padding_idx = read_padding(in, line);
    options.scale_grad_by_freq = read<int>(in, line) != 0;
    const Matrix grad = embedlab::load_npy(read<std::string>(in, line));
    write(embedlab::embedding_backward(read_list(in), grad, vocab, options));
  } else if (op == "onehot_backward") {
    const auto vocab = read<Index>(in, line);
    const Matrix grad = embedlab::load_npy(read<std::string>(in, line));
    write(embedlab::onehot_backward(embedlab::one_hot(read_list(in), vocab), grad));
  } else if (op == "renorm") {
    const auto max_norm = read_double(in, line);
    const auto norm_type = read_double(in, line);
    Matrix weight = embedlab::load_npy(read<std::string>(in, line));
    const Ids ids = read_list(in);
    embedlab::embedding_renorm(weight, ids, max_norm, norm_type);
    write(weight);
    write(embedlab::lookup(weight, ids));
  } else if (op == "norm") {
    const auto norm_type = read_double(in, line);
    const Matrix weight = embedlab::load_npy(read<std::string>(in, line));
    for (Index i = 0; i < weight.rows(); ++i) {
      const float norm = embedlab::row_norm(weight.row(i).data(), weight.cols(), norm_type);
      write(&norm, 1);
    }
  } else if (op == "bag") {
    auto options = read_bag_options(in, line);
    options.scale_grad_by_freq = read<int>(in, line) != 0;
    const Matrix weight = embedlab::load_npy(read<std::string>(in, line));
    const Matrix grad = embedlab::load_npy(read<std::string>(in, line));
    read_weights(in, line, options);
    const Ids ids = read_list(in);
    const Ids offsets = read_list(in);
    const auto forward = embedlab::embedding_bag(weight, ids, offsets, options);
    write(forward.output);
    write(embedlab::embedding_bag_backward(ids, offsets, grad, forward, weight.rows(), options));
  } else if (op == "bag_matrix") {
    auto options = read_bag_options(in, line);
    const auto vocab = read<Index>(in, line);
    read_weights(in, line, options);
    const Ids ids = read_list(in);
    write(embedlab::bag_matrix(ids, read_list(in), vocab, options));
  } else {
    throw std::runtime_error("unknown command: " + line);
  }
}

}  // namespace

int main() { return driver::run_commands("grad_torch_driver", run_line); }
