#include "upstream_gradient.hpp"

#include "embedlab/error.hpp"
#include "embedlab/npy.hpp"
#include "embedlab/torch_init.hpp"

namespace embedlab::cli {
namespace {

// A .npy file of G: its errors are about --grad, not the table.
Matrix load_grad_file(const std::string& path) {
  try {
    return load_npy(path);
  } catch (const InputError& e) {
    throw InputError(Argument::grad, std::string("--grad: ") + e.what());
  }
}

}  // namespace

void add_gradient_options(CLI::App& command, GradientOptions& options) {
  auto* file = command.add_option("--grad", options.file,
                                  "the upstream gradient dL/dout from a .npy file, e.g. "
                                  "np.save('g.npy', g.numpy())");
  auto* seed = command.add_option("--grad-seed", options.seed,
                                  "torch.manual_seed before G = torch.randn(...) (default: G is "
                                  "drawn right after a seeded table, else with seed 123)");
  file->excludes(seed);
}

embedlab::Table module_weight(const Input& input, std::optional<Index> padding_idx,
                              std::optional<TorchGenerator>& generator) {
  if (input.kind != TableKind::seeded) return input.weight;
  generator.emplace(input.seed);
  return embedlab::Table(init_embedding(*generator, input.vocab, input.weight.cols(), padding_idx));
}

UpstreamGradient upstream_gradient(const GradientOptions& options, Index rows, Index cols,
                                   std::optional<TorchGenerator>& generator) {
  const std::string shape = std::to_string(rows) + ", " + std::to_string(cols);
  if (!options.file.empty()) {
    Matrix g = load_grad_file(options.file);
    if (g.rows() != rows || g.cols() != cols) {
      throw InputError(Argument::grad, "--grad " + options.file + " is " +
                                           std::to_string(g.rows()) + " x " +
                                           std::to_string(g.cols()) +
                                           " but the upstream gradient dL/dout must be (" + shape +
                                           "): one row per output row, as wide as the table");
    }
    return {g, "G = torch.from_numpy(np.load('" + options.file + "')); G"};
  }
  std::string code = "G = torch.randn(" + shape + "); G";
  if (options.seed || !generator) {
    const std::int64_t seed = options.seed.value_or(kNotebookSeed);
    generator.emplace(seed);
    code = "torch.manual_seed(" + std::to_string(seed) + "); " + code;
  }
  return {torch_randn(*generator, rows, cols), code};
}

}  // namespace embedlab::cli
