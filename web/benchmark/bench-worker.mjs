// The benchmark's Web Worker: its own instance of the benchmark module, measuring one shape
// after another on request, so no timing loop ever runs on the page's main thread.
//   in:  { shapes: [{ vocab, dim, n }], minMs, maxCallMs }
//   out: { type: 'start', index, shape } before each shape, { type: 'result', index, shape,
//        ms, skipped } after it, then { type: 'done' }; { type: 'error', message } on failure.
import { loadEmbedlabBench } from '../embedlab/bench/embedlab-bench.mjs';
import { measureShape } from '../embedlab/bench/timing.mjs';

const loaded = loadEmbedlabBench();

self.onmessage = async ({ data: { shapes, minMs, maxCallMs } }) => {
  try {
    const bench = await loaded;
    let flopRate = 0; // FLOP per ms of the last dense product: predicts the next one
    for (const [index, shape] of shapes.entries()) {
      self.postMessage({ type: 'start', index, shape });
      const measured = measureShape(bench, shape, { minMs, maxCallMs, flopRate });
      flopRate = measured.flopRate;
      self.postMessage({
        type: 'result',
        index,
        shape,
        ms: measured.ms,
        skipped: measured.skipped,
      });
    }
    self.postMessage({ type: 'done' });
  } catch (error) {
    self.postMessage({ type: 'error', message: String(error?.message ?? error) });
  }
};
