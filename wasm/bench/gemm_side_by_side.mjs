// The WASM GEMM that the one-hot product (and the product streamed through a table) runs on,
// side by side with tfjs-backend-wasm's matMul (XNNPACK, SIMD, one thread), in one Node process:
// the same seeded one-hot (n, V) and table (V, d), ms per call as CPU time, the median of the
// repetitions, and GFLOP/s for 2 n V d FLOP.
//
//   node wasm/bench/gemm_side_by_side.mjs [--stage build/wasm/stage] [--repetitions 5] [--min-ms 200]
//
// embedlab's side is the benchmark module's "dense" method (bench_bindings.cpp: onehot_product,
// the one-hot built beforehand, everything in WASM memory), loaded from embedlab/bench/ in the
// wasm build's stage (the site bundles it into the Benchmark panel's worker); tfjs's is
// tf.matMul on tensors made once. Both products are checked to give the lookup's rows. The tfjs packages are the
// devDependencies package.json pins (npm ci); nothing is downloaded.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import * as tf from '@tensorflow/tfjs-core';
import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

import { makeInputs, msPerCall } from './timing.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: options } = parseArgs({
  options: {
    stage: { type: 'string', default: path.join(root, 'build/wasm/stage') },
    repetitions: { type: 'string', default: '5' },
    'min-ms': { type: 'string', default: '200' },
  },
});

// The page's keystroke (n = 64, V = 4096, d = 64: computed on its main thread), then GPT-2's.
const SHAPES = [
  { vocab: 1000, dim: 64, n: 64 },
  { vocab: 4096, dim: 64, n: 64 },
  { vocab: 50257, dim: 768, n: 16 },
  { vocab: 50257, dim: 768, n: 64 },
];

// CPU milliseconds of this process: both sides run on its main thread.
const clock = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const timed = (run) => (calls) => {
  const start = clock();
  run(calls);
  return clock() - start;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// out must hold table's rows ids[k], exactly: a one-hot product of finite values gives them.
function checkRows(what, out, table, dim, ids) {
  ids.forEach((id, k) => {
    for (let j = 0; j < dim; ++j) {
      if (out[k * dim + j] !== table[id * dim + j]) {
        throw new Error(`${what}: row ${k} is not row ${id} of the table (column ${j})`);
      }
    }
  });
}

const dist = path.join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist/');
setWasmPaths(pathToFileURL(dist).href.replace(/^file:\/\//, ''));
setThreadsCount(1);
await tf.setBackend('wasm');
await tf.ready();

// Node's fetch cannot load a file path: the .wasm is handed over, as wasm_bench.mjs does.
const folder = path.join(options.stage, 'embedlab', 'bench');
const { loadEmbedlabBench } = await import(
  pathToFileURL(path.join(folder, 'embedlab-bench.mjs')).href
);
const bench = await loadEmbedlabBench({
  wasmBinary: readFileSync(path.join(folder, 'embedlab-bench-core.wasm')),
});

const repetitions = Number(options.repetitions);
const minMs = Number(options['min-ms']);
console.log(
  `| shape | embedlab GEMM (ms) | GFLOP/s | XNNPACK matMul (ms) | GFLOP/s | embedlab / XNNPACK (time) |`,
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const { vocab, dim, n } of SHAPES) {
  const { table, ids } = makeInputs(vocab, dim, n);
  bench.load(table, vocab, dim, ids);
  const onehot = new Float32Array(n * vocab);
  ids.forEach((id, k) => {
    onehot[k * vocab + id] = 1;
  });
  const A = tf.tensor2d(onehot, [n, vocab]);
  const W = tf.tensor2d(table, [vocab, dim]);
  const ours = [];
  const theirs = [];
  for (let r = 0; r < repetitions; ++r) {
    ours.push(
      msPerCall(
        timed((calls) => bench.run('dense', calls)),
        minMs,
      ),
    );
    theirs.push(
      msPerCall(
        timed((calls) => {
          for (let c = 0; c < calls; ++c) tf.matMul(A, W).dispose();
        }),
        minMs,
      ),
    );
  }
  checkRows('embedlab', bench.output(), table, dim, ids);
  const product = tf.matMul(A, W);
  checkRows('XNNPACK', product.dataSync(), table, dim, ids);
  product.dispose();
  A.dispose();
  W.dispose();
  const [a, b] = [median(ours), median(theirs)];
  const gflops = (ms) => (2 * n * vocab * dim) / ms / 1e6;
  console.log(
    `| V:${vocab}/d:${dim}/n:${n} | ${a.toFixed(3)} | ${gflops(a).toFixed(1)} | ` +
      `${b.toFixed(3)} | ${gflops(b).toFixed(1)} | ${(a / b).toFixed(2)} |`,
  );
}
