// Trains next-token prediction through embedlab's head (next_token.hpp) and writes every result
// as raw little-endian float32 to stdout, for test_objective_vs_torch.py to compare with PyTorch.
//
// One command per line on stdin, its arguments NAME=VALUE:
//   train seed=S V=V d=D head=tied|untied kind=sgd|adam|... lr=LR momentum=M batches=1,2,3;3,3,0
// writes embedding.weight (V, d) and head.weight (V, d) as drawn, then for each batch: loss,
// logits (n, V), embedding.weight after the step, head.weight after it, and V flags (1: the step
// changed that row of embedding.weight).
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver_io.hpp"
#include "embedlab/next_token.hpp"

namespace {

using driver::write;
using embedlab::Index;

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

void run_line(const std::string& line) {
  std::istringstream in(line);
  std::string op, word;
  if (!(in >> op)) return;
  if (op != "train") throw std::runtime_error("unknown command: " + line);
  std::map<std::string, std::string> arg;
  while (in >> word) {
    const auto eq = word.find('=');
    if (eq == std::string::npos) throw std::runtime_error("expected NAME=VALUE, got " + word);
    arg[word.substr(0, eq)] = word.substr(eq + 1);
  }
  embedlab::OptimizerOptions o =
      embedlab::optimizer_defaults(embedlab::parse_optimizer(arg.at("kind")));
  o.lr = std::stod(arg.at("lr"));
  if (o.kind == embedlab::OptimizerKind::sgd) o.momentum = std::stod(arg.at("momentum"));
  const Index vocab = std::stoll(arg.at("V"));
  auto run = embedlab::NextTokenTraining::seeded(std::stoll(arg.at("seed")), vocab,
                                                 std::stoll(arg.at("d")),
                                                 embedlab::parse_head_kind(arg.at("head")), o);
  write(run.embedding_weight());
  write(run.head_weight());
  for (const std::string& batch : split(arg.at("batches"), ';')) {
    embedlab::Ids ids;
    for (const std::string& id : split(batch, ',')) ids.push_back(std::stoll(id));
    const embedlab::NextTokenStep step = run.step(ids);
    write(&step.loss, 1);
    write(step.logits);
    write(run.embedding_weight());
    write(run.head_weight());
    std::vector<float> changed(static_cast<std::size_t>(vocab), 0.0f);
    for (const auto& c : step.changed) changed[static_cast<std::size_t>(c.row)] = 1.0f;
    write(changed.data(), vocab);
  }
}

}  // namespace

int main() { return driver::run_commands("objective_torch_driver", run_line); }
