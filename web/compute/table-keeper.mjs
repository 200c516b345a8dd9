// The table a session computes on, as one of the module's table handles (wasm/tables.mjs): opened
// when a request first needs it, kept while requests use it, deleted when another replaces it, so
// at most one table's memory is held. A seeded or TensorFlow table is drawn in WASM memory; a
// file's is read where it lies, a block of rows at a time, through FileReaderSync on File.slice:
// only a worker can read a file synchronously, so a file's table lives in the compute worker.
// What the core throws comes through as it is (plan.mjs's startRun() places it).
import { FieldError } from './plan.mjs';

const LEFT_IN_KERNEL =
  "W stayed in the notebook's kernel, too large to send: this needs W itself, and the page has " +
  'only both routes, the rows drawn and a heatmap';
export const CANNOT_READ_HERE =
  'reading a table file needs a module Web Worker (Chrome 80, Firefox 114, ' +
  'Safari 15 or later), and this browser started none';

// A File (or Blob) as the module's synchronous source of bytes, with readAhead(): the bytes after
// the last read, as long again, read before they are asked for (one read ahead at a time, each
// after those asked before). A stream reads the table in blocks, one after the other, so each of
// its blocks after the first comes from there, read by a BYOB reader of the file's stream into
// one buffer used over and over: a new buffer for each block, left to the garbage collector, grew
// the browser's memory with the file (590 MiB for a 4.2 GB one, against 89 MiB so). The reader
// lives here, not in readAhead()'s frame: held only there (a stream reachable from nothing but
// its own pending read), reads never settled in Chromium, in two runs of three.
export function fileSource(file) {
  const reader = new FileReaderSync();
  let next = null; // { offset, length }: where the next block would be
  let ahead = null; // { offset, bytes }: read ahead
  let buffer = null;
  let stream = null; // { reader, at (the file offset of its next byte) }
  let reading = Promise.resolve(); // the last readAhead(): one at a time, each after the one before

  async function readNext() {
    if (!next || next.offset >= file.size || ahead?.offset === next.offset) return;
    const { offset } = next;
    const length = Math.min(next.length, file.size - offset);
    if (!buffer || buffer.byteLength < length) buffer = new ArrayBuffer(length);
    ahead = null;
    if (stream?.at !== offset) {
      stream?.reader.cancel();
      stream = { reader: file.slice(offset).stream().getReader({ mode: 'byob' }), at: offset };
    }
    let filled = 0;
    while (filled < length) {
      const { value, done } = await stream.reader.read(
        new Uint8Array(buffer, filled, length - filled),
      );
      if (done) break;
      buffer = value.buffer; // the reader hands the same memory back in a new buffer
      filled += value.length;
    }
    stream.at = offset + filled;
    ahead = { offset, bytes: new Uint8Array(buffer, 0, filled) };
  }

  return {
    size: file.size,
    read(offset, length) {
      next = { offset: offset + length, length };
      if (ahead?.offset === offset && length <= ahead.bytes.length)
        return ahead.bytes.subarray(0, length);
      return new Uint8Array(reader.readAsArrayBuffer(file.slice(offset, offset + length)));
    },
    readAhead() {
      reading = reading.then(readNext, readNext);
      return reading;
    },
  };
}

// plan()'s table for p as { table: a new handle, source: its file's source, or null }.
function openTable(lab, { vocab, dim, table }) {
  if (table.source === 'seed')
    return { table: lab.openSeededTable(table.seed, vocab, dim), source: null };
  if (table.source === 'tf') return { table: lab.openTfTable(vocab, dim), source: null };
  if (table.routes) throw new FieldError('weights', LEFT_IN_KERNEL);
  if (table.bytes) {
    const { bytes } = table;
    const source = {
      size: bytes.length,
      read: (offset, length) => bytes.subarray(offset, offset + length),
    };
    if (table.format === 'npy') return { table: lab.openNpyTable(bytes), source: null };
    if (table.format === 'gguf')
      return { table: lab.openGgufTable(source, table.tensor), source: null };
    return { table: lab.openSafetensorsTable(source, table.tensor), source: null };
  }
  if (typeof FileReaderSync === 'undefined') throw new FieldError('weights', CANNOT_READ_HERE);
  const source = fileSource(table.file);
  if (table.format === 'npy')
    return { table: lab.openNpyTable(source.read(0, source.size)), source: null };
  if (table.format === 'gguf') return { table: lab.openGgufTable(source, table.tensor), source };
  return { table: lab.openSafetensorsTable(source, table.tensor), source };
}

export function createTableKeeper(lab) {
  let held = null; // { key, table, source, rows (all its rows as float32, once asked for) }
  return {
    // The handle of p's table (p: plan()'s), opened if it is not the one held.
    tableFor(p) {
      if (held?.key === p.tableKey) return held.table;
      this.release();
      held = { key: p.tableKey, ...openTable(lab, p), rows: null };
      return held.table;
    },
    // A function that reads the next block of the table held under key ahead, where it is a
    // file's (else resolves at once): await it between the blocks of a stream on that table. It
    // stays that table's once another replaces it.
    readAheadFor(key) {
      const source = held?.key === key ? held.source : null;
      return source ? () => source.readAhead() : () => Promise.resolve();
    },
    // All rows of p's table as one float32 Matrix, read once per table: the same object for
    // every request on it, so that what is drawn from it is drawn again only when it changes.
    allRows(p) {
      const table = this.tableFor(p);
      held.rows ??= table.rowsAt(0, table.rows);
      return held.rows;
    },
    // The handle held under key, or null.
    held: (key) => (held?.key === key ? held.table : null),
    release() {
      held?.table.delete();
      held = null;
    },
  };
}
