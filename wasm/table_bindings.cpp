// Embind bindings of table handles (embedlab/table.hpp and streamed.hpp), wrapped by tables.mjs
// (see README.md):
//   openSeededTable(seed, vocab, dim), openTfTable(vocab, dim), openNpyTable(bytes) and
//   openSafetensorsTable(source, name) and openGgufTable(source, name) -> a TableHandle, or an
//   error value.
// A TableHandle holds its table: rows in WASM memory (seeded, TensorFlow rule, .npy bytes, a
// small file), or read through the caller's source { size, read(offset, length) } when a
// computation needs them (a File read with FileReaderSync in a worker, fs.readSync in Node). Its
// methods compute on it, so W never crosses the boundary. A product runs one block of rows per
// step() of a ProductRun (a GradientRun for onehot^T G), so a worker can show progress and stop
// between blocks. Errors come back as values (js_values.hpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "embedlab/backward.hpp"
#include "embedlab/byte_source.hpp"
#include "embedlab/compare.hpp"
#include "embedlab/embedding_bag.hpp"
#include "embedlab/encoding.hpp"
#include "embedlab/error.hpp"
#include "embedlab/gguf.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/max_norm.hpp"
#include "embedlab/notes.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/safetensors.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/table.hpp"
#include "embedlab/torch_init.hpp"
#include "embedlab/weights.hpp"
#include "js_source.hpp"
#include "js_values.hpp"

namespace embedlab {
namespace {

using emscripten::val;
using namespace js;

val progress_to_js(const StreamProgress& p) {
  val out = val::object();
  out.set("rowsDone", static_cast<double>(p.rows_done));
  out.set("rows", static_cast<double>(p.rows));
  out.set("bytesRead", static_cast<double>(p.bytes_read));
  out.set("bytes", static_cast<double>(p.bytes));
  out.set("multiplyAdds", static_cast<double>(p.multiply_adds));
  out.set("totalMultiplyAdds", static_cast<double>(p.total_multiply_adds));
  out.set("done", p.done());
  return out;
}

val optional_matrix(const Matrix& m) { return m.size() > 0 ? matrix_to_js(m) : val::null(); }

val gradient_to_js(const Gradient& g) {
  val out = val::object();
  out.set("rows", static_cast<double>(g.rows));
  out.set("cols", static_cast<double>(g.cols));
  out.set("whole", optional_matrix(g.whole));
  out.set("kept", int64s_to_js(g.kept));
  out.set("keptRows", matrix_to_js(g.kept_rows));
  out.set("nonzeroRows", static_cast<double>(g.nonzero_rows));
  out.set("nanRows", static_cast<double>(g.nan_rows));
  out.set("maxAbs", g.max_abs);
  out.set("heatmap", optional_matrix(g.downsample));
  return out;
}

Index whole_number(const val& options, const char* key, Argument argument) {
  return to_index(options[key].as<double>(), argument, key);
}

// { blockRows, heatmapRows, heatmapCols }, complete from the wrapper.
StreamOptions stream_options_from_js(const val& options) {
  StreamOptions out;
  out.block_rows = whole_number(options, "blockRows", Argument::weights);
  out.downsample_height = whole_number(options, "heatmapRows", Argument::weights);
  out.downsample_width = whole_number(options, "heatmapCols", Argument::weights);
  return out;
}

// { whole, keepRows, blockRows, heatmapRows, heatmapCols }, complete from the wrapper.
GradientViewOptions view_options_from_js(const val& options) {
  GradientViewOptions out;
  out.whole = options["whole"].as<bool>();
  out.keep_rows = int64s_from_js(options["keepRows"], Argument::grad, "kept row");
  out.block_rows = whole_number(options, "blockRows", Argument::grad);
  out.downsample_height = whole_number(options, "heatmapRows", Argument::grad);
  out.downsample_width = whole_number(options, "heatmapCols", Argument::grad);
  return out;
}

// E W streamed through the table, and what it is compared with: the lookup's rows, the bags'
// output, or nothing (a heatmap of W alone); notes: what the routes cost (notes.hpp), if that is
// not said elsewhere.
class ProductRun {
 public:
  ProductRun(StreamedProduct product, Matrix expected, RoutePair pair,
             std::vector<std::string> notes = {})
      : product_(std::move(product)),
        expected_(std::move(expected)),
        pair_(pair),
        notes_(std::move(notes)) {}

  val progress() const { return progress_to_js(product_.progress()); }
  // Up to `blocks` more blocks of rows; the progress after them.
  val step(double blocks) {
    return guarded([&] {
      const Index count = to_index(blocks, Argument::weights, "blocks");
      for (Index b = 0; b < count && !product_.done(); ++b) product_.step();
      return progress();
    });
  }
  val expected() const { return optional_matrix(expected_); }
  // { product, comparison (with expected, or null), heatmap (or null), notes } once every block is
  // done.
  val result() const {
    return guarded([&] {
      if (!product_.done())
        throw InputError(Argument::weights, "the product is not done: " +
                                                std::to_string(product_.progress().rows_done) +
                                                " of " + std::to_string(product_.progress().rows) +
                                                " rows of W have been read; step() until done");
      val out = val::object();
      out.set("product", matrix_to_js(product_.result()));
      out.set("comparison", expected_.rows() > 0 ? graded_to_js(expected_, product_.result(), pair_)
                                                 : val::null());
      out.set("heatmap", optional_matrix(product_.downsample()));
      out.set("notes", strings_to_js(notes_));
      return out;
    });
  }

 private:
  StreamedProduct product_;
  Matrix expected_;  // 0 x 0 when there is nothing to compare
  RoutePair pair_;
  std::vector<std::string> notes_;
};

// onehot^T G streamed, each block compared with the scatter-add's rows as it is made.
class GradientRun {
 public:
  GradientRun(BackwardFacts facts, Encoding encoding, Matrix grad, Gradient scatter,
              GradientViewOptions view)
      : facts_(std::move(facts)),
        scatter_(std::make_shared<const Gradient>(std::move(scatter))),
        grader_(std::make_shared<Grader>(backward_grader(facts_))),
        gemm_(std::move(encoding), std::move(grad), with_comparison(std::move(view))) {}

  val progress() const { return progress_to_js(gemm_.progress()); }
  val step(double blocks) {
    return guarded([&] {
      const Index count = to_index(blocks, Argument::grad, "blocks");
      for (Index b = 0; b < count && !gemm_.done(); ++b) gemm_.step();
      return progress();
    });
  }
  val scatter() const { return gradient_to_js(*scatter_); }
  // { gemm, comparison, notes } once every block is done: notes are the core's (notes.hpp).
  val result() const {
    return guarded([&] {
      if (!gemm_.done())
        throw InputError(Argument::grad,
                         "the gradient is not done: " + std::to_string(gemm_.progress().rows_done) +
                             " of " + std::to_string(gemm_.progress().rows) +
                             " rows are made; step() until done");
      val out = val::object();
      out.set("gemm", gradient_to_js(gemm_.result()));
      out.set("comparison", graded_to_js(*grader_));
      out.set("notes", strings_to_js(backward_notes(facts_, grader_->verdict())));
      return out;
    });
  }

 private:
  // The view's on_rows compares each block with the scatter-add's rows (+0.0 outside them).
  GradientViewOptions with_comparison(GradientViewOptions view) {
    view.on_rows = [scatter = scatter_, grader = grader_](Index first, Index count,
                                                          const float* values) {
      std::vector<float> expected(static_cast<std::size_t>(count * scatter->cols), 0.0f);
      for (Index i = first; i < first + count; ++i)
        if (scatter->has_row(i))
          for (Index j = 0; j < scatter->cols; ++j)
            expected[static_cast<std::size_t>((i - first) * scatter->cols + j)] = scatter->at(i, j);
      grader->add(expected.data(), values, count * scatter->cols);
    };
    return view;
  }

  BackwardFacts facts_;
  std::shared_ptr<const Gradient> scatter_;
  std::shared_ptr<Grader> grader_;
  StreamedGradient gemm_;
};

class TableHandle {
 public:
  TableHandle(Table table, std::string name, std::string conversion = {})
      : table_(std::move(table)),
        name_(std::move(name)),
        conversion_(conversion.empty() ? dtype_conversion_text(stored_float_name(table_.dtype()))
                                       : std::move(conversion)) {}

  // { rows, cols, dtype, name, conversion, inMemory, storedBytes, blockValues, blockBytes }
  val info() const {
    val out = val::object();
    const std::string dtype(stored_float_name(table_.dtype()));
    out.set("rows", static_cast<double>(table_.rows()));
    out.set("cols", static_cast<double>(table_.cols()));
    out.set("dtype", dtype);
    out.set("name", name_.empty() ? val::null() : val(name_));
    out.set("conversion", conversion_);
    out.set("inMemory", table_.in_memory());
    out.set("storedBytes", static_cast<double>(table_.stored_bytes()));
    out.set("blockValues", static_cast<double>(block_values(table_.dtype())));
    out.set("blockBytes", static_cast<double>(stored_size(table_.dtype())));
    return out;
  }

  // The stored blocks decoded so far, by every computation on this table (table.hpp).
  double blocks_decoded() const { return static_cast<double>(table_.blocks_decoded()); }
  // What each route decoded, from the counts taken around each (notes.hpp words it).
  std::string blocks_decoded_note(double lookup, double product) const {
    return embedlab::blocks_decoded_note(table_, static_cast<std::uint64_t>(lookup),
                                         static_cast<std::uint64_t>(product));
  }

  val lookup(const val& ids) const {
    return guarded([&] { return matrix_to_js(embedlab::lookup(table_, ids_from_js(ids))); });
  }

  // Rows [first, first + count): a window of W for a view.
  val rows(double first, double count) const {
    return guarded([&] {
      const Index f = to_index(first, Argument::weights, "first");
      const Index c = to_index(count, Argument::weights, "count");
      if (f < 0 || c < 0 || f > table_.rows() - c)
        throw InputError(Argument::weights, "rows " + std::to_string(f) + " to " +
                                                std::to_string(f + c) +
                                                " are not all in the table, which has rows 0 to " +
                                                std::to_string(table_.rows()));
      check_output_shape(c, table_.cols());
      Matrix out(c, table_.cols());
      table_.read_rows(f, c, out.data());
      return matrix_to_js(out);
    });
  }

  // The lookup now, and a run of the one-hot product that compares with it when done.
  val start_product(const val& ids, const val& options) const {
    return guarded([&] {
      const Ids checked = ids_from_js(ids);
      Matrix rows = embedlab::lookup(table_, checked);
      StreamedProduct product(table_, one_hot_encoding(checked, table_.rows()),
                              stream_options_from_js(options));
      const auto n = static_cast<Index>(checked.size());
      return val(ProductRun(std::move(product), std::move(rows), RoutePair::lookup,
                            {forward_cost_note(n, table_.rows(), table_.cols())}));
    });
  }

  // A pass over W for its heatmap alone.
  val start_heatmap(const val& options) const {
    return guarded([&] {
      StreamedProduct product(table_, Encoding{0, table_.rows(), {}},
                              stream_options_from_js(options));
      return val(ProductRun(std::move(product), Matrix(), RoutePair::lookup));
    });
  }

  // nn.EmbeddingBag's output now (the rows it names read once), and a run of M W.
  val start_bag_product(const val& ids, const val& offsets, const val& bag_options,
                        const val& options) const {
    return guarded([&] {
      const Ids checked = ids_from_js(ids);
      const Ids starts = int64s_from_js(offsets, Argument::offsets, "offset");
      const BagOptions bag = bag_options_from_js(bag_options);
      BagOutput bags = embedlab::embedding_bag(table_, checked, starts, bag);
      StreamedProduct product(table_, bag_encoding(checked, starts, table_.rows(), bag),
                              stream_options_from_js(options));
      return val(ProductRun(std::move(product), std::move(bags.output), RoutePair::bag));
    });
  }

  // embedding_bag()'s output, with the core's notes on it (notes.hpp).
  val embedding_bag(const val& ids, const val& offsets, const val& bag_options) const {
    return guarded([&] {
      const Ids checked = ids_from_js(ids);
      const BagOptions options = bag_options_from_js(bag_options);
      const BagOutput bags = embedlab::embedding_bag(
          table_, checked, int64s_from_js(offsets, Argument::offsets, "offset"), options);
      val out = bag_output_to_js(bags);
      out.set("notes", strings_to_js(bag_notes({checked, table_.rows(), table_.cols(), options.mode,
                                                options.padding_idx, options.scale_grad_by_freq,
                                                bags.bag_size})));
      return out;
    });
  }

  // The multi-hot M (B, V) whose product with this table gives the sum or mean bags, held whole.
  val bag_matrix(const val& ids, const val& offsets, const val& bag_options) const {
    return guarded([&] {
      return matrix_to_js(embedlab::bag_matrix(ids_from_js(ids),
                                               int64s_from_js(offsets, Argument::offsets, "offset"),
                                               table_.rows(), bag_options_from_js(bag_options)));
    });
  }

  // The lookup's gradient (a scatter-add) now, and a run of onehot^T G that compares with it.
  val start_backward(const val& ids, const val& grad, const val& embedding_options,
                     const val& view) const {
    return guarded([&] {
      const Ids checked = ids_from_js(ids);
      Matrix g = matrix_from_js(grad, Argument::grad, "G");
      if (g.cols() != table_.cols())
        throw InputError(Argument::grad, "G has " + std::to_string(g.cols()) +
                                             " columns but the table has " +
                                             std::to_string(table_.cols()) +
                                             ": dL/dout is as wide as the table, (n, d)");
      const GradientViewOptions options = view_options_from_js(view);
      const EmbeddingOptions embedding = embedding_options_from_js(embedding_options);
      Gradient scatter = embedding_backward_view(checked, g, table_.rows(), embedding, options);
      Encoding encoding = one_hot_encoding(checked, table_.rows());
      BackwardFacts facts{checked, table_.rows(), table_.cols(), embedding.padding_idx,
                          embedding.scale_grad_by_freq};
      return val(GradientRun(std::move(facts), std::move(encoding), std::move(g),
                             std::move(scatter), options));
    });
  }

  // The bags' gradient as a view; forward is embeddingBag's result for the same input.
  val bag_backward(const val& ids, const val& offsets, const val& grad, const val& forward,
                   const val& bag_options, const val& view) const {
    return guarded([&] {
      return gradient_to_js(embedding_bag_backward_view(
          ids_from_js(ids), int64s_from_js(offsets, Argument::offsets, "offset"),
          matrix_from_js(grad, Argument::grad, "G"), bag_output_from_js(forward), table_.rows(),
          bag_options_from_js(bag_options), view_options_from_js(view)));
    });
  }

  // max_norm's renormalisation: { table: the renormalised table, scaledRows }; this one stays.
  val renorm(const val& ids, double max_norm, double norm_type) const {
    return guarded([&] {
      Table renormed = table_;
      const Ids scaled = embedding_renorm(renormed, ids_from_js(ids), max_norm, norm_type);
      val out = val::object();
      out.set("table", val(TableHandle(std::move(renormed), name_, conversion_)));
      out.set("scaledRows", int64s_to_js(scaled));
      return out;
    });
  }

 private:
  Table table_;
  std::string name_;        // the tensor's name in its file, or empty
  std::string conversion_;  // how its stored values become float32
};

val open_seeded_table_js(double seed, double vocab, double dim) {
  return guarded([&] {
    TorchGenerator gen(to_index(seed, Argument::seed, "the seed"));
    return val(TableHandle(
        Table(init_embedding(gen, to_index(vocab, Argument::vocab, "the vocabulary size V"),
                             to_index(dim, Argument::dim, "the embedding dimension d"))),
        ""));
  });
}

val open_tf_table_js(double vocab, double dim) {
  return guarded([&] {
    return val(TableHandle(
        Table(tf_fixed_weights(to_index(vocab, Argument::vocab, "the vocabulary size V"),
                               to_index(dim, Argument::dim, "the embedding dimension d"))),
        ""));
  });
}

val open_npy_table_js(const val& bytes) {
  return guarded(
      [&] { return val(TableHandle(open_npy_table(memory_source(bytes_from_js(bytes))), "")); });
}

// source: { size, read(offset, length) } as the wrapper checked it; name: the tensor, or empty
// for the one the names point to.
val open_safetensors_table_js(const val& source, const std::string& name) {
  return guarded([&] {
    SafetensorsTable t = open_safetensors_table(std::make_shared<JsSource>(source), name);
    return val(TableHandle(std::move(t.table), t.entry.name));
  });
}

// A GGUF file's table: token_embd.weight, or the tensor called name.
val open_gguf_table_js(const val& source, const std::string& name) {
  return guarded([&] {
    GgufTable t = open_gguf_table(std::make_shared<JsSource>(source), name);
    return val(TableHandle(std::move(t.table), t.tensor.name, ggml_conversion_text(t.tensor.type)));
  });
}

}  // namespace
}  // namespace embedlab

EMSCRIPTEN_BINDINGS(embedlab_tables) {
  using namespace embedlab;
  emscripten::class_<TableHandle>("TableHandle")
      .function("info", &TableHandle::info)
      .function("lookup", &TableHandle::lookup)
      .function("rows", &TableHandle::rows)
      .function("startProduct", &TableHandle::start_product)
      .function("startHeatmap", &TableHandle::start_heatmap)
      .function("startBagProduct", &TableHandle::start_bag_product)
      .function("embeddingBag", &TableHandle::embedding_bag)
      .function("bagMatrix", &TableHandle::bag_matrix)
      .function("startBackward", &TableHandle::start_backward)
      .function("bagBackward", &TableHandle::bag_backward)
      .function("renorm", &TableHandle::renorm)
      .function("blocksDecoded", &TableHandle::blocks_decoded)
      .function("blocksDecodedNote", &TableHandle::blocks_decoded_note);
  emscripten::class_<ProductRun>("ProductRun")
      .function("progress", &ProductRun::progress)
      .function("step", &ProductRun::step)
      .function("expected", &ProductRun::expected)
      .function("result", &ProductRun::result);
  emscripten::class_<GradientRun>("GradientRun")
      .function("progress", &GradientRun::progress)
      .function("step", &GradientRun::step)
      .function("scatter", &GradientRun::scatter)
      .function("result", &GradientRun::result);
  emscripten::function("openSeededTable", &open_seeded_table_js);
  emscripten::function("openTfTable", &open_tf_table_js);
  emscripten::function("openNpyTable", &open_npy_table_js);
  emscripten::function("openSafetensorsTable", &open_safetensors_table_js);
  emscripten::function("openGgufTable", &open_gguf_table_js);
}
