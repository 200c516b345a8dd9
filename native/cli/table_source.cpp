#include "table_source.hpp"

#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/torch_init.hpp"
#include "embedlab/weights.hpp"

namespace embedlab::cli {

void add_table_options(CLI::App& app, TableOptions& options) {
  app.add_option("--ids", options.ids_text,
                 "token ids, as you would type them: 2,3,1 or \"2 3 1\" or \"[2, 3, 1]\"")
      ->capture_default_str();
  app.add_option("--vocab,-V", options.vocab, "vocabulary size V (default: max id + 1)");
  app.add_option("--dim,-d", options.dim, "embedding dimension d")->capture_default_str();
  auto* seed = app.add_option("--seed", options.seed, "torch.manual_seed for nn.Embedding's weights")
                   ->capture_default_str();
  auto* tf = app.add_flag("--tf-weights", options.tf_weights,
                          "use the TensorFlow notebook's fixed weights (row i = 0.11 * i)");
  auto* file = app.add_option("--weights", options.weights_file,
                              "load W from a .npy file (2-D float32/float64, C order), "
                              "e.g. np.save('w.npy', emb.weight.detach().numpy())");
  seed->excludes(tf)->excludes(file);
  tf->excludes(file);
}

Table make_table(const TableOptions& options) {
  Table t;
  t.ids = parse_ids(options.ids_text);
  if (!options.weights_file.empty()) {
    t.kind = TableKind::file;
    t.weight = load_npy(options.weights_file);
    t.vocab = t.weight.rows();
    if (options.vocab && *options.vocab != t.vocab) {
      throw InputError(Argument::vocab, "--vocab " + std::to_string(*options.vocab) + " disagrees with " +
                       options.weights_file + ", which has " + std::to_string(t.vocab) +
                       " rows: leave --vocab out when loading weights");
    }
    t.origin = "W loaded from " + options.weights_file;
  } else {
    t.vocab = options.vocab ? *options.vocab : default_vocab(t.ids);
    if (options.tf_weights) {
      t.kind = TableKind::tf_fixed;
      t.weight = tf_fixed_weights(t.vocab, options.dim);
      t.origin = "the TensorFlow notebook's fixed weights: row i = 0.11 * i";
    } else {
      t.seed = options.seed;
      TorchGenerator gen(options.seed);
      t.weight = init_embedding(gen, t.vocab, options.dim);
      t.origin = "torch.manual_seed(" + std::to_string(options.seed) + "); embedding = " +
                 "torch.nn.Embedding(" + std::to_string(t.vocab) + ", " +
                 std::to_string(options.dim) + ")";
    }
  }
  check_ids(t.ids, t.vocab);
  return t;
}

}  // namespace embedlab::cli
