// Times the WASM core in Node over the native suites' sweep (V x d x n), next to the plain-
// JavaScript baseline, and compares with the native run when its JSON is there.
//
//   node wasm/bench/wasm_bench.mjs [--stage build/wasm/stage] [--out results/wasm]
//        [--min-ms 50] [--repetitions 3] [--max-call-ms 2000]
//        [--native results/benchmarks/lookup.json]
//        [--filter V:50257/d:768/n:1024] [--publish]
//
// It loads the benchmark module (embedlab-bench.mjs over wasm/bench_bindings.cpp) from
// embedlab/bench/ in the wasm build's stage (the site's sources). Times are
// the process's CPU time (user + system), like the native suites' CPU time: on a shared
// machine the time other processes hold the core does not count. Writes <out>/wasm.json
// (ms per call per method and shape) and <out>/wasm_vs_native.md; --publish also copies the
// table into docs/benchmarks/.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { METHODS, measureShape } from './timing.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: options } = parseArgs({
  options: {
    stage: { type: 'string', default: path.join(root, 'build/wasm/stage') },
    out: { type: 'string', default: path.join(root, 'results/wasm') },
    'min-ms': { type: 'string', default: '50' },
    repetitions: { type: 'string', default: '3' },
    'max-call-ms': { type: 'string', default: '2000' },
    native: { type: 'string', default: path.join(root, 'results/benchmarks/lookup.json') },
    filter: { type: 'string', default: '' },
    publish: { type: 'boolean', default: false },
  },
});

const VOCABS = [4, 1000, 8192, 50257];
// CPU milliseconds of this process: the WASM and JS work here all runs on its main thread.
const clock = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const DIMS = [5, 64, 768];
const NS = [3, 64, 1024];
const TARGET = 'V:50257/d:768/n:1024';

async function loadBench(stage) {
  const folder = path.join(stage, 'embedlab', 'bench');
  const wrapper = path.join(folder, 'embedlab-bench.mjs');
  if (!existsSync(wrapper)) {
    throw new Error(`${wrapper} does not exist: build the wasm preset first`);
  }
  const { loadEmbedlabBench } = await import(pathToFileURL(wrapper).href);
  // Node's fetch cannot load a file path: hand the module its .wasm bytes.
  return loadEmbedlabBench({
    wasmBinary: readFileSync(path.join(folder, 'embedlab-bench-core.wasm')),
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// { "V:.../d:.../n:...": µs per call } for one native method: the median CPU time over the
// repetitions in Google Benchmark's JSON, as run_benchmarks.py reports it.
function nativeTimes(file, method) {
  if (!existsSync(file)) return {};
  const scale = { ns: 1e-3, us: 1, ms: 1e3, s: 1e6 };
  const runs = {};
  for (const run of JSON.parse(readFileSync(file, 'utf8')).benchmarks) {
    const match = run.name.match(/^(BM_\w+)\/(V:\d+\/d:\d+\/n:\d+)/);
    if (match && match[1] === method && run.run_type === 'iteration' && !run.error_occurred) {
      (runs[match[2]] ??= []).push(run.cpu_time * scale[run.time_unit]);
    }
  }
  return Object.fromEntries(Object.entries(runs).map(([shape, times]) => [shape, median(times)]));
}

function ratio(a, b) {
  return a && b ? (a / b).toFixed(2) : '-';
}

function report(results, nativeGather, nativeFloor) {
  const lines = [
    '# WASM (Node) vs plain JavaScript vs native: the lookup',
    '',
    `Machine: ${os.cpus()[0].model}, ${os.cpus().length} cores; Node ${process.versions.node}.`,
    'Times in µs per call, CPU time, median of the repetitions. Each WASM timing is one JS call',
    'that runs the method many times inside WASM (no JS <-> WASM copies); native is gather_rows',
    'from the native suite (single-threaded, prefetching). Ratios are time ratios: below 1',
    'means the first is faster.',
    '',
    '| shape | WASM gather | WASM memcpy floor | plain JS | native gather | native memcpy | ' +
      'WASM / JS | WASM / native | WASM floor / native floor |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { shape, ms } of results) {
    const us = (x) => (x === undefined ? undefined : x * 1e3);
    const [gather, floor, js] = [us(ms.gather), us(ms.memcpy), us(ms.js)];
    const fmt = (x) => (x === undefined ? '-' : x.toPrecision(3));
    lines.push(
      `| ${shape} | ${fmt(gather)} | ${fmt(floor)} | ${fmt(js)} | ` +
        `${fmt(nativeGather[shape])} | ${fmt(nativeFloor[shape])} | ${ratio(gather, js)} | ` +
        `${ratio(gather, nativeGather[shape])} | ${ratio(floor, nativeFloor[shape])} |`,
    );
  }
  return lines.join('\n') + '\n';
}

async function main() {
  const bench = await loadBench(options.stage);
  mkdirSync(options.out, { recursive: true });
  const shapes = [];
  for (const dim of DIMS) {
    for (const n of NS) {
      for (const vocab of VOCABS) {
        const name = `V:${vocab}/d:${dim}/n:${n}`;
        if (name.match(options.filter)) shapes.push({ vocab, dim, n, name });
      }
    }
  }
  const results = [];
  let flopRate = 0; // FLOP per ms of the last dense product, carried up the V sweep
  for (const [index, shape] of shapes.entries()) {
    // Each (d, n) row of the sweep starts afresh at the smallest V, where the product is cheap.
    if (shape.vocab === VOCABS[0]) flopRate = 0;
    const runs = [];
    for (let r = 0; r < Number(options.repetitions); ++r) {
      runs.push(
        measureShape(bench, shape, {
          minMs: Number(options['min-ms']),
          maxCallMs: Number(options['max-call-ms']),
          flopRate,
          clock,
        }),
      );
    }
    const measured = {
      ms: Object.fromEntries(
        Object.keys(runs[0].ms).map((id) => [id, median(runs.map((r) => r.ms[id]))]),
      ),
      skipped: runs[0].skipped,
    };
    flopRate = median(runs.map((r) => r.flopRate));
    const cells = METHODS.map(({ id }) =>
      id in measured.ms
        ? `${id} ${(measured.ms[id] * 1e3).toPrecision(3)} µs`
        : `${id} ${measured.skipped[id]}`,
    );
    console.log(
      `[${String(index + 1).padStart(2)}/${shapes.length}] ${shape.name}: ${cells.join(', ')}`,
    );
    results.push({ shape: shape.name, ms: measured.ms, skipped: measured.skipped });
  }
  writeFileSync(
    path.join(options.out, 'wasm.json'),
    JSON.stringify(
      {
        machine: `${os.cpus()[0].model}, ${os.cpus().length} cores`,
        node: process.versions.node,
        unit: 'ms per call',
        results,
      },
      null,
      1,
    ),
  );
  const table = report(
    results,
    nativeTimes(options.native, 'BM_gather_rows'),
    nativeTimes(options.native, 'BM_memcpy_floor'),
  );
  writeFileSync(path.join(options.out, 'wasm_vs_native.md'), table);
  const target = results.find((r) => r.shape === TARGET);
  if (target)
    console.log(
      '\n' +
        table
          .split('\n')
          .filter((l) => l.startsWith('| shape') || l.includes(TARGET))
          .join('\n'),
    );
  console.log(`wrote ${options.out}/wasm.json and wasm_vs_native.md`);
  if (options.publish) {
    writeFileSync(path.join(root, 'docs/benchmarks/wasm_vs_native.md'), table);
    console.log('published docs/benchmarks/wasm_vs_native.md');
  }
}

await main();
