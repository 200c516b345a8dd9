#pragma once
// The chapter's training loop: next-token prediction (next_token.hpp) on one sequence's sliding
// windows, batched and ordered as DataLoader does (data_loader.hpp), epoch after epoch, as this
// PyTorch 1.13 program trains it:
//
//   torch.manual_seed(seed)
//   tok = nn.Embedding(V, d)
//   pos = nn.Embedding(max_length, d)             # with positions
//   head = nn.Linear(d, V, bias=False)            # tied: head.weight = tok.weight
//   loader = DataLoader(GPTDatasetV1-style windows of ids, batch_size, shuffle, drop_last=True)
//   opt = torch.optim.X(params, ...)
//   for epoch in range(epochs):
//       for x, y in loader:
//           loss = F.cross_entropy(head(tok(x) + pos(torch.arange(max_length))).flatten(0, 1),
//                                  y.flatten())
//           opt.zero_grad(); loss.backward(); opt.step()
//
// The loader draws from the same global generator as the modules, after them: at each epoch's
// start, the draws iter(loader) makes. step() takes the loader's next batch, so a training runs
// as many epochs as it is stepped through.
//
// Checks: seeded() checks the loader's options against the sequence (check_loader), the ids
// against V, and the model's shapes and optimizer (NextTokenTraining::seeded), before drawing.
#include <cstdint>
#include <vector>

#include "embedlab/data_loader.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/next_token.hpp"
#include "embedlab/optimizer.hpp"

namespace embedlab {

struct WindowStep {
  LoaderBatch batch;
  NextTokenStep step;
};

class WindowTraining {
 public:
  // positions: a table of max_length positions, added to the token rows.
  static WindowTraining seeded(std::int64_t seed, Index vocab, Index dim, HeadKind head,
                               const OptimizerOptions& optimizer, bool positions, Ids ids,
                               const LoaderOptions& loader, const Limits& limits = default_limits);

  // The loader's next batch, one optimizer step on it.
  WindowStep step();
  // The k likeliest next tokens at each position of each window, in the dataset's order:
  // windows() * max_length lists (NextTokenTraining::predict).
  std::vector<std::vector<TokenGuess>> predict(Index k) const;

  const NextTokenTraining& model() const { return model_; }
  const DataLoader& loader() const { return loader_; }

 private:
  WindowTraining(NextTokenTraining model, DataLoader loader)
      : model_(std::move(model)), loader_(std::move(loader)) {}

  NextTokenTraining model_;
  DataLoader loader_;
};

}  // namespace embedlab
