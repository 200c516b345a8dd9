#include "embedlab/error.hpp"

namespace embedlab {

std::string_view argument_name(Argument argument) {
  switch (argument) {
    case Argument::ids: return "ids";
    case Argument::vocab: return "vocab";
    case Argument::dim: return "dim";
    case Argument::seed: return "seed";
    case Argument::weights: return "weights";
    case Argument::grad: return "grad";
    case Argument::offsets: return "offsets";
    case Argument::mode: return "mode";
    case Argument::padding_idx: return "padding_idx";
    case Argument::per_sample_weights: return "per_sample_weights";
    case Argument::max_norm: return "max_norm";
    case Argument::norm_type: return "norm_type";
    case Argument::onehot: return "onehot";
    case Argument::compared: return "compared";
  }
  return "unknown";
}

const std::vector<Argument>& all_arguments() {
  static const std::vector<Argument> all = {
      Argument::ids,     Argument::vocab,       Argument::dim,
      Argument::seed,    Argument::weights,     Argument::grad,
      Argument::offsets, Argument::mode,        Argument::padding_idx,
      Argument::per_sample_weights, Argument::max_norm, Argument::norm_type,
      Argument::onehot,  Argument::compared};
  return all;
}

}  // namespace embedlab
