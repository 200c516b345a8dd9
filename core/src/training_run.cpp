#include "embedlab/training_run.hpp"

#include <utility>

#include "embedlab/ids.hpp"
#include "embedlab/torch_init.hpp"

namespace embedlab {

TrainingRun::TrainingRun(TorchGenerator generator, Matrix weight, const TrainingOptions& options,
                         const Limits& limits)
    : generator_(std::move(generator)), training_(weight, options, limits), limits_(limits) {}

TrainingRun TrainingRun::seeded(std::int64_t seed, Index vocab, Index dim,
                                const TrainingOptions& options, const Limits& limits) {
  check_training(vocab, dim, options, limits);
  TorchGenerator generator(seed);
  Matrix weight = init_embedding(generator, vocab, dim, options.padding_idx, limits);
  return TrainingRun(std::move(generator), std::move(weight), options, limits);
}

TrainingRun TrainingRun::from_table(const Matrix& weight, const TrainingOptions& options,
                                    std::int64_t gradient_seed, const Limits& limits) {
  check_training(weight.rows(), weight.cols(), options, limits);
  return TrainingRun(TorchGenerator(gradient_seed), weight, options, limits);
}

DrawnStep TrainingRun::step(const Ids& batch) {
  const Matrix& weight = training_.embedding_weight();
  check_ids(batch, weight.rows());
  check_onehot_shape(static_cast<Index>(batch.size()), weight.rows(), limits_);
  const TorchGenerator before = generator_;
  try {
    Matrix upstream =
        torch_randn(generator_, static_cast<Index>(batch.size()), weight.cols(), limits_);
    TrainingStep step = training_.step(batch, upstream);
    return {std::move(upstream), std::move(step)};
  } catch (...) {
    generator_ = before;
    throw;
  }
}

}  // namespace embedlab
