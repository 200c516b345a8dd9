// Training: nn.Embedding and nn.Linear on one-hot rows stepped side by side by one torch.optim
// optimizer each, bit for bit as PyTorch 1.13 steps them (training_bindings.cpp; README.md
// "Training"; types in embedlab.d.ts). A training holds both routes and the generator of their
// upstream gradients in WASM memory: seededTraining draws the table and each step's G as
//   torch.manual_seed(seed); embedding = nn.Embedding(V, d, padding_idx=p)
//   G = torch.randn(len(batch), d)    # per step, from the same generator
// and tableTraining starts from a given W, G drawn after torch.manual_seed(gradSeed).
// windowTraining runs the chapter's loop: one sequence's windows through DataLoader, next-token
// prediction through a tied or untied head, with positions or without (window_training.hpp).
//
// trainingApi(core, checks) gives the functions embedlab.mjs's API takes in, and the constants
// optimizers, rowCauses and batchRoles, as getters; checks are its argument checkers.

import { handleLife } from './handles.mjs';
import { OPTIONS, trainingOptions } from './options.mjs';

export function trainingApi(core, checks) {
  const { unwrap, number, numbers, matrix, string, options } = checks;

  // The constants are read from the core when first asked for: their code is in the module's
  // deferred file (split_module.mjs), and a first screen trains nothing.
  const once = (make) => {
    let value;
    return () => (value ??= make());
  };
  // Each optimizer with its hyperparameters and PyTorch's defaults (the core's lists).
  const optimizers = once(() =>
    Object.freeze(
      core.optimizers().map((o) =>
        Object.freeze({
          ...o,
          arguments: Object.freeze(o.arguments.map((a) => Object.freeze(a))),
        }),
      ),
    ),
  );
  const rowCauses = once(() => Object.freeze(core.rowCauses().map((c) => Object.freeze(c))));
  const batchRoles = once(() => Object.freeze(core.batchRoles().map((r) => Object.freeze(r))));
  // The training functions' options objects, the optimizer's keys among them (options.mjs).
  const shapes = once(() => trainingOptions(optimizers()));
  // The optimizer alone: { name, ...hyperparameters }, those left out or null PyTorch's defaults.
  const optimizer = (where, value) => options(where, value, shapes().optimizer, 'optimizer');
  // The loader's options with every key present, as the bindings read them (stride: max_length's
  // unless given).
  const loader = ({ maxLength, stride, batchSize, shuffle }) => ({
    maxLength,
    stride: stride ?? maxLength,
    batchSize,
    shuffle,
  });

  const { owned, register } = handleLife(checks);

  // A seeded training's first arguments, checked: torch.manual_seed(seed), V, d.
  const seeded = (where, seed, vocab, dim) => [
    number(where, 'seed', seed),
    number(where, 'vocab', vocab),
    number(where, 'dim', dim),
  ];

  function training(handle) {
    const { steps: taken, ...info } = handle.info();
    let steps = taken;
    const own = owned(handle, 'training', 'start a new training');
    const self = Object.freeze({
      ...info,
      get steps() {
        return steps;
      },
      step: (batch) => {
        const result = own.call('step', numbers('step', 'ids', batch));
        steps = result.step;
        return result;
      },
      rowState: (row) => own.call('rowState', number('rowState', 'row', row)),
      delete: () => own.delete(self),
    });
    return register(self, handle);
  }

  // Next-token prediction through the output layer: each step(sequence) trains
  // F.cross_entropy(head(embedding(seq[:-1])), seq[1:]).
  function nextTokenTraining(handle) {
    const own = owned(handle, 'training', 'start a new training');
    const self = Object.freeze({
      ...handle.info(),
      step: (sequence) => own.call('step', numbers('step', 'ids', sequence)),
      delete: () => own.delete(self),
    });
    return register(self, handle);
  }

  // The chapter's loop: step() takes the loader's next batch (details: the weights, gradients
  // and optimizer state after it too); predict(k) gives each window position's k likeliest
  // next tokens.
  function windowTraining(handle) {
    const own = owned(handle, 'training', 'start a new training');
    const self = Object.freeze({
      ...handle.info(),
      step: (opts) => own.call('step', options('step', opts, OPTIONS.windowStep).details),
      predict: (k = 3) => own.call('predict', number('predict', 'k', k)),
      delete: () => own.delete(self),
    });
    return register(self, handle);
  }

  return {
    get optimizers() {
      return optimizers();
    },
    get rowCauses() {
      return rowCauses();
    },
    get batchRoles() {
      return batchRoles();
    },
    checkLoader: (n, opts) => {
      unwrap(
        core.checkLoader(
          number('checkLoader', 'n', n),
          loader(options('checkLoader', opts, OPTIONS.loader)),
        ),
      );
    },
    windowTraining: (seed, vocab, dim, ids, opts) => {
      const where = 'windowTraining';
      const {
        head,
        optimizer: o,
        positions,
        ...rest
      } = options(where, opts, shapes().windowTraining);
      return windowTraining(
        unwrap(
          core.windowTraining(...seeded(where, seed, vocab, dim), numbers(where, 'ids', ids), {
            head,
            optimizer: o,
            positions,
            ...loader(rest),
          }),
        ),
      );
    },
    optimizerCode: (o, params = 'params') =>
      unwrap(
        core.optimizerCode(
          optimizer('optimizerCode', o),
          string('optimizerCode', 'params', params),
        ),
      ),
    parseBatches: (text) => unwrap(core.parseBatches(string('parseBatches', 'text', text))),
    checkTraining: (vocab, dim, opts) => {
      unwrap(
        core.checkTraining(
          number('checkTraining', 'vocab', vocab),
          number('checkTraining', 'dim', dim),
          options('checkTraining', opts, shapes().training),
        ),
      );
    },
    seededTraining: (seed, vocab, dim, opts) =>
      training(
        unwrap(
          core.seededTraining(
            ...seeded('seededTraining', seed, vocab, dim),
            options('seededTraining', opts, shapes().training),
          ),
        ),
      ),
    seededNextTokenTraining: (seed, vocab, dim, opts) => {
      const where = 'seededNextTokenTraining';
      const { head, optimizer: o } = options(where, opts, shapes().nextToken);
      return nextTokenTraining(
        unwrap(core.seededNextTokenTraining(...seeded(where, seed, vocab, dim), head, o)),
      );
    },
    tableTraining: (W, opts) =>
      training(
        unwrap(
          core.tableTraining(
            matrix('tableTraining', 'W', W),
            options('tableTraining', opts, shapes().tableTraining),
          ),
        ),
      ),
  };
}
