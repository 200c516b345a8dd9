// Runs training and sort commands through embedlab and writes every result as raw little-endian
// float32 to stdout, for test_optim_vs_torch.py to compare with PyTorch.
//
// One command per line on stdin:
//   sort KEY...     torch_sort_permutation -> one float per key
//   train NAME=VALUE... W=w.npy G=g1.npy,g2.npy,... batches=1,2;3,3;0,1
//       SideBySideTraining over the batches (one G per batch). Names: kind (sgd, adam, ...),
//       sparse (0/1), pad (none or a padding_idx), lr, momentum, dampening, nesterov, wd,
//       maximize, beta1, beta2, eps, amsgrad, lr_decay, iav, alpha, centered.
//       After each step: the embedding's weight and state, then (when it follows) the Linear
//       route's weight and state. A state is, of those the optimizer has made, in this order:
//       step (not for SGD), momentum_buffer (dense; sparse: its rows, then its values), exp_avg,
//       exp_avg_sq, max_exp_avg_sq, sum, square_avg, grad_avg.
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver_io.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/torch_sort.hpp"
#include "embedlab/training.hpp"

namespace {

using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;

using driver::write;
void write(float value) { write(&value, 1); }

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

Ids integers(const std::string& text) {
  Ids ids;
  for (const auto& word : split(text, ',')) ids.push_back(std::stoll(word));
  return ids;
}

void write_state(const embedlab::OptimizerState& s, embedlab::OptimizerKind kind) {
  if (kind != embedlab::OptimizerKind::sgd) write(static_cast<float>(s.step));
  write(s.momentum_buffer);
  if (s.sparse_momentum_buffer.values.cols() > 0) {
    for (const Index row : s.sparse_momentum_buffer.rows) write(static_cast<float>(row));
    write(s.sparse_momentum_buffer.values);
  }
  for (const Matrix* m :
       {&s.exp_avg, &s.exp_avg_sq, &s.max_exp_avg_sq, &s.sum, &s.square_avg, &s.grad_avg}) {
    write(*m);
  }
}

void train(std::istringstream& in) {
  std::map<std::string, std::string> arg;
  std::string word;
  while (in >> word) {
    const auto eq = word.find('=');
    if (eq == std::string::npos) throw std::runtime_error("expected NAME=VALUE, got " + word);
    arg[word.substr(0, eq)] = word.substr(eq + 1);
  }
  auto number = [&](const char* name) { return std::stod(arg.at(name)); };
  auto flag = [&](const char* name) { return arg.at(name) == "1"; };

  embedlab::TrainingOptions options;
  embedlab::OptimizerOptions& o = options.optimizer;
  o.kind = embedlab::parse_optimizer(arg.at("kind"));
  o.lr = number("lr");
  o.momentum = number("momentum");
  o.dampening = number("dampening");
  o.nesterov = flag("nesterov");
  o.weight_decay = number("wd");
  o.maximize = flag("maximize");
  o.beta1 = number("beta1");
  o.beta2 = number("beta2");
  o.eps = number("eps");
  o.amsgrad = flag("amsgrad");
  o.lr_decay = number("lr_decay");
  o.initial_accumulator_value = number("iav");
  o.alpha = number("alpha");
  o.centered = flag("centered");
  options.sparse = flag("sparse");
  if (arg.at("pad") != "none") options.padding_idx = std::stoll(arg.at("pad"));

  embedlab::SideBySideTraining training(embedlab::load_npy(arg.at("W")), options);
  const auto grads = split(arg.at("G"), ',');
  const auto batches = split(arg.at("batches"), ';');
  if (grads.size() != batches.size()) throw std::runtime_error("one G per batch");
  for (std::size_t k = 0; k < batches.size(); ++k) {
    training.step(integers(batches[k]), embedlab::load_npy(grads[k]));
    write(training.embedding_weight());
    write_state(training.embedding_optimizer().state(), o.kind);
    if (training.linear_optimizer()) {
      write(training.linear_weight());
      write_state(training.linear_optimizer()->state(), o.kind);
    }
  }
}

void run_line(const std::string& line) {
  std::istringstream in(line);
  std::string op;
  if (!(in >> op)) return;
  if (op == "sort") {
    std::vector<Index> keys;
    Index key;
    while (in >> key) keys.push_back(key);
    for (const Index position : embedlab::torch_sort_permutation(keys))
      write(static_cast<float>(position));
  } else if (op == "train") {
    train(in);
  } else {
    throw std::runtime_error("unknown command: " + line);
  }
}

}  // namespace

int main() { return driver::run_commands("optim_torch_driver", run_line); }
