#include "embedlab/error.hpp"

namespace embedlab {

std::string_view argument_name(Argument argument) {
  switch (argument) {
    case Argument::ids:
      return "ids";
    case Argument::vocab:
      return "vocab";
    case Argument::dim:
      return "dim";
    case Argument::seed:
      return "seed";
    case Argument::weights:
      return "weights";
    case Argument::grad:
      return "grad";
    case Argument::offsets:
      return "offsets";
    case Argument::mode:
      return "mode";
    case Argument::padding_idx:
      return "padding_idx";
    case Argument::per_sample_weights:
      return "per_sample_weights";
    case Argument::max_norm:
      return "max_norm";
    case Argument::norm_type:
      return "norm_type";
    case Argument::onehot:
      return "onehot";
    case Argument::compared:
      return "compared";
    case Argument::optimizer:
      return "optimizer";
    case Argument::lr:
      return "lr";
    case Argument::momentum:
      return "momentum";
    case Argument::dampening:
      return "dampening";
    case Argument::nesterov:
      return "nesterov";
    case Argument::weight_decay:
      return "weight_decay";
    case Argument::betas:
      return "betas";
    case Argument::eps:
      return "eps";
    case Argument::amsgrad:
      return "amsgrad";
    case Argument::lr_decay:
      return "lr_decay";
    case Argument::initial_accumulator_value:
      return "initial_accumulator_value";
    case Argument::alpha:
      return "alpha";
    case Argument::centered:
      return "centered";
    case Argument::maximize:
      return "maximize";
    case Argument::max_length:
      return "max_length";
    case Argument::stride:
      return "stride";
    case Argument::batch_size:
      return "batch_size";
    case Argument::epochs:
      return "epochs";
  }
  return "unknown";
}

const std::vector<Argument>& all_arguments() {
  static const std::vector<Argument> all = {Argument::ids,
                                            Argument::vocab,
                                            Argument::dim,
                                            Argument::seed,
                                            Argument::weights,
                                            Argument::grad,
                                            Argument::offsets,
                                            Argument::mode,
                                            Argument::padding_idx,
                                            Argument::per_sample_weights,
                                            Argument::max_norm,
                                            Argument::norm_type,
                                            Argument::onehot,
                                            Argument::compared,
                                            Argument::optimizer,
                                            Argument::lr,
                                            Argument::momentum,
                                            Argument::dampening,
                                            Argument::nesterov,
                                            Argument::weight_decay,
                                            Argument::betas,
                                            Argument::eps,
                                            Argument::amsgrad,
                                            Argument::lr_decay,
                                            Argument::initial_accumulator_value,
                                            Argument::alpha,
                                            Argument::centered,
                                            Argument::maximize,
                                            Argument::max_length,
                                            Argument::stride,
                                            Argument::batch_size,
                                            Argument::epochs};
  return all;
}

}  // namespace embedlab
