#include "train_walkthrough.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <utility>
#include <vector>

#include "embedlab/compare.hpp"
#include "embedlab/data_loader.hpp"
#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/next_token.hpp"
#include "embedlab/training.hpp"
#include "embedlab/training_run.hpp"
#include "embedlab/window_training.hpp"
#include "walkthrough_steps.hpp"

namespace embedlab::cli {
namespace {

// "0.9,0.999" -> {0.9, 0.999}
std::pair<double, double> parse_betas(const std::string& text) {
  const auto comma = text.find(',');
  const auto number = [&](const std::string& part, double& value) {
    char* end = nullptr;
    value = std::strtod(part.c_str(), &end);
    return !part.empty() && end != part.c_str() && *end == '\0';
  };
  std::pair<double, double> betas;
  if (comma == std::string::npos || !number(text.substr(0, comma), betas.first) ||
      !number(text.substr(comma + 1), betas.second)) {
    throw InputError(Argument::betas,
                     "--betas takes two numbers B1,B2, e.g. 0.9,0.999, got '" + text + "'");
  }
  return betas;
}

// PyTorch's defaults for the optimizer, with what was typed on top.
OptimizerOptions optimizer_options(const TrainOptions& o) {
  OptimizerOptions options = optimizer_defaults(parse_optimizer(o.optimizer));
  const std::pair<Argument, std::optional<double>> numbers[] = {
      {Argument::lr, o.lr},
      {Argument::momentum, o.momentum},
      {Argument::dampening, o.dampening},
      {Argument::weight_decay, o.weight_decay},
      {Argument::eps, o.eps},
      {Argument::lr_decay, o.lr_decay},
      {Argument::initial_accumulator_value, o.initial_accumulator_value},
      {Argument::alpha, o.alpha}};
  for (const auto& [argument, given] : numbers)
    if (given) set_optimizer_option(options, argument, *given);
  const std::pair<Argument, bool> flags[] = {{Argument::nesterov, o.nesterov},
                                             {Argument::maximize, o.maximize},
                                             {Argument::amsgrad, o.amsgrad},
                                             {Argument::centered, o.centered}};
  for (const auto& [argument, given] : flags)
    if (given) set_optimizer_option(options, argument, 1.0);
  if (!o.betas.empty()) {
    const auto [beta1, beta2] = parse_betas(o.betas);
    set_optimizer_betas(options, beta1, beta2);
  }
  return options;
}

// "[[1, 2], [3, 3]]"
std::string batches_text(const std::vector<Ids>& batches) {
  std::string s = "[";
  for (std::size_t b = 0; b < batches.size(); ++b)
    s += (b ? ", [" : "[") + list_text(batches[b]) + "]";
  return s + "]";
}

// ", padding_idx=1, sparse=True": the nn.Embedding arguments the options stand for.
std::string module_arguments(const TrainOptions& o) {
  std::string s;
  if (o.padding_idx) s += ", padding_idx=" + std::to_string(*o.padding_idx);
  if (o.sparse) s += ", sparse=True";
  return s;
}

// "# step 2 changed rows 1, 2 (momentum), 3 (in the batch)": ascending, each run of rows that
// changed for the same reason followed by the reason, a run of kRowRun or more consecutive rows
// written first..last ("0..11, 13..24 (the tied head)"); `where` follows the step's number.
// A tied head changes all V rows every step: runs this long are written as a range.
constexpr std::size_t kRowRun = 10;

std::string changed_text(Index step, const std::vector<ChangedRow>& changed,
                         const std::string& where = "") {
  std::string s = "# step " + std::to_string(step) + where + " changed ";
  if (changed.empty()) return s + "no row";
  s += changed.size() == 1 ? "row " : "rows ";
  const auto why = [](const ChangedRow& c) { return changed_row_text(c.cause, c.role); };
  for (std::size_t i = 0; i < changed.size();) {
    // Rows i..j - 1: consecutive, for the same reason.
    std::size_t j = i + 1;
    while (j < changed.size() && changed[j].row == changed[j - 1].row + 1 &&
           why(changed[j]) == why(changed[i]))
      ++j;
    const auto run_of = [&](std::size_t a, std::size_t b) {
      std::string t = std::to_string(changed[a].row);
      if (b - a >= kRowRun) return t + ".." + std::to_string(changed[b - 1].row);
      for (std::size_t k = a + 1; k < b; ++k) t += ", " + std::to_string(changed[k].row);
      return t;
    };
    s += (i ? ", " : "") + run_of(i, j);
    if (j == changed.size() || why(changed[j]) != why(changed[i]))
      s += " (" + why(changed[i]) + ")";
    i = j;
  }
  return s;
}

// "[1, 2]": the rows of W the lookup's gradient reaches.
std::string rows_text(const Ids& inputs) { return "[" + list_text(distinct_ids(inputs)) + "]"; }

// What --head trains: a seeded nn.Embedding(V, d) as it is.
void check_head_options(const Input& t, const TrainOptions& o) {
  if (o.sparse || o.padding_idx) {
    throw InputError(o.sparse ? Argument::optimizer : Argument::padding_idx,
                     "--head trains nn.Embedding(V, d) as it is: leave --sparse and "
                     "--padding-idx out");
  }
  if (t.kind != TableKind::seeded) {
    throw InputError(Argument::weights,
                     "--head trains a seeded table (the untied head is drawn "
                     "right after it from the same seed): leave --weights and "
                     "--tf-weights out");
  }
}

// The loader --max-length and its companions describe.
LoaderOptions loader_options(const TrainOptions& o) {
  LoaderOptions loader;
  loader.max_length = *o.max_length;
  loader.stride = o.stride.value_or(loader.max_length);
  loader.batch_size = o.batch_size.value_or(1);
  loader.shuffle = o.shuffle;
  return loader;
}

// The tied or untied head's words on what a step's gradient reached.
void print_head_note(std::ostream& text, const NextTokenStep& step, HeadKind kind,
                     const std::string& table, const std::string& vocab) {
  if (kind == HeadKind::tied) {
    text << "# tied: " << table << ".weight.grad is the lookup's gradient, rows "
         << rows_text(step.inputs)
         << ", plus the head's, dlogits.T @ h, which the softmax over all " << vocab
         << " tokens gives every row\n\n";
  } else {
    text << "# untied: the lookup's gradient reaches rows " << rows_text(step.inputs)
         << " only; the head's own weight takes the softmax's gradient ("
         << step.head_changed.size() << " of its " << vocab << " rows changed)\n\n";
  }
}

// --head without --max-length: one sequence per batch, inputs seq[:-1], targets seq[1:]
// (next_token.hpp); each step's loss and W after it, the rows that changed and why.
void print_sequences_walkthrough(const Input& t, const std::vector<Ids>& batches,
                                 const TrainOptions& o, const OptimizerOptions& optimizer,
                                 std::ostream& out) {
  const HeadKind kind = parse_head_kind(o.head);
  const Index d = t.weight.cols();
  NextTokenTraining run = NextTokenTraining::seeded(t.seed, t.vocab, d, kind, optimizer);
  const bool tied = kind == HeadKind::tied;
  const std::string vocab = std::to_string(t.vocab), shape = vocab + ", " + std::to_string(d);

  std::ostringstream text;
  text << "# torch.manual_seed(" << t.seed << "); embedding = torch.nn.Embedding(" << shape
       << ")\n# head = torch.nn.Linear(" << d << ", " << vocab << ", bias=False)\n";
  if (tied) text << "# head.weight = embedding.weight\n";
  text << "# opt = "
       << optimizer_code(optimizer, tied ? "embedding.parameters()"
                                         : "list(embedding.parameters()) + list(head.parameters())")
       << "\n# batches = " << batches_text(batches) << "; V, d = " << shape << "\n\n";
  text << "# each batch is a sequence: the inputs are its ids but the last, the targets its ids "
          "but the first\n\n";
  print_step(text, "embedding.weight", format_tensor(run.embedding_weight(), parameter_style()));
  if (!tied) print_step(text, "head.weight", format_tensor(run.head_weight(), parameter_style()));
  for (const Ids& batch : batches) {
    const NextTokenStep step = run.step(batch);
    print_step(text,
               "seq = torch.tensor([" + list_text(batch) +
                   "]); opt.zero_grad(); loss = torch.nn.functional.cross_entropy(head(embedding("
                   "seq[:-1])), seq[1:]); loss.item()",
               python_float_text(step.loss));
    print_step(text, "loss.backward(); opt.step(); embedding.weight",
               format_tensor(run.embedding_weight(), parameter_style()));
    text << changed_text(step.step, step.changed) << "\n";
    print_head_note(text, step, kind, "embedding", vocab);
    if (!tied) print_step(text, "head.weight", format_tensor(run.head_weight(), parameter_style()));
  }
  out << text.str();
}

// A batch of ids (B, T) as torch prints an int64 tensor.
std::string ids_tensor(const Ids& ids, Index rows) {
  const Index cols = static_cast<Index>(ids.size()) / rows;
  Matrix m(rows, cols);
  for (Index i = 0; i < m.size(); ++i)
    m.data()[i] = static_cast<float>(ids[static_cast<std::size_t>(i)]);
  return format_tensor(m, integer_style());
}

// --head with --max-length: the chapter's program on one sequence's windows (window_training.hpp):
// the program as comments that run, each step's loss.item() on a line of its own, then each step
// as it prints in PyTorch, with the rows it changed and why.
void print_windows_walkthrough(const Input& t, const Ids& ids, const TrainOptions& o,
                               const OptimizerOptions& optimizer, std::ostream& out) {
  const HeadKind kind = parse_head_kind(o.head);
  const LoaderOptions loader = loader_options(o);
  const Index epochs = o.epochs.value_or(1);
  check_epochs(epochs);
  const Index d = t.weight.cols();
  WindowTraining run =
      WindowTraining::seeded(t.seed, t.vocab, d, kind, optimizer, o.positions, ids, loader);
  const DataLoader& data = run.loader();
  const Index steps = epochs * data.batches_per_epoch();
  const bool tied = kind == HeadKind::tied;
  const std::string vocab = std::to_string(t.vocab), dim = std::to_string(d);
  const std::string length = std::to_string(loader.max_length);
  std::string params = "[tok.weight";
  if (o.positions) params += ", pos.weight";
  if (!tied) params += ", head.weight";
  params += "]";

  std::ostringstream text;
  text << "# torch.manual_seed(" << t.seed << ")\n# tok = torch.nn.Embedding(" << vocab << ", "
       << dim << ")\n";
  if (o.positions) text << "# pos = torch.nn.Embedding(" << length << ", " << dim << ")\n";
  text << "# head = torch.nn.Linear(" << dim << ", " << vocab << ", bias=False)\n";
  if (tied) text << "# head.weight = tok.weight\n";
  text << "# ids = [" << list_text(ids) << "]\n"
       << "# dataset = [(torch.tensor(ids[i:i + " << length << "]), torch.tensor(ids[i + 1:i + "
       << loader.max_length + 1 << "])) for i in range(0, len(ids) - " << length << ", "
       << loader.stride << ")]\n"
       << "# loader = torch.utils.data.DataLoader(dataset, batch_size=" << loader.batch_size
       << ", shuffle=" << (loader.shuffle ? "True" : "False") << ", drop_last=True)\n"
       << "# opt = " << optimizer_code(optimizer, params) << "\n"
       << "# batches = (batch for epoch in range(" << epochs << ") for batch in loader)\n\n";
  const Index dropped = data.windows() % loader.batch_size;
  text << "# " << data.windows() << (data.windows() == 1 ? " window" : " windows")
       << " of max_length = " << length << " ids (stride " << loader.stride << ") in "
       << data.batches_per_epoch() << (data.batches_per_epoch() == 1 ? " batch" : " batches")
       << " of " << loader.batch_size << " an epoch";
  if (dropped > 0) text << " (drop_last=True leaves " << dropped << " out)";
  text << ", " << epochs << (epochs == 1 ? " epoch" : " epochs") << ": " << steps
       << (steps == 1 ? " step" : " steps") << ", each step's loss.item():\n";

  // The steps run first (each can only fail before any is taken), their printout kept.
  std::ostringstream steps_text;
  const std::string h = o.positions ? "tok(x) + pos(torch.arange(" + length + "))" : "tok(x)";
  print_step(steps_text, "tok.weight",
             format_tensor(run.model().embedding_weight(), parameter_style()));
  if (o.positions)
    print_step(steps_text, "pos.weight",
               format_tensor(run.model().position_weight(), parameter_style()));
  for (Index k = 0; k < steps; ++k) {
    const WindowStep s = run.step();
    text << python_float_text(s.step.loss) << "\n";
    print_step(steps_text, "x, y = next(batches); x",
               ids_tensor(s.batch.inputs.ids, s.batch.inputs.rows));
    print_step(steps_text, "y", ids_tensor(s.batch.targets, s.batch.inputs.rows));
    print_step(steps_text,
               "loss = torch.nn.functional.cross_entropy(head(" + h +
                   ").flatten(0, 1), y.flatten()); loss.item()",
               python_float_text(s.step.loss));
    print_step(steps_text, "opt.zero_grad(); loss.backward(); opt.step(); tok.weight",
               format_tensor(run.model().embedding_weight(), parameter_style()));
    steps_text << changed_text(s.step.step, s.step.changed,
                               " (epoch " + std::to_string(s.batch.epoch) + ", batch " +
                                   std::to_string(s.batch.batch) + ": windows [" +
                                   list_text(s.batch.windows) + "])")
               << "\n";
    print_head_note(steps_text, s.step, kind, "tok", vocab);
  }
  out << text.str() << "\n" << steps_text.str();
}

// The loader's options go together: --max-length with --head and one sequence; --stride,
// --batch-size, --shuffle, --epochs and --positions with --max-length. The windows are checked
// against the sequence here, before the table is drawn.
void check_loader_flags(const TrainOptions& o, const std::vector<Ids>& batches) {
  if (!o.max_length) {
    if (o.stride || o.batch_size || o.shuffle || o.epochs || o.positions) {
      throw InputError(Argument::max_length,
                       "--stride, --batch-size, --shuffle, --epochs and --positions describe "
                       "the windows --max-length cuts the sequence into: give --max-length");
    }
    return;
  }
  if (o.head.empty()) {
    throw InputError(Argument::max_length,
                     "--max-length cuts the sequence into windows whose next tokens a head "
                     "predicts: give --head tied or --head untied");
  }
  if (batches.size() != 1) {
    throw InputError(Argument::ids,
                     "--max-length cuts one sequence into windows: give --ids "
                     "one sequence, without ';' (got " +
                         std::to_string(batches.size()) + " batches)");
  }
  check_loader(static_cast<Index>(batches[0].size()), loader_options(o));
  if (o.epochs) check_epochs(*o.epochs);
}

}  // namespace

void add_train_options(CLI::App& command, TrainOptions& options) {
  command
      .add_option("--optimizer", options.optimizer,
                  "sgd, adam, adamw, adagrad, rmsprop or sparse-adam (torch.optim's SGD, Adam, "
                  "AdamW, Adagrad, RMSprop, SparseAdam)")
      ->capture_default_str();
  command.add_option("--lr", options.lr,
                     "learning rate (default: PyTorch's for the optimizer; 0.1 for SGD)");
  command.add_option("--momentum", options.momentum, "SGD, RMSprop");
  command.add_option("--dampening", options.dampening, "SGD");
  command.add_flag("--nesterov", options.nesterov, "SGD: Nesterov momentum");
  command.add_option("--weight-decay", options.weight_decay,
                     "L2 penalty (AdamW: decoupled weight decay); not SparseAdam");
  command.add_option("--betas", options.betas, "Adam, AdamW, SparseAdam: B1,B2, e.g. 0.9,0.999");
  command.add_option("--eps", options.eps, "Adam, AdamW, Adagrad, RMSprop, SparseAdam");
  command.add_flag("--amsgrad", options.amsgrad, "Adam, AdamW");
  command.add_option("--lr-decay", options.lr_decay, "Adagrad");
  command.add_option("--initial-accumulator-value", options.initial_accumulator_value, "Adagrad");
  command.add_option("--alpha", options.alpha, "RMSprop: smoothing constant");
  command.add_flag("--centered", options.centered, "RMSprop");
  command.add_flag("--maximize", options.maximize, "ascend the gradient instead");
  command.add_flag("--sparse", options.sparse,
                   "nn.Embedding(..., sparse=True): a sparse gradient, one entry per id");
  command.add_option("--head", options.head,
                     "tied or untied: train next-token prediction (F.cross_entropy) through "
                     "nn.Linear(d, V, bias=False), its weight the embedding's (tied) or its own "
                     "(untied, drawn right after the table)");
  command.add_option("--max-length", options.max_length,
                     "with --head: cut the one sequence of --ids into the chapter's windows of "
                     "max_length ids (GPTDatasetV1) and train them through a DataLoader");
  command.add_option("--stride", options.stride,
                     "from one window's start to the next's (default: max_length)");
  command.add_option("--batch-size", options.batch_size, "windows a batch (default 1)");
  command.add_flag("--shuffle", options.shuffle,
                   "DataLoader(shuffle=True): the windows in a new order every epoch");
  command.add_option("--epochs", options.epochs, "passes over the windows (default 1)");
  command.add_flag("--positions", options.positions,
                   "add pos = nn.Embedding(max_length, d) at torch.arange(max_length)");
  command.add_option("--padding-idx", options.padding_idx,
                     "nn.Embedding's padding_idx: that row gets no gradient (negative counts "
                     "from the end)");
}

void print_train_walkthrough(const TableOptions& table_options, const TrainOptions& o,
                             std::ostream& out) {
  TrainingOptions options;
  options.optimizer = optimizer_options(o);
  options.sparse = o.sparse;
  options.padding_idx = o.padding_idx;
  const std::vector<Ids> batches = parse_batches(table_options.ids_text);
  Ids all;
  for (const Ids& batch : batches) all.insert(all.end(), batch.begin(), batch.end());
  check_loader_flags(o, batches);
  const Input t = make_input(table_options, all);
  if (!o.head.empty()) {
    check_head_options(t, o);
    if (o.max_length) return print_windows_walkthrough(t, all, o, options.optimizer, out);
    return print_sequences_walkthrough(t, batches, o, options.optimizer, out);
  }
  const Index d = t.weight.cols();
  TrainingRun run = t.kind == TableKind::seeded
                        ? TrainingRun::seeded(t.seed, t.vocab, d, options)
                        : TrainingRun::from_table(t.weight.to_matrix(), options);
  const SideBySideTraining& training = run.training();

  // Everything that can fail runs before anything is printed: the steps go to `text` first.
  std::ostringstream text;
  const std::string vocab = std::to_string(t.vocab);
  const std::string shape = vocab + ", " + std::to_string(d);
  text << "# linear = torch.nn.Linear(" << shape << ", bias=False)\n";
  if (t.kind == TableKind::seeded) {
    text << "# torch.manual_seed(" << t.seed << "); embedding = torch.nn.Embedding(" << shape
         << module_arguments(o) << ")\n";
  } else {
    text << "# W: " << t.origin << "\n# embedding = torch.nn.Embedding.from_pretrained(W, "
         << "freeze=False" << module_arguments(o) << ")\n";
  }
  text << "# with torch.no_grad(): linear.weight.copy_(embedding.weight.T)\n"
       << "# opt_e = " << optimizer_code(options.optimizer, "embedding.parameters()") << "\n";
  if (training.linear_optimizer()) {
    text << "# opt_l = " << optimizer_code(options.optimizer, "linear.parameters()") << "\n";
  }
  text << "# batches = " << batches_text(batches) << "; V, d = " << shape << "\n\n";
  if (!training.linear_optimizer()) {
    text << "# the Linear route cannot follow: "
         << optimizer_code(options.optimizer, "linear.parameters()")
         << " refuses linear.weight's dense gradient: " << training.linear_refusal() << "\n\n";
  }

  print_step(text, "embedding.weight",
             format_tensor(training.embedding_weight(), parameter_style()));
  for (std::size_t b = 0; b < batches.size(); ++b) {
    const Ids& batch = batches[b];
    const DrawnStep drawn = run.step(batch);
    const TrainingStep& step = drawn.step;
    // A given table draws nothing: its first G starts a generator of its own.
    const std::string seed = t.kind != TableKind::seeded && b == 0
                                 ? "torch.manual_seed(" + std::to_string(kNotebookSeed) + "); "
                                 : "";
    print_step(text,
               "idx = torch.tensor([" + list_text(batch) + "]); " + seed + "G = torch.randn(" +
                   std::to_string(batch.size()) + ", " + std::to_string(d) + "); G",
               format_tensor(drawn.upstream));
    print_step(text,
               "opt_e.zero_grad(); embedding(idx).backward(G); opt_e.step(); embedding.weight",
               format_tensor(training.embedding_weight(), parameter_style()));
    text << changed_text(step.step, step.changed) << "\n\n";
    if (!step.verdict) continue;
    print_step(
        text,
        "opt_l.zero_grad(); linear(torch.nn.functional.one_hot(idx, " + vocab +
            ").float()).backward(G); opt_l.step(); "
            "torch.equal(embedding.weight, linear.weight.T)",
        torch_equal(training.embedding_weight(), training.linear_weight()) ? "True" : "False");
    print_verdict(text, "embedding.weight vs linear.weight.T", *step.verdict);
    const Index padding = training.padding_row();
    const auto moved = [&](const auto& rows, auto row_of) {
      return std::any_of(rows.begin(), rows.end(),
                         [&](const auto& r) { return row_of(r) == padding; });
    };
    if (padding >= 0 && moved(step.linear_changed, [](Index r) { return r; }) &&
        !moved(step.changed, [](const ChangedRow& r) { return r.row; })) {
      text << "# the Linear route knows nothing of padding_idx: its row " << padding
           << " moved, the embedding's did not\n";
    }
    text << "\n";
  }
  out << text.str();
}

}  // namespace embedlab::cli
