#pragma once
// A training walk-through's table and upstream gradients, drawn as this PyTorch 1.13 program
// draws them, and both routes stepped on them (training.hpp):
//
//   torch.manual_seed(seed)
//   embedding = nn.Embedding(V, d, padding_idx=p)   # a seeded table: normal_(0, 1), row p zeroed
//   for idx in batches:
//       G = torch.randn(len(idx), d)                # from the same generator, in batch order
//
// A given table (nn.Embedding.from_pretrained(W, freeze=False, padding_idx=p): its row p is
// used as it is) draws nothing, and its first G follows torch.manual_seed(gradient_seed).
// The CLI's `embedlab train` and the WebAssembly module's training both run this.
//
// Checks: seeded() and from_table() run check_training() before drawing or copying anything;
// step() checks the batch (its ids against V, its one-hot matrix against the limits) before it
// draws G, and a step that fails leaves the generator where it was.
#include <cstdint>

#include "embedlab/limits.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/torch_generator.hpp"
#include "embedlab/training.hpp"

namespace embedlab {

// One step: its upstream gradient G (n, d) and what both routes did with it.
struct DrawnStep {
  Matrix upstream;
  TrainingStep step;
};

class TrainingRun {
 public:
  static TrainingRun seeded(std::int64_t seed, Index vocab, Index dim,
                            const TrainingOptions& options, const Limits& limits = default_limits);
  static TrainingRun from_table(const Matrix& weight, const TrainingOptions& options,
                                std::int64_t gradient_seed = kNotebookSeed,
                                const Limits& limits = default_limits);

  // G = torch.randn(len(batch), d), then one step of both routes.
  DrawnStep step(const Ids& batch);

  const SideBySideTraining& training() const { return training_; }

 private:
  TrainingRun(TorchGenerator generator, Matrix weight, const TrainingOptions& options,
              const Limits& limits);

  TorchGenerator generator_;
  SideBySideTraining training_;
  Limits limits_;
};

}  // namespace embedlab
