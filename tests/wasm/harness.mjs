// What the WASM tests share: loading the built module from the site folder, the native reference
// driver, and the encoding that lets both sides' results be compared bit for bit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { siteDir } from '../site-dir.mjs';

export { siteDir };

// The module's exports, through Node's entry. A missing build is a failure, never a skip.
export async function importEmbedlab() {
  const wrapper = path.join(siteDir, 'embedlab', 'embedlab.node.mjs');
  if (!existsSync(wrapper)) {
    throw new Error(
      `${wrapper} does not exist: build the wasm preset first ` +
        '(cmake --preset wasm && cmake --build --preset wasm)',
    );
  }
  return import(pathToFileURL(wrapper).href);
}

// f must throw the module's EmbedlabError, its message matching pattern, about `argument`.
export function assertThrowsEmbedlab(EmbedlabError, f, pattern, argument) {
  assert.throws(f, (error) => {
    assert.ok(error instanceof EmbedlabError, `${error} is not an EmbedlabError`);
    assert.match(error.message, pattern);
    assert.equal(error.argument, argument);
    return true;
  });
}

export function hex(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

// "ROWSxCOLS:" then each float32's bits as 8 hex digits: equal text means equal bits.
export function matrixText(m) {
  const bits = new Uint32Array(Float32Array.from(m.data).buffer);
  return `${m.rows}x${m.cols}:` + Array.from(bits, (b) => b.toString(16).padStart(8, '0')).join('');
}

// A number as native_reference reads it back (std::stod), −0 included.
const numberText = (x) => (Object.is(x, -0) ? '-0' : String(x));

// One argument as a tab-separated field, as native_reference reads it.
function field(arg) {
  if (typeof arg === 'number') return numberText(arg);
  if (typeof arg === 'boolean') return arg ? '1' : '0';
  if (typeof arg === 'string') return hex(Buffer.from(arg, 'utf8'));
  if (arg instanceof Uint8Array) return hex(arg);
  if (Array.isArray(arg) || ArrayBuffer.isView(arg)) {
    return Array.from(arg, (x) =>
      typeof x === 'string' || x instanceof Uint8Array ? field(x) : numberText(x),
    ).join(',');
  }
  if ('rows' in arg) return matrixText(arg);
  return Object.entries(arg)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${key}=${field(value)}`)
    .join(';');
}

// A comparison and its grade as native_reference prints them: plain arrays, and JSON's stand-ins
// for NaN and infinity.
function comparisonText(c) {
  const { grade } = c;
  const maxAbsDiff = Number.isFinite(grade.maxAbsDiff)
    ? grade.maxAbsDiff
    : String(grade.maxAbsDiff);
  return {
    ...c,
    grade: { ...grade, maxAbsDiff, differing: grade.differing && Array.from(grade.differing) },
  };
}

// Runs every case [op, ...args] through the native core; one result object per case.
export function runNative(cases) {
  const driver = process.env.EMBEDLAB_NATIVE_REFERENCE;
  if (!driver || !existsSync(driver)) {
    throw new Error(
      'EMBEDLAB_NATIVE_REFERENCE must name the native_reference program: run this ' +
        'test through ctest in the native build tree',
    );
  }
  const input = cases.map(([op, ...args]) => [op, ...args.map(field)].join('\t') + '\n').join('');
  const run = spawnSync(driver, { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${driver} failed (${run.status}): ${run.stderr}`);
  const lines = run.stdout.trimEnd().split('\n');
  if (lines.length !== cases.length) {
    throw new Error(`${driver} answered ${lines.length} of ${cases.length} cases`);
  }
  return lines.map((line) => JSON.parse(line));
}

// The same result shapes as native_reference prints, from the JS API.
// A table handle's opener is given the ids its lookup and product run with, last. A method of a
// handle ('table.backward', ...) is given the table first: a .npy file's bytes, or V for a table
// whose rows the method does not read (openTfTable(V, d), d from G or 1); table.rowsAt a
// .safetensors file and a tensor's name. table.bagBackward runs table.embeddingBag for the
// forward first; table.backward's last argument asks for onehot^T G beside the scatter-add.
// The training functions' give the optimizer spread out (its name, its hyperparameters, the
// training's options) and the batches as text, last.
const adapters = {
  openSeededTable: (lab, seed, vocab, dim, ids) =>
    tableRun(lab.openSeededTable(seed, vocab, dim), ids),
  openTfTable: (lab, vocab, dim, ids) => tableRun(lab.openTfTable(vocab, dim), ids),
  openNpyTable: (lab, bytes, ids) => tableRun(lab.openNpyTable(bytes), ids),
  openSafetensorsTable: (lab, file, name, ids) =>
    tableRun(lab.openSafetensorsTable(memorySource(file), name), ids),
  openGgufTable: (lab, file, name, ids) =>
    tableRun(lab.openGgufTable(memorySource(file), name), ids),
  'table.backward': (lab, vocab, ids, G, options, gemm) =>
    withTable(lab.openTfTable(vocab, G.cols), (table) => {
      const run = table.backward(ids, G, options);
      return {
        backward: {
          scatter: matrixText(run.scatter.whole),
          gemm: gemm ? matrixText(run.gemm.whole) : null,
        },
      };
    }),
  'table.embeddingBag': (lab, file, ids, offsets, options) =>
    withTable(lab.openNpyTable(file), (table) => table.embeddingBag(ids, offsets, options)),
  'table.bagBackward': (lab, file, ids, offsets, G, options) =>
    withTable(
      lab.openNpyTable(file),
      (table) =>
        table.bagBackward(ids, offsets, G, table.embeddingBag(ids, offsets, options), options)
          .whole,
    ),
  'table.bagMatrix': (lab, vocab, ids, offsets, options) =>
    withTable(lab.openTfTable(vocab, 1), (table) => table.bagMatrix(ids, offsets, options)),
  'table.renorm': (lab, file, ids, maxNorm, normType) =>
    withTable(lab.openNpyTable(file), (table) => {
      const { table: renormed, scaledRows } = table.renorm(ids, maxNorm, normType);
      return withTable(renormed, () => ({
        weight: renormed.rowsAt(0, renormed.rows),
        scaledRows,
      }));
    }),
  'table.rowsAt': (lab, file, name, first, count) =>
    withTable(lab.openSafetensorsTable(memorySource(file), name), (table) =>
      table.rowsAt(first, count),
    ),
  parseBatches: (lab, text) => ({ batches: lab.parseBatches(text).map((ids) => Array.from(ids)) }),
  optimizerCode: (lab, name, hyper, params) => lab.optimizerCode({ name, ...hyper }, params),
  checkTraining: (lab, vocab, dim, name, hyper, options) =>
    lab.checkTraining(vocab, dim, { optimizer: { name, ...hyper }, ...options }),
  seededTraining: (lab, seed, vocab, dim, name, hyper, options, batches) => {
    const parsed = lab.parseBatches(batches);
    return trainingRun(
      lab,
      lab.seededTraining(seed, vocab, dim, { optimizer: { name, ...hyper }, ...options }),
      parsed,
    );
  },
  tableTraining: (lab, W, name, hyper, options, batches) => {
    const parsed = lab.parseBatches(batches);
    return trainingRun(
      lab,
      lab.tableTraining(W, { optimizer: { name, ...hyper }, ...options }),
      parsed,
    );
  },
  // The positions' exact results and each position's top 3 ids (the logits themselves are sums
  // in the GEMM's order, which WebAssembly's kernel and Eigen's need not share).
  openSeededPositions: (lab, seed, vocab, dim, contextLength, batch) =>
    positionsRun(lab.openSeededPositions(seed, vocab, dim, contextLength), batch),
  // The same on a checkpoint's tables, with its tensors' names and its tying.
  openCheckpointPositions: (lab, file, config, batch) =>
    positionsRun(lab.openCheckpointPositions(memorySource(file), config), batch, (p) => ({
      checkpoint: p.checkpoint,
    })),
  windowTraining: windowRun,
  openPositionTables: (lab, token, position, batch) =>
    positionsRun(lab.openPositionTables(token, position), batch),
  // The drawn tables and each step's changed rows (the loss and weights are sums in the GEMM's
  // order and the C library's exp, which need not agree across the two builds).
  seededNextTokenTraining: (lab, seed, vocab, dim, head, name, hyper, batches) => {
    const run = lab.seededNextTokenTraining(seed, vocab, dim, {
      head,
      optimizer: { name, ...hyper },
    });
    try {
      const steps = lab.parseBatches(batches).map((sequence) => {
        const s = run.step(sequence);
        return {
          inputs: Array.from(s.inputs),
          targets: Array.from(s.targets),
          changedRows: Array.from(s.changed.rows),
          changedCauses: Array.from(s.changed.causes, (c) => lab.rowCauses[c].name),
        };
      });
      return {
        nextToken: {
          weight: matrixText(run.weight),
          headWeight: matrixText(run.headWeight),
          steps,
        },
      };
    } finally {
      run.delete();
    }
  },
};

// The chapter's loop: its tables as drawn and each step's batch and changed rows, with their
// causes and roles (its loss is a sum in the GEMM's order, which the two builds need not share).
function windowRun(lab, seed, vocab, dim, ids, head, name, hyper, options, steps) {
  const run = lab.windowTraining(seed, vocab, dim, ids, {
    head,
    optimizer: { name, ...hyper },
    ...options,
  });
  try {
    return {
      windowTraining: {
        weight: matrixText(run.weight),
        positionWeight: run.positionWeight ? matrixText(run.positionWeight) : null,
        windows: run.windows,
        batchesPerEpoch: run.batchesPerEpoch,
        steps: Array.from({ length: steps }, () => {
          const s = run.step({ details: false });
          return {
            epoch: s.epoch,
            windows: Array.from(s.windows),
            inputs: Array.from(s.inputs),
            targets: Array.from(s.targets),
            changedRows: Array.from(s.changed.rows),
            changedCauses: Array.from(s.changed.causes, (c) => lab.rowCauses[c].name),
            changedRoles: Array.from(s.changed.roles, (r) => lab.batchRoles[r].name),
          };
        }),
      },
    };
  } finally {
    run.delete();
  }
}

// f(table), then the table deleted.
function withTable(table, f) {
  try {
    return f(table);
  } finally {
    table.delete();
  }
}

// A file's bytes as a table source, read a range at a time.
// A positions handle's embed() and top 3 ids for batch, with what more(positions) adds; deleted.
function positionsRun(positions, batch, more = () => ({})) {
  try {
    const e = positions.embed(batch);
    const { top } = positions.head(batch, { topK: 3 });
    return {
      positions: {
        rows: e.rows,
        length: e.length,
        tokenEmbeddings: matrixText(e.tokenEmbeddings),
        posEmbeddings: matrixText(e.posEmbeddings),
        positionProduct: matrixText(e.positionProduct),
        comparison: comparisonText(e.comparison),
        inputEmbeddings: matrixText(e.inputEmbeddings),
        topIds: top.map((row) => row.map((t) => t.id)),
        ...more(positions),
      },
    };
  } finally {
    positions.delete();
  }
}

export function memorySource(bytes) {
  return { size: bytes.length, read: (offset, length) => bytes.slice(offset, offset + length) };
}

// What native_reference prints for a table: its description, its rows, the lookup, the product
// (a 3 x 4 heatmap of W gathered on the way, blocks of 512 rows) and their comparison.
function tableRun(table, ids) {
  return withTable(table, () => {
    const { lookup, product, comparison, heatmap } = table.product(ids, {
      blockRows: 512,
      heatmap: { rows: 3, cols: 4 },
    });
    const { rows, cols, dtype, name, conversion, inMemory, storedBytes } = table;
    return {
      tableRun: {
        info: { rows, cols, dtype, name, conversion, inMemory, storedBytes },
        weight: matrixText(table.rowsAt(0, rows)),
        lookup: matrixText(lookup),
        product: matrixText(product),
        comparison: comparisonText(comparison),
        heatmap: matrixText(heatmap),
      },
    };
  });
}

// What native_reference prints for a training: its start, then each batch's step with every
// row's optimizer state after it.
function trainingRun(lab, training, batches) {
  try {
    const { weight, paddingRow, linearRefusal } = training;
    const steps = batches.map((batch) => {
      const s = training.step(batch);
      return {
        step: s.step,
        batch: Array.from(s.batch),
        upstream: matrixText(s.upstream),
        embeddingWeight: matrixText(s.embeddingWeight),
        linearWeight: s.linearWeight && matrixText(s.linearWeight),
        changedRows: Array.from(s.changed.rows),
        changedCauses: Array.from(s.changed.causes, (c) => lab.rowCauses[c].name),
        linearChanged: s.linearChanged && Array.from(s.linearChanged),
        verdict: s.verdict && comparisonText(s.verdict),
        rowStates: Array.from({ length: training.vocab }, (_, row) => {
          const { step, state } = training.rowState(row);
          return {
            step,
            state: state.map(({ name, values }) => ({ name, values: matrixText(values) })),
          };
        }),
      };
    });
    return { training: { weight: matrixText(weight), paddingRow, linearRefusal, steps } };
  } finally {
    training.delete();
  }
}

export function runWasm(lab, EmbedlabError, [op, ...args]) {
  let result;
  try {
    result = adapters[op] ? adapters[op](lab, ...args) : lab[op](...args);
  } catch (error) {
    if (error instanceof EmbedlabError) return { error: error.message, argument: error.argument };
    throw error;
  }
  if (result === undefined) return { ok: true };
  if (typeof result === 'number') return { number: result };
  if (typeof result === 'string') return { string: result };
  if (typeof result === 'boolean') return { boolean: result };
  if ('tensors' in result) return { header: result };
  if ('tableRun' in result || 'backward' in result) return result;
  if ('weightMap' in result) return { index: result };
  if ('training' in result || 'batches' in result) return result;
  if ('positions' in result || 'nextToken' in result || 'windowTraining' in result) return result;
  if (result instanceof Float64Array) return { ids: Array.from(result) };
  if (Array.isArray(result)) return { strings: result };
  if ('bitIdentical' in result) return { compare: comparisonText(result) };
  if ('comparison' in result) {
    return {
      routes: {
        lookup: matrixText(result.lookup),
        product: matrixText(result.product),
        comparison: comparisonText(result.comparison),
      },
    };
  }
  if ('literals' in result) {
    return {
      weights: {
        values: Array.from(result.values),
        texts: result.texts,
        literals: result.literals,
      },
    };
  }
  if ('bagSize' in result) {
    return {
      bag: {
        output: matrixText(result.output),
        bagSize: Array.from(result.bagSize),
        maxRows: Array.from(result.maxRows),
      },
    };
  }
  if ('scaledRows' in result) {
    return {
      renorm: { weight: matrixText(result.weight), scaledRows: Array.from(result.scaledRows) },
    };
  }
  if ('weight' in result) {
    return { weight: matrixText(result.weight), bias: result.bias && matrixText(result.bias) };
  }
  return { matrix: matrixText(result) };
}
