// The benchmark module (embedlab-bench-core.mjs + .wasm: the core with wasm/bench_bindings.cpp,
// built apart from the module the page and the package load) as a small checked API for the
// two harnesses: the Node one (wasm_bench.mjs) and the page's Benchmark worker.
//
//   const bench = await loadEmbedlabBench(options);  // { wasmBinary } in Node
//   bench.load(table: Float32Array (V*d, row-major), vocab, dim, ids: Int32Array)
//   bench.run(method: string, calls: number)   // `calls` calls inside WASM, no copies
//   bench.output(): Float32Array               // a copy of the last (n, d) result
//
// The table, ids and results stay in WASM memory between calls, so a clock read around run()
// times the method alone. Bad arguments throw EmbedlabBenchError; its `argument` names the core's
// argument ("vocab", "dim", "ids", "weights") where the core names one.
import createEmbedlabBench from './embedlab-bench-core.mjs';

export class EmbedlabBenchError extends Error {
  constructor(message, argument = null) {
    super(message);
    this.name = 'EmbedlabBenchError';
    this.argument = argument;
  }
}

function expect(ok, where, what) {
  if (!ok) throw new EmbedlabBenchError(`${where}: ${what}`);
}

const isCount = (x) => Number.isSafeInteger(x) && x >= 0;

// The bindings return undefined, a value, or { embedlabError, argument? }.
function unwrap(result) {
  if (result !== null && typeof result === 'object' && 'embedlabError' in result) {
    throw new EmbedlabBenchError(result.embedlabError, result.argument ?? null);
  }
  return result;
}

// Beside this file unless the bytes are handed over (a literal, so that bundlers copy it).
const WASM_URL = new URL('./embedlab-bench-core.wasm', import.meta.url);

export async function loadEmbedlabBench({ wasmBinary } = {}) {
  const core = await createEmbedlabBench(
    wasmBinary === undefined ? { locateFile: () => WASM_URL.href } : { wasmBinary },
  );
  return {
    load(table, vocab, dim, ids) {
      expect(table instanceof Float32Array, 'load', 'the table must be a Float32Array');
      expect(
        isCount(vocab) && isCount(dim),
        'load',
        `vocab and dim must be whole numbers >= 0, got ${vocab} and ${dim}`,
      );
      expect(ids instanceof Int32Array, 'load', 'the ids must be an Int32Array');
      unwrap(core.benchLoad(table, vocab, dim, ids));
    },
    run(method, calls) {
      expect(typeof method === 'string', 'run', 'the method must be a string');
      expect(isCount(calls), 'run', `calls must be a whole number >= 0, got ${calls}`);
      unwrap(core.benchRun(method, calls));
    },
    output: () => core.benchOutput(),
  };
}
