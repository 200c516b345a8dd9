// Embind bindings of training (embedlab/training_run.hpp), wrapped by training.mjs (see
// README.md "Training"):
//   optimizers(), rowCauses()       what the core knows: each optimizer's hyperparameters and
//                                   PyTorch's defaults; why a row changes
//   optimizerCode(optimizer, params), parseBatches(text), checkTraining(vocab, dim, options)
//   seededTraining(seed, vocab, dim, options), tableTraining(W, options) -> a TrainingHandle
//   seededNextTokenTraining(seed, vocab, dim, head, optimizer) -> a NextTokenHandle: next-token
//                                   prediction through a tied or untied head (next_token.hpp);
//                                   each step() returns the loss, both gradients and the
//                                   optimizer's state, for the page to show a row's update
//   checkLoader(n, loader), batchRoles()
//   windowTraining(seed, vocab, dim, ids, options) -> a WindowHandle: the chapter's loop on one
//                                   sequence's windows (window_training.hpp), stepped batch by
//                                   batch, epoch after epoch; predict(k) gives every window
//                                   position's likeliest next tokens
// A TrainingHandle holds both routes and the generator their upstream gradients come from, in
// WASM memory; each step() draws G, steps both routes and returns copies of what changed.
// The wrapper has checked the types of every argument; errors come back as values
// (js_values.hpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "embedlab/compare.hpp"
#include "embedlab/data_loader.hpp"
#include "embedlab/error.hpp"
#include "embedlab/format.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/next_token.hpp"
#include "embedlab/optimizer.hpp"
#include "embedlab/training.hpp"
#include "embedlab/training_run.hpp"
#include "embedlab/verdict.hpp"
#include "embedlab/window_training.hpp"
#include "js_values.hpp"

namespace embedlab {
namespace {

using emscripten::val;
using namespace js;

// The hyperparameter a key of the optimizer object names: its Argument, as the core names it.
Argument hyperparameter(const std::string& key, OptimizerKind kind) {
  for (const Argument a : optimizer_arguments(kind))
    if (argument_name(a) == key) return a;
  for (const Argument a : all_arguments()) {
    if (argument_name(a) != key) continue;
    try {
      option_form(a);
    } catch (const InputError&) {
      break;  // an argument, but no hyperparameter
    }
    return a;  // a hyperparameter of another optimizer: set_optimizer_option says so
  }
  throw InputError(Argument::optimizer, "optimizer." + key + ": torch.optim." +
                                            std::string(optimizer_class(kind)) +
                                            " has no hyperparameter '" + key + "'");
}

// { name, lr, betas: [b1, b2], nesterov: true, ... }: PyTorch's defaults for the named
// optimizer, with each hyperparameter the object holds on top (their types checked).
OptimizerOptions optimizer_from_js(const val& optimizer) {
  OptimizerOptions options =
      optimizer_defaults(parse_optimizer(optimizer["name"].as<std::string>()));
  const auto keys =
      emscripten::vecFromJSArray<std::string>(val::global("Object").call<val>("keys", optimizer));
  for (const std::string& key : keys) {
    if (key == "name") continue;
    const Argument a = hyperparameter(key, options.kind);
    const val value = optimizer[key];
    switch (option_form(a)) {
      case OptionForm::number:
        set_optimizer_option(options, a, value.as<double>());
        break;
      case OptionForm::flag:
        set_optimizer_option(options, a, value.as<bool>() ? 1.0 : 0.0);
        break;
      case OptionForm::pair:
        set_optimizer_betas(options, value[0].as<double>(), value[1].as<double>());
        break;
    }
  }
  return options;
}

// { optimizer, sparse, paddingIdx }, complete from the wrapper.
TrainingOptions training_options_from_js(const val& options) {
  TrainingOptions out;
  out.optimizer = optimizer_from_js(options["optimizer"]);
  out.sparse = options["sparse"].as<bool>();
  out.padding_idx = padding_idx_from_js(options);
  return out;
}

// [{ name, className, arguments: [{ name, form, default, text }] }]: default is a number, a
// boolean, or [beta1, beta2]; text is how Python writes it ("0.001", "1e-08", "0.9, 0.999").
val optimizers_js() {
  val out = val::array();
  for (const OptimizerKind kind : all_optimizers()) {
    const OptimizerOptions defaults = optimizer_defaults(kind);
    val arguments = val::array();
    for (const Argument a : optimizer_arguments(kind)) {
      val argument = val::object();
      argument.set("name", std::string(argument_name(a)));
      switch (option_form(a)) {
        case OptionForm::number:
          argument.set("form", std::string("number"));
          argument.set("default", optimizer_option(defaults, a));
          argument.set("text", python_float_text(optimizer_option(defaults, a)));
          break;
        case OptionForm::flag:
          argument.set("form", std::string("flag"));
          argument.set("default", optimizer_option(defaults, a) != 0.0);
          argument.set("text",
                       std::string(optimizer_option(defaults, a) != 0.0 ? "True" : "False"));
          break;
        case OptionForm::pair: {
          val pair = val::array();
          pair.call<void>("push", defaults.beta1);
          pair.call<void>("push", defaults.beta2);
          argument.set("form", std::string("pair"));
          argument.set("default", pair);
          argument.set(
              "text", python_float_text(defaults.beta1) + ", " + python_float_text(defaults.beta2));
          break;
        }
      }
      arguments.call<void>("push", argument);
    }
    val entry = val::object();
    entry.set("name", std::string(optimizer_name(kind)));
    entry.set("className", std::string(optimizer_class(kind)));
    entry.set("arguments", arguments);
    out.call<void>("push", entry);
  }
  return out;
}

// [{ name, text }] in the core's order: a step's changed.causes index into it.
val row_causes_js() {
  val out = val::array();
  for (const RowCause cause : all_row_causes()) {
    val entry = val::object();
    entry.set("name", std::string(row_cause_name(cause)));
    entry.set("text", std::string(row_cause_text(cause)));
    out.call<void>("push", entry);
  }
  return out;
}

val optimizer_code_js(const val& optimizer, const std::string& params) {
  return guarded([&] {
    const OptimizerOptions options = optimizer_from_js(optimizer);
    check_optimizer_options(options);
    return val(optimizer_code(options, params));
  });
}

// An Array of Float64Arrays, one per batch.
val parse_batches_js(const std::string& text) {
  return guarded([&] {
    const std::vector<Ids> batches = parse_batches(text);
    val out = val::array();
    for (std::size_t b = 0; b < batches.size(); ++b)
      out.call<void>("push", exact_ids_to_js(batches[b], "batch " + std::to_string(b + 1) + ": "));
    return out;
  });
}

val check_training_js(double vocab, double dim, const val& options) {
  return guarded([&] {
    check_training(to_index(vocab, Argument::vocab, "the vocabulary size V"),
                   to_index(dim, Argument::dim, "the embedding dimension d"),
                   training_options_from_js(options));
    return val::undefined();
  });
}

// compare()'s counts of the two weights with the step's grade beside them, as compare() returns.
val step_verdict_js(const SideBySideTraining& training, const Verdict& verdict) {
  val out = comparison_to_js(compare(training.embedding_weight(), training.linear_weight()));
  out.set("grade", verdict_to_js(verdict));
  return out;
}

// Index of each cause in all_row_causes().
val causes_to_js(const std::vector<ChangedRow>& changed) {
  const auto& all = all_row_causes();
  std::vector<std::uint8_t> causes;
  for (const ChangedRow& c : changed)
    causes.push_back(
        static_cast<std::uint8_t>(std::find(all.begin(), all.end(), c.cause) - all.begin()));
  return val::global("Uint8Array")
      .new_(emscripten::typed_memory_view(causes.size(), causes.data()));
}

// Index of each row's role in all_batch_roles().
val roles_to_js(const std::vector<ChangedRow>& changed) {
  std::vector<std::uint8_t> roles;
  for (const ChangedRow& c : changed) roles.push_back(static_cast<std::uint8_t>(c.role));
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(roles.size(), roles.data()));
}

// { rows, causes, roles }: a step's changed rows of embedding.weight, each cause and role an
// index into rowCauses() and batchRoles().
val changed_to_js(const std::vector<ChangedRow>& changed) {
  Ids rows;
  for (const ChangedRow& c : changed) rows.push_back(c.row);
  val out = val::object();
  out.set("rows", int64s_to_js(rows));
  out.set("causes", causes_to_js(changed));
  out.set("roles", roles_to_js(changed));
  return out;
}

// [{ name, text }] in the core's order: what a batch row's role is called, and the words of its
// mark (changed_row_text).
val batch_roles_js() {
  val out = val::array();
  const char* names[] = {"none", "input", "target", "input_and_target"};
  for (const BatchRole role : all_batch_roles()) {
    val entry = val::object();
    entry.set("name", std::string(names[static_cast<int>(role)]));
    entry.set("text", changed_row_text(RowCause::batch, role));
    out.call<void>("push", entry);
  }
  return out;
}

class TrainingHandle {
 public:
  explicit TrainingHandle(TrainingRun run) : run_(std::move(run)) {}

  // { vocab, dim, weight: embedding.weight now, paddingRow (or null), linearRefusal (or null),
  //   steps }
  val info() const {
    const SideBySideTraining& t = run_.training();
    val out = val::object();
    out.set("vocab", static_cast<double>(t.embedding_weight().rows()));
    out.set("dim", static_cast<double>(t.embedding_weight().cols()));
    out.set("weight", matrix_to_js(t.embedding_weight()));
    out.set("paddingRow",
            t.padding_row() < 0 ? val::null() : val(static_cast<double>(t.padding_row())));
    out.set("linearRefusal", t.linear_refusal().empty() ? val::null() : val(t.linear_refusal()));
    out.set("steps", static_cast<double>(t.embedding_optimizer().state().step));
    return out;
  }

  // { step, batch, upstream, embeddingWeight, linearWeight (or null), changed: { rows, causes },
  //   linearChanged (or null), verdict (or null) }
  val step(const val& batch) {
    return guarded([&] {
      const Ids ids = ids_from_js(batch);
      const DrawnStep drawn = run_.step(ids);
      const SideBySideTraining& t = run_.training();
      const bool linear = drawn.step.verdict.has_value();
      val out = val::object();
      out.set("step", static_cast<double>(drawn.step.step));
      out.set("batch", int64s_to_js(ids));
      out.set("upstream", matrix_to_js(drawn.upstream));
      out.set("embeddingWeight", matrix_to_js(t.embedding_weight()));
      out.set("linearWeight", linear ? matrix_to_js(t.linear_weight()) : val::null());
      out.set("changed", changed_to_js(drawn.step.changed));
      out.set("linearChanged", linear ? int64s_to_js(drawn.step.linear_changed) : val::null());
      out.set("verdict", linear ? step_verdict_js(t, *drawn.step.verdict) : val::null());
      return out;
    });
  }

  // { step, state: [{ name, values }] }: optimizer.state[embedding.weight] for one row of W.
  val row_state(double row) const {
    return guarded([&] {
      const Optimizer& optimizer = run_.training().embedding_optimizer();
      const Index vocab = run_.training().embedding_weight().rows();
      const Index r = to_index(row, Argument::ids, "row");
      if (r < 0 || r >= vocab)
        throw InputError(Argument::ids, "row " + std::to_string(r) +
                                            " is not a row of W, whose rows are 0 to " +
                                            std::to_string(vocab - 1));
      val state = val::array();
      for (const RowState& s : embedlab::row_state(optimizer.state(), r)) {
        val entry = val::object();
        entry.set("name", std::string(s.name));
        entry.set("values", matrix_to_js(s.values));
        state.call<void>("push", entry);
      }
      val out = val::object();
      out.set("step", static_cast<double>(optimizer.state().step));
      out.set("state", state);
      return out;
    });
  }

 private:
  TrainingRun run_;
};

// optimizer.state[embedding.weight] whole: [{ name, values (V, d) }], row_state()'s pieces of
// every row gathered in its order. Next-token training's gradients are dense, so each piece holds
// one entry per row.
val whole_state_to_js(const OptimizerState& state, Index vocab, Index dim) {
  std::vector<RowState> pieces = row_state(state, 0);
  std::vector<Matrix> whole(pieces.size(), Matrix(vocab, dim));
  for (Index r = 0; r < vocab; ++r) {
    const std::vector<RowState> row = row_state(state, r);
    for (std::size_t k = 0; k < row.size(); ++k) whole[k].row(r) = row[k].values.row(0);
  }
  val out = val::array();
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    val entry = val::object();
    entry.set("name", std::string(pieces[k].name));
    entry.set("values", matrix_to_js(whole[k]));
    out.call<void>("push", entry);
  }
  return out;
}

// Next-token prediction through the output layer, tied or untied (next_token.hpp).
class NextTokenHandle {
 public:
  explicit NextTokenHandle(NextTokenTraining run) : run_(std::move(run)) {}

  // { vocab, dim, head: 'tied' or 'untied', weight: embedding.weight, headWeight: head.weight }
  val info() const {
    val out = val::object();
    out.set("vocab", static_cast<double>(run_.embedding_weight().rows()));
    out.set("dim", static_cast<double>(run_.embedding_weight().cols()));
    out.set("head", std::string(head_kind_name(run_.head())));
    out.set("weight", matrix_to_js(run_.embedding_weight()));
    out.set("headWeight", matrix_to_js(run_.head_weight()));
    return out;
  }

  // { step, inputs, targets, loss, embeddingWeight, headWeight, changed: { rows, causes },
  //   headChanged (untied; null when tied), grad (embedding.weight.grad), headGrad (the head's
  //   own gradient, which tied is part of grad), state (optimizer.state[embedding.weight] after
  //   the step, whole) }
  val step(const val& sequence) {
    return guarded([&] {
      const NextTokenStep s = run_.step(ids_from_js(sequence));
      const val changed = changed_to_js(s.changed);
      const bool tied = run_.head() == HeadKind::tied;
      val out = val::object();
      out.set("step", static_cast<double>(s.step));
      out.set("inputs", int64s_to_js(s.inputs));
      out.set("targets", int64s_to_js(s.targets));
      out.set("loss", s.loss);
      out.set("embeddingWeight", matrix_to_js(run_.embedding_weight()));
      out.set("headWeight", matrix_to_js(run_.head_weight()));
      out.set("changed", changed);
      out.set("headChanged", tied ? val::null() : int64s_to_js(s.head_changed));
      out.set("grad", matrix_to_js(s.embedding_grad));
      out.set("headGrad", matrix_to_js(s.head_grad));
      const Matrix& weight = run_.embedding_weight();
      out.set("state",
              whole_state_to_js(run_.embedding_optimizer().state(), weight.rows(), weight.cols()));
      return out;
    });
  }

 private:
  NextTokenTraining run_;
};

// { maxLength, stride, batchSize, shuffle }, complete from the wrapper.
LoaderOptions loader_options_from_js(const val& options) {
  LoaderOptions out;
  out.max_length = to_index(options["maxLength"].as<double>(), Argument::max_length, "maxLength");
  out.stride = to_index(options["stride"].as<double>(), Argument::stride, "stride");
  out.batch_size = to_index(options["batchSize"].as<double>(), Argument::batch_size, "batchSize");
  out.shuffle = options["shuffle"].as<bool>();
  return out;
}

val check_loader_js(double n, const val& options) {
  return guarded([&] {
    check_loader(to_index(n, Argument::ids, "n"), loader_options_from_js(options));
    return val::undefined();
  });
}

// The chapter's loop on one sequence's windows (window_training.hpp).
class WindowHandle {
 public:
  explicit WindowHandle(WindowTraining run) : run_(std::move(run)) {}

  // { vocab, dim, head, contextLength (0 without positions), windows, batchesPerEpoch,
  //   weight: tok.weight, positionWeight (or null), headWeight: head.weight }
  val info() const {
    const NextTokenTraining& m = run_.model();
    val out = val::object();
    out.set("vocab", static_cast<double>(m.embedding_weight().rows()));
    out.set("dim", static_cast<double>(m.embedding_weight().cols()));
    out.set("head", std::string(head_kind_name(m.head())));
    out.set("contextLength", static_cast<double>(m.context_length()));
    out.set("windows", static_cast<double>(run_.loader().windows()));
    out.set("batchesPerEpoch", static_cast<double>(run_.loader().batches_per_epoch()));
    out.set("weight", matrix_to_js(m.embedding_weight()));
    out.set("positionWeight",
            m.context_length() > 0 ? matrix_to_js(m.position_weight()) : val::null());
    out.set("headWeight", matrix_to_js(m.head_weight()));
    return out;
  }

  // { step, epoch, batch, windows, rows (B), inputs, targets (B * T each), loss, changed: { rows,
  //   causes, roles }, positionChanged, headChanged (untied; null when tied) }; with details,
  //   also embeddingWeight, positionWeight, headWeight after the step, grad (tok.weight.grad),
  //   headGrad (the head's own gradient) and state (optimizer.state[tok.weight], whole).
  val step(bool details) {
    return guarded([&] {
      const WindowStep w = run_.step();
      const NextTokenStep& s = w.step;
      const NextTokenTraining& m = run_.model();
      const bool tied = m.head() == HeadKind::tied;
      val out = val::object();
      out.set("step", static_cast<double>(s.step));
      out.set("epoch", static_cast<double>(w.batch.epoch));
      out.set("batch", static_cast<double>(w.batch.batch));
      out.set("windows", int64s_to_js(w.batch.windows));
      out.set("rows", static_cast<double>(s.rows));
      out.set("inputs", int64s_to_js(s.inputs));
      out.set("targets", int64s_to_js(s.targets));
      out.set("loss", s.loss);
      out.set("changed", changed_to_js(s.changed));
      out.set("positionChanged", int64s_to_js(s.position_changed));
      out.set("headChanged", tied ? val::null() : int64s_to_js(s.head_changed));
      if (!details) return out;
      out.set("embeddingWeight", matrix_to_js(m.embedding_weight()));
      out.set("positionWeight",
              m.context_length() > 0 ? matrix_to_js(m.position_weight()) : val::null());
      out.set("headWeight", matrix_to_js(m.head_weight()));
      out.set("grad", matrix_to_js(s.embedding_grad));
      out.set("headGrad", matrix_to_js(s.head_grad));
      const Matrix& weight = m.embedding_weight();
      out.set("state",
              whole_state_to_js(m.embedding_optimizer().state(), weight.rows(), weight.cols()));
      return out;
    });
  }

  // { positions: windows * T, k, ids (Float64Array), logits, probabilities (Float32Array): row
  //   i's j-th likeliest at i * k + j }
  val predict(double k) const {
    return guarded([&] {
      const auto guesses = run_.predict(to_index(k, Argument::ids, "k"));
      const auto kk = static_cast<std::size_t>(k);
      Ids ids;
      std::vector<float> logits, probabilities;
      for (const auto& row : guesses) {
        for (const TokenGuess& g : row) {
          ids.push_back(g.id);
          logits.push_back(g.logit);
          probabilities.push_back(g.probability);
        }
      }
      const auto floats = [](const std::vector<float>& v) {
        return val::global("Float32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
      };
      val out = val::object();
      out.set("positions", static_cast<double>(guesses.size()));
      out.set("k", static_cast<double>(kk));
      out.set("ids", int64s_to_js(ids));
      out.set("logits", floats(logits));
      out.set("probabilities", floats(probabilities));
      return out;
    });
  }

 private:
  WindowTraining run_;
};

// options: { head, optimizer, positions, maxLength, stride, batchSize, shuffle }, complete.
val window_training_js(double seed, double vocab, double dim, const val& ids, const val& options) {
  return guarded([&] {
    return val(WindowHandle(WindowTraining::seeded(
        to_index(seed, Argument::seed, "the seed"),
        to_index(vocab, Argument::vocab, "the vocabulary size V"),
        to_index(dim, Argument::dim, "the embedding dimension d"),
        parse_head_kind(options["head"].as<std::string>()), optimizer_from_js(options["optimizer"]),
        options["positions"].as<bool>(), ids_from_js(ids), loader_options_from_js(options))));
  });
}

val seeded_next_token_training_js(double seed, double vocab, double dim, const std::string& head,
                                  const val& optimizer) {
  return guarded([&] {
    return val(NextTokenHandle(
        NextTokenTraining::seeded(to_index(seed, Argument::seed, "the seed"),
                                  to_index(vocab, Argument::vocab, "the vocabulary size V"),
                                  to_index(dim, Argument::dim, "the embedding dimension d"),
                                  parse_head_kind(head), optimizer_from_js(optimizer))));
  });
}

val seeded_training_js(double seed, double vocab, double dim, const val& options) {
  return guarded([&] {
    return val(TrainingHandle(
        TrainingRun::seeded(to_index(seed, Argument::seed, "the seed"),
                            to_index(vocab, Argument::vocab, "the vocabulary size V"),
                            to_index(dim, Argument::dim, "the embedding dimension d"),
                            training_options_from_js(options))));
  });
}

// options.gradSeed: torch.manual_seed before the first G, or null for the notebooks' seed.
val table_training_js(const val& weight, const val& options) {
  return guarded([&] {
    const TrainingOptions training = training_options_from_js(options);
    const val seed = options["gradSeed"];
    const std::int64_t grad_seed =
        seed.isNull() ? kNotebookSeed : to_index(seed.as<double>(), Argument::grad, "gradSeed");
    // Every size training holds, before W is copied in.
    check_training(to_index(weight["rows"].as<double>(), Argument::weights, "W.rows"),
                   to_index(weight["cols"].as<double>(), Argument::weights, "W.cols"), training);
    return val(TrainingHandle(TrainingRun::from_table(
        matrix_from_js(weight, Argument::weights, "W"), training, grad_seed)));
  });
}

}  // namespace
}  // namespace embedlab

EMSCRIPTEN_BINDINGS(embedlab_training) {
  using namespace embedlab;
  emscripten::class_<TrainingHandle>("TrainingHandle")
      .function("info", &TrainingHandle::info)
      .function("step", &TrainingHandle::step)
      .function("rowState", &TrainingHandle::row_state);
  emscripten::function("optimizers", &optimizers_js);
  emscripten::function("rowCauses", &row_causes_js);
  emscripten::function("optimizerCode", &optimizer_code_js);
  emscripten::function("parseBatches", &parse_batches_js);
  emscripten::function("checkTraining", &check_training_js);
  emscripten::function("seededTraining", &seeded_training_js);
  emscripten::function("tableTraining", &table_training_js);
  emscripten::class_<NextTokenHandle>("NextTokenHandle")
      .function("info", &NextTokenHandle::info)
      .function("step", &NextTokenHandle::step);
  emscripten::function("seededNextTokenTraining", &seeded_next_token_training_js);
  emscripten::function("batchRoles", &batch_roles_js);
  emscripten::function("checkLoader", &check_loader_js);
  emscripten::class_<WindowHandle>("WindowHandle")
      .function("info", &WindowHandle::info)
      .function("step", &WindowHandle::step)
      .function("predict", &WindowHandle::predict);
  emscripten::function("windowTraining", &window_training_js);
}
