// Table handles: a table opened once and computed on where it is (table_bindings.cpp; README.md
// "Table handles"; types in embedlab.d.ts). Its rows stay in WASM memory (a seeded or TensorFlow
// table, .npy bytes, a small file) or are read through the caller's source when a computation
// needs them, so W never crosses the boundary per call. Products run a block of rows per step()
// of a run, so that a worker can report progress and stop between blocks.
//
// tableApi(core, checks) gives the functions embedlab.mjs's API spreads in: checks are its
// argument checkers, so both files refuse arguments with the same words.

import { handleLife } from './handles.mjs';

export function tableApi(core, checks) {
  const {
    EmbedlabError,
    unwrap,
    fail,
    describe,
    number,
    numbers,
    matrix,
    bytes,
    string,
    options,
    OPTIONS,
    byteSource,
  } = checks;

  // { blockRows, heatmap: { rows, cols } or null }, read, as the bindings take it.
  const streamed = ({ blockRows, heatmap }) => ({
    blockRows,
    heatmapRows: heatmap?.rows ?? 0,
    heatmapCols: heatmap?.cols ?? 0,
  });
  // label: the argument's name in messages ('options', or the bags' 'streamOptions').
  const streamOptions = (where, value, label = 'options') =>
    streamed(options(where, value, OPTIONS.stream, label));
  // { whole, keepRows, blockRows, heatmap } -> what the bindings read.
  function viewOptions(where, value) {
    const { whole, keepRows, ...stream } = options(where, value, OPTIONS.view, 'view');
    return { whole, keepRows, ...streamed(stream) };
  }
  const embeddingOptions = (where, value) => options(where, value, OPTIONS.embedding);
  const bagOptions = (where, value) => options(where, value, OPTIONS.bag);

  // What embeddingBag returned.
  function bagForward(where, value) {
    if (value === null || typeof value !== 'object') {
      fail(where, 'forward', 'what table.embeddingBag returned', value);
    }
    matrix(where, 'forward.output', value.output);
    numbers(where, 'forward.bagSize', value.bagSize);
    numbers(where, 'forward.maxRows', value.maxRows);
    return value;
  }

  const life = handleLife(checks);
  const owned = (handle, what) => life.owned(handle, what, 'open the table again');
  const { register } = life;

  // A run of a streamed product (or gradient): step() until done, then result().
  function run(handle, where, extra) {
    const own = owned(handle, where);
    const self = {
      ...extra(own),
      get progress() {
        return own.call('progress');
      },
      get done() {
        return own.call('progress').done;
      },
      step(blocks = 1) {
        return own.call('step', number(`${where}.step`, 'blocks', blocks));
      },
      result() {
        return own.call('result');
      },
      delete() {
        own.delete(self);
      },
    };
    return register(Object.freeze(self), handle);
  }

  function productRun(handle, where) {
    return run(handle, where, (own) => ({ expected: own.call('expected') }));
  }

  function gradientRun(handle, where) {
    return run(handle, where, (own) => ({ scatter: own.call('scatter') }));
  }

  // Every step of a run, with onProgress(progress) after each; onProgress returning false stops
  // it. The run is deleted either way.
  function finish(r, onProgress, keep) {
    try {
      for (;;) {
        const progress = r.step(1);
        if (onProgress && onProgress(progress) === false && !progress.done) {
          return { ...keep(r), stopped: true, progress };
        }
        if (progress.done) return { ...keep(r), ...r.result(), stopped: false, progress };
      }
    } finally {
      r.delete();
    }
  }

  function table(handle) {
    const info = handle.info();
    const own = owned(handle, 'table');
    // A method of (ids, offsets, options) on the bags.
    const bags = (method) => (ids, offsets, opts) =>
      own.call(
        method,
        numbers(method, 'ids', ids),
        numbers(method, 'offsets', offsets),
        bagOptions(method, opts),
      );
    // The runs, each started by its start method or by the method that runs it to its end
    // (`where`, which messages name); those take onProgress beside the stream's options.
    const startProduct = (where) => (ids, opts) =>
      productRun(
        own.call('startProduct', numbers(where, 'ids', ids), streamOptions(where, opts)),
        where,
      );
    const startHeatmap = (where) => (opts) =>
      productRun(own.call('startHeatmap', streamOptions(where, opts)), where);
    const startBagProduct = (where) => (ids, offsets, opts, streamOpts) =>
      productRun(
        own.call(
          'startBagProduct',
          numbers(where, 'ids', ids),
          numbers(where, 'offsets', offsets),
          bagOptions(where, opts),
          streamOptions(where, streamOpts, 'streamOptions'),
        ),
        where,
      );
    const startBackward = (where) => (ids, G, opts, view) =>
      gradientRun(
        own.call(
          'startBackward',
          numbers(where, 'ids', ids),
          matrix(where, 'G', G),
          embeddingOptions(where, opts),
          viewOptions(where, view),
        ),
        where,
      );
    const progressOf = (where, value, label = 'options') => {
      const shape = label === 'view' ? OPTIONS.backwardView : OPTIONS.product;
      const { onProgress, ...rest } = options(where, value, shape, label);
      return [onProgress, rest];
    };
    const self = {
      ...info,
      lookup: (ids) => own.call('lookup', numbers('lookup', 'ids', ids)),
      rowsAt: (first, count) =>
        own.call('rows', number('rowsAt', 'first', first), number('rowsAt', 'count', count)),
      startProduct: startProduct('startProduct'),
      product: (ids, opts) => {
        const [onProgress, rest] = progressOf('product', opts);
        return finish(startProduct('product')(ids, rest), onProgress, (r) => ({
          lookup: r.expected,
        }));
      },
      startHeatmap: startHeatmap('startHeatmap'),
      heatmap: (opts) => {
        const [onProgress, rest] = progressOf('heatmap', opts);
        return finish(startHeatmap('heatmap')(rest), onProgress, () => ({}));
      },
      embeddingBag: bags('embeddingBag'),
      bagMatrix: bags('bagMatrix'),
      startBagProduct: startBagProduct('startBagProduct'),
      bagProduct: (ids, offsets, opts, streamOpts) => {
        const [onProgress, rest] = progressOf('bagProduct', streamOpts, 'streamOptions');
        return finish(startBagProduct('bagProduct')(ids, offsets, opts, rest), onProgress, (r) => ({
          bags: r.expected,
        }));
      },
      startBackward: startBackward('startBackward'),
      backward: (ids, G, opts, view) => {
        const [onProgress, rest] = progressOf('backward', view, 'view');
        return finish(startBackward('backward')(ids, G, opts, rest), onProgress, (r) => ({
          scatter: r.scatter,
        }));
      },
      bagBackward: (ids, offsets, G, forward, opts, view) =>
        own.call(
          'bagBackward',
          numbers('bagBackward', 'ids', ids),
          numbers('bagBackward', 'offsets', offsets),
          matrix('bagBackward', 'G', G),
          bagForward('bagBackward', forward),
          bagOptions('bagBackward', opts),
          viewOptions('bagBackward', view),
        ),
      renorm: (ids, maxNorm, normType = 2) => {
        const { table: renormed, scaledRows } = own.call(
          'renorm',
          numbers('renorm', 'ids', ids),
          number('renorm', 'maxNorm', maxNorm),
          number('renorm', 'normType', normType),
        );
        return { table: table(renormed), scaledRows };
      },
      blocksDecoded: () => own.call('blocksDecoded'),
      blocksDecodedNote: (lookup, product) =>
        own.call(
          'blocksDecodedNote',
          number('blocksDecodedNote', 'lookup', lookup),
          number('blocksDecodedNote', 'product', product),
        ),
      delete: () => own.delete(self),
    };
    return register(Object.freeze(self), handle);
  }

  return {
    openSeededTable: (seed, vocab, dim) =>
      table(
        unwrap(
          core.openSeededTable(
            number('openSeededTable', 'seed', seed),
            number('openSeededTable', 'vocab', vocab),
            number('openSeededTable', 'dim', dim),
          ),
        ),
      ),
    openTfTable: (vocab, dim) =>
      table(
        unwrap(
          core.openTfTable(
            number('openTfTable', 'vocab', vocab),
            number('openTfTable', 'dim', dim),
          ),
        ),
      ),
    openNpyTable: (data) => table(unwrap(core.openNpyTable(bytes('openNpyTable', 'bytes', data)))),
    openSafetensorsTable: (source, name = '') =>
      table(
        unwrap(
          core.openSafetensorsTable(
            byteSource('openSafetensorsTable', source),
            string('openSafetensorsTable', 'name', name),
          ),
        ),
      ),
    openGgufTable: (source, name = '') =>
      table(
        unwrap(
          core.openGgufTable(
            byteSource('openGgufTable', source),
            string('openGgufTable', 'name', name),
          ),
        ),
      ),
    // Which shard of a sharded checkpoint to open: its model.safetensors.index.json, as text.
    safetensorsIndex: (text, name = '') => {
      if (typeof text !== 'string') {
        throw new EmbedlabError(
          'safetensorsIndex: the index must be its JSON text, a string, got ' + describe(text),
          'weights',
        );
      }
      return unwrap(core.safetensorsIndex(text, string('safetensorsIndex', 'name', name)));
    },
  };
}
