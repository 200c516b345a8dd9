// What the two benchmark harnesses share (Node's wasm_bench.mjs and the page's Benchmark
// worker, which loads it from the site's embedlab/bench/): seeded inputs, the plain-JavaScript
// baseline, adaptive timing, and one shape's measurement. Runs wherever the benchmark module
// (embedlab-bench.mjs) runs; touches no DOM.

// Every method timed per shape. "wasm" methods run inside WASM (bench.run), "js" in JavaScript.
export const METHODS = [
  { id: 'memcpy', label: 'memcpy floor', where: 'wasm' },
  { id: 'gather', label: 'lookup kernel (gather_rows)', where: 'wasm' },
  { id: 'lookup', label: 'lookup() with checks', where: 'wasm' },
  { id: 'js', label: 'plain JS row copies', where: 'js' },
  { id: 'oneHot', label: 'building the one-hot', where: 'wasm' },
  { id: 'dense', label: 'one-hot × W (GEMM)', where: 'wasm' },
];

// A small seeded generator (mulberry32): the same inputs in Node and in every browser.
function seededUniform(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// table: (vocab, dim) row-major, uniform in [-1, 1); ids: n uniform in [0, vocab).
export function makeInputs(vocab, dim, n, seed = 20240607) {
  const next = seededUniform(seed ^ Math.imul(vocab, 31) ^ Math.imul(dim, 1009) ^ n);
  const table = new Float32Array(vocab * dim);
  for (let i = 0; i < table.length; ++i) table[i] = 2 * next() - 1;
  const ids = new Int32Array(n);
  for (let k = 0; k < n; ++k) ids[k] = Math.floor(next() * vocab);
  return { table, ids };
}

// The plain-JavaScript baseline: out row k = table row ids[k], one typed-array copy per row.
export function jsGather(table, dim, ids, out) {
  for (let k = 0; k < ids.length; ++k) {
    const at = ids[k] * dim;
    out.set(table.subarray(at, at + dim), k * dim);
  }
}

// Milliseconds per call. runCalls(calls) performs `calls` calls and returns their total ms;
// after one warm-up call, calls grow until the total reaches minMs (timer resolution in a
// browser is ~0.1 ms, so short totals would be mostly rounding).
export function msPerCall(runCalls, minMs) {
  runCalls(1);
  let calls = 1;
  for (;;) {
    const total = runCalls(calls);
    if (total >= minMs || calls >= 1e8) return total / calls;
    const wanted = Math.ceil((calls * 1.2 * minMs) / Math.max(total, 1e-3));
    calls = Math.min(calls * 100, Math.max(calls * 2, wanted));
  }
}

// Measures every method at one shape. `bench` is the benchmark module's API
// (loadEmbedlabBench()); `clock` returns milliseconds (wall time by default; Node's harness passes the
// process's CPU time, so time other processes hold the core does not count). The dense
// product is skipped, with a reason, when the GEMM rate seen so far (flopRate, FLOP per ms;
// carried from shape to shape by the caller) predicts more than maxCallMs per call.
// Returns { ms: {method: ms per call}, skipped: {method: reason}, flopRate }.
export function measureShape(
  bench,
  { vocab, dim, n },
  { minMs = 50, maxCallMs = 2000, flopRate = 0, clock = () => performance.now() } = {},
) {
  const { table, ids } = makeInputs(vocab, dim, n);
  bench.load(table, vocab, dim, ids);
  const ms = {};
  const skipped = {};
  const out = new Float32Array(n * dim);
  const flops = 2 * n * vocab * dim;
  const timed = (run) => (calls) => {
    const start = clock();
    run(calls);
    return clock() - start;
  };
  for (const { id, where } of METHODS) {
    if (id === 'dense' && flopRate > 0 && flops / flopRate > maxCallMs) {
      skipped[id] = `skipped: about ${Math.round(flops / flopRate / 1000)} s per call`;
      continue;
    }
    ms[id] = msPerCall(
      timed(
        where === 'js'
          ? (calls) => {
              for (let c = 0; c < calls; ++c) jsGather(table, dim, ids, out);
            }
          : (calls) => bench.run(id, calls),
      ),
      minMs,
    );
    if (id === 'gather') checkSameRows(bench, table, dim, ids, out);
    if (id === 'dense') flopRate = flops / ms[id];
  }
  return { ms, skipped, flopRate };
}

// The lookup's bandwidth, as the native suites report it (bytes written per second, n·d·4 bytes a
// call), and how close it comes to the copy floor: the memcpy of the same bytes, timed alike.
// { gbps, ofFloor } for measureShape()'s result; ofFloor is floor time ÷ lookup time (1 = at the
// floor). null where either was not timed.
export function lookupBandwidth({ dim, n }, { ms }) {
  if (!ms.gather || !ms.memcpy) return null;
  const bytes = n * dim * Float32Array.BYTES_PER_ELEMENT;
  return { gbps: bytes / (ms.gather * 1e6), ofFloor: ms.memcpy / ms.gather };
}

// The WASM kernel's rows must equal the JavaScript baseline's, bit for bit.
function checkSameRows(bench, table, dim, ids, out) {
  jsGather(table, dim, ids, out);
  const wasmRows = new Uint32Array(bench.output().buffer);
  const jsRows = new Uint32Array(out.buffer);
  for (let i = 0; i < jsRows.length; ++i) {
    if (wasmRows[i] !== jsRows[i]) {
      throw new Error(`WASM gather_rows and the JavaScript copy differ at element ${i}`);
    }
  }
}
