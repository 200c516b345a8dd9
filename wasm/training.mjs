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
// trainingApi(core, checks) gives the functions embedlab.mjs's API spreads in, and the constants
// optimizers, rowCauses and batchRoles; checks are its argument checkers.

import { handleLife } from './handles.mjs';

export function trainingApi(core, checks) {
  const { EmbedlabError, unwrap, describe, number, numbers, matrix, string, boolean, options } =
    checks;

  // Each optimizer with its hyperparameters and PyTorch's defaults (the core's lists).
  const optimizers = Object.freeze(
    core.optimizers().map((o) =>
      Object.freeze({
        ...o,
        arguments: Object.freeze(o.arguments.map((a) => Object.freeze(a))),
      }),
    ),
  );
  const rowCauses = Object.freeze(core.rowCauses().map((c) => Object.freeze(c)));
  const batchRoles = Object.freeze(core.batchRoles().map((r) => Object.freeze(r)));
  // How each hyperparameter is written: 'number', 'flag' or 'pair' (betas).
  const forms = new Map(optimizers.flatMap((o) => o.arguments.map((a) => [a.name, a.form])));

  // A hyperparameter of the wrong type is an error of that hyperparameter (the core's name).
  function wrongType(where, key, expected, value) {
    throw new EmbedlabError(
      `${where}: optimizer.${key} must be ${expected}, got ${describe(value)}`,
      key,
    );
  }

  // { name, ...hyperparameters as torch.optim names them }: the hyperparameters left out or null
  // are PyTorch's defaults. Which ones the optimizer takes, and their values, the core checks.
  function optimizer(where, value) {
    const { name, ...given } = options(where, value);
    const out = { name: string(where, 'optimizer.name', name) };
    for (const [key, v] of Object.entries(given)) {
      if (v === null || v === undefined) continue;
      const form = forms.get(key);
      if (form === 'number' && typeof v !== 'number') wrongType(where, key, 'a number', v);
      if (form === 'flag' && typeof v !== 'boolean') wrongType(where, key, 'true or false', v);
      if (
        form === 'pair' &&
        !(
          (Array.isArray(v) || ArrayBuffer.isView(v)) &&
          v.length === 2 &&
          Array.from(v).every((x) => typeof x === 'number')
        )
      ) {
        wrongType(where, key, 'two numbers [beta1, beta2]', v);
      }
      out[key] = v;
    }
    return out;
  }

  // { optimizer, sparse, paddingIdx } with every key present, as the bindings read them.
  function trainingOptions(where, value) {
    const { optimizer: o, sparse = false, paddingIdx = null } = options(where, value);
    return {
      optimizer: optimizer(where, o),
      sparse: boolean(where, 'sparse', sparse),
      paddingIdx: paddingIdx === null ? null : number(where, 'paddingIdx', paddingIdx),
    };
  }

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

  // { maxLength, stride, batchSize, shuffle } with every key present, as the bindings read them.
  function loaderOptions(where, value) {
    const { maxLength, stride = maxLength, batchSize = 1, shuffle = false } = value;
    return {
      maxLength: number(where, 'maxLength', maxLength),
      stride: number(where, 'stride', stride),
      batchSize: number(where, 'batchSize', batchSize),
      shuffle: boolean(where, 'shuffle', shuffle),
    };
  }

  // The chapter's loop: step() takes the loader's next batch (details: the weights, gradients
  // and optimizer state after it too); predict(k) gives each window position's k likeliest
  // next tokens.
  function windowTraining(handle) {
    const own = owned(handle, 'training', 'start a new training');
    const self = Object.freeze({
      ...handle.info(),
      step: ({ details = true } = {}) => own.call('step', boolean('step', 'details', details)),
      predict: (k = 3) => own.call('predict', number('predict', 'k', k)),
      delete: () => own.delete(self),
    });
    return register(self, handle);
  }

  return {
    optimizers,
    rowCauses,
    batchRoles,
    checkLoader: (n, opts) => {
      unwrap(
        core.checkLoader(
          number('checkLoader', 'n', n),
          loaderOptions('checkLoader', options('checkLoader', opts)),
        ),
      );
    },
    windowTraining: (seed, vocab, dim, ids, opts) => {
      const {
        head = 'tied',
        optimizer: o,
        positions = false,
        ...loader
      } = options('windowTraining', opts);
      return windowTraining(
        unwrap(
          core.windowTraining(
            ...seeded('windowTraining', seed, vocab, dim),
            numbers('windowTraining', 'ids', ids),
            {
              head: string('windowTraining', 'head', head),
              optimizer: optimizer('windowTraining', o),
              positions: boolean('windowTraining', 'positions', positions),
              ...loaderOptions('windowTraining', loader),
            },
          ),
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
          trainingOptions('checkTraining', opts),
        ),
      );
    },
    seededTraining: (seed, vocab, dim, opts) =>
      training(
        unwrap(
          core.seededTraining(
            ...seeded('seededTraining', seed, vocab, dim),
            trainingOptions('seededTraining', opts),
          ),
        ),
      ),
    seededNextTokenTraining: (seed, vocab, dim, opts) => {
      const { head = 'tied', optimizer: o } = options('seededNextTokenTraining', opts);
      return nextTokenTraining(
        unwrap(
          core.seededNextTokenTraining(
            ...seeded('seededNextTokenTraining', seed, vocab, dim),
            string('seededNextTokenTraining', 'head', head),
            optimizer('seededNextTokenTraining', o),
          ),
        ),
      );
    },
    tableTraining: (W, opts) => {
      const { gradSeed = null, ...rest } = options('tableTraining', opts);
      return training(
        unwrap(
          core.tableTraining(matrix('tableTraining', 'W', W), {
            ...trainingOptions('tableTraining', rest),
            gradSeed: gradSeed === null ? null : number('tableTraining', 'gradSeed', gradSeed),
          }),
        ),
      );
    },
  };
}
