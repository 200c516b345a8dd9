// Embind bindings of positions and the tied head (embedlab/positions.hpp, tied_head.hpp), wrapped
// by positions.mjs: openSeededPositions(seed, vocab, dim, contextLength) -> a PositionsHandle
// holding both tables, drawn in the book's order, or openCheckpointPositions(source, configText)
// -> one over a .safetensors checkpoint's token and position tables (GPT-2's wte and wpe), read
// where they lie, with whether its output layer is tied, or openPositionTables(token, position) ->
// one over tables given whole (a training's as it stands); or an error value. Its methods take a
// batch as typed ("1,2; 3,4": one row per semicolon) and compute on the tables where they are.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "embedlab/checkpoint_positions.hpp"
#include "embedlab/format.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/notes.hpp"
#include "embedlab/positions.hpp"
#include "embedlab/table.hpp"
#include "embedlab/tied_head.hpp"
#include "js_source.hpp"
#include "js_values.hpp"

namespace embedlab {
namespace {

using emscripten::val;
using namespace js;

// Where a checkpoint's tables came from, and whether its output layer is the token table.
struct CheckpointFacts {
  std::string token_tensor;
  std::string position_tensor;
  HeadTying tying;
};

class PositionsHandle {
 public:
  PositionsHandle(Table token, Table position, std::optional<CheckpointFacts> facts = {})
      : token_(std::move(token)), position_(std::move(position)), facts_(std::move(facts)) {}

  // { vocab, dim, contextLength, checkpoint: null or { tokenTensor, positionTensor, tied,
  //   tyingReason } }
  val info() const {
    val out = val::object();
    out.set("vocab", static_cast<double>(token_.rows()));
    out.set("dim", static_cast<double>(token_.cols()));
    out.set("contextLength", static_cast<double>(position_.rows()));
    val checkpoint = val::null();
    if (facts_) {
      checkpoint = val::object();
      checkpoint.set("tokenTensor", facts_->token_tensor);
      checkpoint.set("positionTensor", facts_->position_tensor);
      checkpoint.set("tied", facts_->tying.tied);
      checkpoint.set("tyingReason", facts_->tying.reason);
    }
    out.set("checkpoint", checkpoint);
    return out;
  }

  // The token embeddings, the position rows by both routes with their grade and what each cost
  // (notes), and their sum, each (B * T, d) or (T, d) row-major.
  val embed(const std::string& text) const {
    return guarded([&] {
      const TokenBatch batch = checked_batch(text);
      const Matrix tokens = lookup(token_, batch.ids);
      const Matrix positions = position_rows(position_, batch.length);
      const Matrix product = position_product(position_, batch.length);
      val out = shape_of(batch);
      out.set("tokenEmbeddings", matrix_to_js(tokens));
      out.set("posEmbeddings", matrix_to_js(positions));
      out.set("positionProduct", matrix_to_js(product));
      out.set("comparison", graded_to_js(positions, product, RoutePair::lookup));
      out.set(
          "notes",
          strings_to_js({positions_cost_note(batch.length, position_.rows(), position_.cols())}));
      out.set("inputEmbeddings", matrix_to_js(add_positions(tokens, positions)));
      return out;
    });
  }

  // logits = input_embeddings @ W.T streamed through W: each position's top k as { id, logit },
  // the logits of the columns PyTorch's print shows (n, columns), and what the two uses of W
  // cost (notes: the input's, the output's). top_k: null for the core's default.
  val head(const std::string& text, const val& top_k) const {
    return guarded([&] {
      const TokenBatch batch = checked_batch(text);
      HeadOptions options;
      options.top_k = top_k.isNull() || top_k.isUndefined()
                          ? default_top_k(token_.rows())
                          : to_index(top_k.as<double>(), Argument::ids, "top-k");
      const Index n = batch.rows * batch.length;
      options.keep_columns = printed_indices(token_.rows(), n, token_.rows());
      StreamedHead head(
          token_, add_positions(lookup(token_, batch.ids), position_rows(position_, batch.length)),
          options);
      head.run();
      val out = shape_of(batch);
      val top = val::array();
      for (const auto& row : head.top()) {
        val entries = val::array();
        for (const TopLogit& t : row) {
          val entry = val::object();
          entry.set("id", static_cast<double>(t.id));
          entry.set("logit", t.logit);
          entries.call<void>("push", entry);
        }
        top.call<void>("push", entries);
      }
      out.set("top", top);
      out.set("columns", int64s_to_js(options.keep_columns));
      out.set("logits", matrix_to_js(head.kept_columns()));
      out.set("rowsLookedUp", static_cast<double>(batch.ids.size()));
      out.set("multiplyAdds", static_cast<double>(head.progress().total_multiply_adds));
      const auto distinct = static_cast<Index>(distinct_ids(batch.ids).size());
      out.set("notes", strings_to_js(head_cost_notes(n, distinct, token_.rows(), token_.cols())));
      return out;
    });
  }

 private:
  TokenBatch checked_batch(const std::string& text) const {
    TokenBatch batch = token_batch(parse_batches(text));
    check_ids(batch.ids, token_.rows());
    check_context(batch.length, position_.rows());
    return batch;
  }

  static val shape_of(const TokenBatch& batch) {
    val out = val::object();
    out.set("rows", static_cast<double>(batch.rows));
    out.set("length", static_cast<double>(batch.length));
    return out;
  }

  Table token_;
  Table position_;
  std::optional<CheckpointFacts> facts_;
};

val open_seeded_positions_js(double seed, double vocab, double dim, double context_length) {
  return guarded([&] {
    PositionTables tables =
        seeded_position_tables(to_index(seed, Argument::seed, "the seed"),
                               to_index(vocab, Argument::vocab, "the vocabulary size V"),
                               to_index(dim, Argument::dim, "the embedding dimension d"),
                               to_index(context_length, Argument::vocab, "context_length"));
    return val(PositionsHandle(Table(std::move(tables.token)), Table(std::move(tables.position))));
  });
}

// Tables given whole (a training's, as it stands): token (V, d) and position (context_length, d),
// their d agreeing.
val open_position_tables_js(const val& token, const val& position) {
  return guarded([&] {
    Matrix t = matrix_from_js(token, Argument::weights, "token");
    Matrix p = matrix_from_js(position, Argument::weights, "position");
    check_position_tables(t, p);
    return val(PositionsHandle(Table(std::move(t)), Table(std::move(p))));
  });
}

// The checkpoint's tables and its tying (checkpoint_positions.hpp): config_text is its
// config.json's text, or empty.
val open_checkpoint_positions_js(const val& source, const std::string& config_text) {
  return guarded([&] {
    CheckpointPositions c =
        open_checkpoint_positions(std::make_shared<JsSource>(source), config_text);
    CheckpointFacts facts{std::move(c.token_tensor), std::move(c.position_tensor),
                          std::move(c.tying)};
    return val(PositionsHandle(std::move(c.token), std::move(c.position), std::move(facts)));
  });
}

}  // namespace
}  // namespace embedlab

EMSCRIPTEN_BINDINGS(embedlab_positions) {
  using namespace embedlab;
  emscripten::class_<PositionsHandle>("PositionsHandle")
      .function("info", &PositionsHandle::info)
      .function("embed", &PositionsHandle::embed)
      .function("head", &PositionsHandle::head);
  emscripten::function("openSeededPositions", &open_seeded_positions_js);
  emscripten::function("openCheckpointPositions", &open_checkpoint_positions_js);
  emscripten::function("openPositionTables", &open_position_tables_js);
}
