// Trains next-token prediction through embedlab's head (next_token.hpp) and writes every result
// as raw little-endian float32 to stdout, for test_objective_vs_torch.py to compare with PyTorch.
//
// One command per line on stdin, its arguments NAME=VALUE:
//   train seed=S V=V d=D head=tied|untied kind=sgd|adam|... lr=LR momentum=M batches=1,2,3;3,3,0
// writes embedding.weight (V, d) and head.weight (V, d) as drawn, then for each batch: loss,
// logits (n, V), embedding.weight after the step, head.weight after it, and V flags (1: the step
// changed that row of embedding.weight).
//   windows seed=S V=V d=D head=... kind=... lr=LR momentum=M positions=0|1 max_length=T
//           stride=S batch_size=B shuffle=0|1 steps=K ids=1,2,3,...
// the chapter's loop (window_training.hpp): tok.weight, pos.weight (with positions) and
// head.weight as drawn, then for each of K steps: the batch's B window indices, loss, logits
// (B * T, V), tok.weight, pos.weight and head.weight after the step, V flags of tok.weight's
// changed rows and V of their roles (0 none, 1 input, 2 target, 3 both).
//   loader n=N max_length=T stride=S batch_size=B shuffle=0|1 seed=S epochs=E
// the DataLoader's order alone, from torch.manual_seed(S): each epoch's window indices.
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver_io.hpp"
#include "embedlab/data_loader.hpp"
#include "embedlab/next_token.hpp"
#include "embedlab/window_training.hpp"

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

using Args = std::map<std::string, std::string>;

embedlab::Ids ids_of(const std::string& text) {
  embedlab::Ids ids;
  for (const std::string& id : split(text, ',')) ids.push_back(std::stoll(id));
  return ids;
}

embedlab::OptimizerOptions optimizer_of(const Args& arg) {
  embedlab::OptimizerOptions o =
      embedlab::optimizer_defaults(embedlab::parse_optimizer(arg.at("kind")));
  o.lr = std::stod(arg.at("lr"));
  if (o.kind == embedlab::OptimizerKind::sgd) o.momentum = std::stod(arg.at("momentum"));
  return o;
}

embedlab::LoaderOptions loader_of(const Args& arg) {
  embedlab::LoaderOptions loader;
  loader.max_length = std::stoll(arg.at("max_length"));
  loader.stride = std::stoll(arg.at("stride"));
  loader.batch_size = std::stoll(arg.at("batch_size"));
  loader.shuffle = arg.at("shuffle") == "1";
  return loader;
}

void write_ids(const embedlab::Ids& ids) {
  std::vector<float> values(ids.begin(), ids.end());
  write(values.data(), static_cast<Index>(values.size()));
}

void train(const Args& arg) {
  const Index vocab = std::stoll(arg.at("V"));
  auto run = embedlab::NextTokenTraining::seeded(
      std::stoll(arg.at("seed")), vocab, std::stoll(arg.at("d")),
      embedlab::parse_head_kind(arg.at("head")), optimizer_of(arg));
  write(run.embedding_weight());
  write(run.head_weight());
  for (const std::string& batch : split(arg.at("batches"), ';')) {
    const embedlab::NextTokenStep step = run.step(ids_of(batch));
    write(&step.loss, 1);
    write(step.logits);
    write(run.embedding_weight());
    write(run.head_weight());
    std::vector<float> changed(static_cast<std::size_t>(vocab), 0.0f);
    for (const auto& c : step.changed) changed[static_cast<std::size_t>(c.row)] = 1.0f;
    write(changed.data(), vocab);
  }
}

void windows(const Args& arg) {
  const Index vocab = std::stoll(arg.at("V"));
  // The head is drawn tied or not; untied, the driver writes it as drawn.
  auto run = embedlab::WindowTraining::seeded(
      std::stoll(arg.at("seed")), vocab, std::stoll(arg.at("d")),
      embedlab::parse_head_kind(arg.at("head")), optimizer_of(arg), arg.at("positions") == "1",
      ids_of(arg.at("ids")), loader_of(arg));
  const auto& model = run.model();
  write(model.embedding_weight());
  write(model.position_weight());
  write(model.head_weight());
  for (Index k = std::stoll(arg.at("steps")); k > 0; --k) {
    const embedlab::WindowStep s = run.step();
    write_ids(s.batch.windows);
    write(&s.step.loss, 1);
    write(s.step.logits);
    write(model.embedding_weight());
    write(model.position_weight());
    write(model.head_weight());
    std::vector<float> changed(static_cast<std::size_t>(vocab), 0.0f);
    std::vector<float> roles(static_cast<std::size_t>(vocab), 0.0f);
    for (const auto& c : s.step.changed) {
      changed[static_cast<std::size_t>(c.row)] = 1.0f;
      roles[static_cast<std::size_t>(c.row)] = static_cast<float>(c.role);
    }
    write(changed.data(), vocab);
    write(roles.data(), vocab);
  }
}

void loader(const Args& arg) {
  embedlab::Ids ids(static_cast<std::size_t>(std::stoll(arg.at("n"))), 0);
  embedlab::DataLoader data(ids, loader_of(arg));
  embedlab::TorchGenerator global(std::stoll(arg.at("seed")));
  const Index steps = std::stoll(arg.at("epochs")) * data.batches_per_epoch();
  for (Index k = 0; k < steps; ++k) write_ids(data.next(global).windows);
}

void run_line(const std::string& line) {
  std::istringstream in(line);
  std::string op, word;
  if (!(in >> op)) return;
  Args arg;
  while (in >> word) {
    const auto eq = word.find('=');
    if (eq == std::string::npos) throw std::runtime_error("expected NAME=VALUE, got " + word);
    arg[word.substr(0, eq)] = word.substr(eq + 1);
  }
  if (op == "train") {
    train(arg);
  } else if (op == "windows") {
    windows(arg);
  } else if (op == "loader") {
    loader(arg);
  } else {
    throw std::runtime_error("unknown command: " + line);
  }
}

}  // namespace

int main() { return driver::run_commands("objective_torch_driver", run_line); }
