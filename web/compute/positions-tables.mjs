// The token and position tables of the positions and head views, opened on the page's main
// thread: drawn from a seed in the book's order (lab.openSeededPositions), given whole (the
// Train view's, trained: lab.openPositionTables), or a .safetensors
// checkpoint's own (lab.openCheckpointPositions: GPT-2's wte.weight and wpe.weight, and whether
// its output layer is tied). The module reads a file synchronously, which a File on the main
// thread cannot be: a read of bytes not yet here fails, the tensor holding them (or the header)
// is read whole, and the work runs again, so a checkpoint costs its header and the tables the
// work touches, each read once. The last tables opened are kept for the next keystroke.
import { FieldError } from './plan.mjs';
import { bytesText, count } from '../model/format-number.mjs';

// Tables up to this many floats are drawn, and products of up to this many multiply-adds run,
// on the main thread, each within a few hundred milliseconds; the CLI takes any.
export const MAIN_THREAD_FLOATS = 1 << 21;
export const MAIN_THREAD_MULTIPLY_ADDS = 1 << 27;
// A checkpoint's tensor is read whole into the page's memory: up to this many bytes.
const MAIN_THREAD_BYTES = 256 << 20;

// file's bytes as the module's synchronous source, from the ranges read so far (pushed onto
// `ranges` as they come); a read of others fails and leaves the range in `missed`.
function cachedSource(file, ranges) {
  const source = {
    size: file.size,
    missed: null,
    read(offset, length) {
      const range = ranges.find((r) => r.begin <= offset && offset + length <= r.end);
      if (!range) {
        source.missed = { begin: offset, end: offset + length };
        throw new Error('not read yet');
      }
      return range.bytes.subarray(offset - range.begin, offset - range.begin + length);
    },
  };
  return source;
}

// The byte range to read for a miss: the tensor that holds it, or the header.
function rangeFor(lab, file, ranges, miss) {
  const first = ranges.find((r) => r.begin === 0);
  if (!first || miss.end <= 8) return { begin: 0, end: Math.min(file.size, 1 << 20) };
  const size = lab.safetensorsHeaderSize(first.bytes.subarray(0, 8), file.size);
  if (miss.end <= size) return { begin: 0, end: size };
  const header = lab.safetensorsHeader(first.bytes.subarray(0, size), file.size);
  const tensor = header.tensors.find(
    (t) => header.dataStart + t.begin <= miss.begin && miss.end <= header.dataStart + t.end,
  );
  if (!tensor) return miss;
  const begin = header.dataStart + tensor.begin;
  const end = header.dataStart + tensor.end;
  if (end - begin > MAIN_THREAD_BYTES) {
    throw new FieldError(
      'weights',
      `${tensor.name} is ${bytesText(end - begin, end - begin)}: the page reads tensors up to ` +
        `${bytesText(MAIN_THREAD_BYTES, MAIN_THREAD_BYTES)} for positions; ` +
        '`embedlab positions --weights FILE` reads any',
    );
  }
  return { begin, end };
}

// Keeps the tables last opened and runs work(positions) on them.
export function createPositionTables(lab) {
  let kept = null; // { key, positions } and for a file { source, ranges }

  function open(key, make) {
    if (kept?.key === key && kept.positions) return kept;
    kept?.positions?.delete();
    kept = { key, positions: null };
    kept.positions = make();
    return kept;
  }

  // { seed, vocab, dim, contextLength }: the book's seeded tables.
  function seeded({ seed, vocab, dim, contextLength }, work) {
    const floats = (vocab + contextLength) * dim;
    if (floats > MAIN_THREAD_FLOATS) {
      throw new FieldError(
        'dim',
        `V·d + context_length·d = ${count(floats)} floats: the page draws tables up to ` +
          `${count(MAIN_THREAD_FLOATS)} floats on its main thread; ` +
          '`embedlab positions` takes any',
      );
    }
    const key = `seed:${seed}:${vocab}:${dim}:${contextLength}`;
    return work(
      open(key, () => lab.openSeededPositions(seed, vocab, dim, contextLength)).positions,
    );
  }

  // Tables given whole, { token, position } (model/state.mjs's trained): opened once per object.
  function given(tables, work) {
    return work(
      open(tables, () => lab.openPositionTables(tables.token, tables.position)).positions,
    );
  }

  // A checkpoint { file, key (no other file's), configText (its config.json's, or '') }: work runs
  // again after each tensor it needed is read.
  async function checkpoint({ file, key: fileKey, configText = '' }, work) {
    if (kept?.key !== fileKey) {
      kept?.positions?.delete();
      const ranges = [];
      kept = { key: fileKey, positions: null, ranges, source: cachedSource(file, ranges) };
    }
    const entry = kept;
    for (;;) {
      entry.source.missed = null;
      try {
        entry.positions ??= lab.openCheckpointPositions(entry.source, configText);
        return work(entry.positions);
      } catch (error) {
        const miss = entry.source.missed;
        if (!miss) throw error;
        const { begin, end } = rangeFor(lab, file, entry.ranges, miss);
        const bytes = new Uint8Array(await file.slice(begin, end).arrayBuffer());
        if (kept !== entry) throw new FieldError('weights', 'another file was chosen meanwhile');
        entry.ranges.push({ begin, end, bytes });
      }
    }
  }

  return { seeded, given, checkpoint };
}
