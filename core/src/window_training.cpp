#include "embedlab/window_training.hpp"

#include <utility>

#include "embedlab/ids.hpp"

namespace embedlab {

WindowTraining WindowTraining::seeded(std::int64_t seed, Index vocab, Index dim, HeadKind head,
                                      const OptimizerOptions& optimizer, bool positions, Ids ids,
                                      const LoaderOptions& loader, const Limits& limits) {
  check_loader(static_cast<Index>(ids.size()), loader, limits);
  check_ids(ids, vocab);
  DataLoader data(std::move(ids), loader, limits);
  NextTokenTraining model = NextTokenTraining::seeded(seed, vocab, dim, head, optimizer,
                                                      positions ? loader.max_length : 0, limits);
  return WindowTraining(std::move(model), std::move(data));
}

WindowStep WindowTraining::step() {
  WindowStep out;
  out.batch = loader_.next(model_.generator());
  out.step = model_.step(out.batch.inputs, out.batch.targets);
  return out;
}

std::vector<std::vector<TokenGuess>> WindowTraining::predict(Index k) const {
  Ids all(static_cast<std::size_t>(loader_.windows()));
  for (Index w = 0; w < loader_.windows(); ++w) all[static_cast<std::size_t>(w)] = w;
  return model_.predict(loader_.inputs_of(all), k);
}

}  // namespace embedlab
