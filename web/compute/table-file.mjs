// A table file read in pieces, never whole: a .safetensors file's header (its first 8 bytes, then
// 8 + N), then only the chosen tensor's bytes, a block of rows at a time, each converted into
// the table as it arrives (lab.safetensorsTable). So a 5 GB model costs its table's memory and
// one block's. Works on a page's main thread, in a module worker and in Node; no DOM.
// A source of bytes: { size, read(begin, end) -> Promise<Uint8Array> }: a File (fileSource) or
// bytes in memory (bytesSource) read any range; a fetch response (responseSource) reads forwards
// only, dropping what is not wanted.
import { EmbedlabError } from '../embedlab/embedlab.mjs';

// Bytes read and converted at once: large enough that the per-block costs vanish, small enough
// that the block is nothing beside the table.
export const BLOCK_BYTES = 1 << 22;

export function fileSource(file) {
  return {
    size: file.size,
    read: async (begin, end) => new Uint8Array(await file.slice(begin, end).arrayBuffer()),
  };
}

export function bytesSource(bytes) {
  return { size: bytes.length, read: async (begin, end) => bytes.subarray(begin, end) };
}

// A response body read forwards: each read() must start at or after the end of the one before;
// the bytes in between are dropped as they stream past. size: the file's length in bytes.
// cancel() stops the download.
export function responseSource(response, size) {
  const reader = response.body.getReader();
  let chunk = new Uint8Array(0);  // the stream's bytes [at, at + chunk.length)
  let at = 0;
  async function next() {
    let read;
    try {
      read = await reader.read();
    } catch (error) {
      throw new EmbedlabError(`the download failed after ${at} bytes: ${error.message}`, 'weights');
    }
    if (read.done) {
      throw new EmbedlabError(`the file ended after ${at} bytes, though it said it had ${size}`,
                              'weights');
    }
    return read.value;
  }
  return {
    size,
    async read(begin, end) {
      if (begin < at) throw new Error(`responseSource reads forwards: ${begin} is before ${at}`);
      const out = new Uint8Array(end - begin);
      let filled = 0;
      while (filled < out.length) {
        if (at + chunk.length <= begin + filled) {
          at += chunk.length;
          chunk = await next();
          continue;
        }
        const from = begin + filled - at;
        const piece = chunk.subarray(from, from + out.length - filled);
        out.set(piece, filled);
        filled += piece.length;
      }
      return out;
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

// The file's first 8 bytes (fewer in a shorter file): what tells the two formats apart, and the
// start of a .safetensors header.
export function readFirstBytes(source) {
  return source.read(0, Math.min(8, source.size));
}

// Whether the file is a .npy one (the CLI's rule: named .npy or .npz, or starting with
// "\x93NUMPY"); any other is read as .safetensors.
export function isNpyFile(lab, name, first) {
  return /\.np[yz]$/i.test(name) || lab.hasNpyMagic(first);
}

// { headerBytes, header }: the first 8 + N bytes and lab.safetensorsHeader's reading of them.
// first: readFirstBytes(source).
export async function readSafetensorsHeader(lab, source, first) {
  const size = lab.safetensorsHeaderSize(first, source.size);
  const headerBytes = new Uint8Array(size);
  headerBytes.set(first);
  headerBytes.set(await source.read(first.length, size), first.length);
  return { headerBytes, header: lab.safetensorsHeader(headerBytes, source.size) };
}

// The tensor `name` ('' for the one the header's names point to) as a (V, d) float32 table:
// { weight, table: { name, dtype, rows, cols, conversion } }, or null when stillWanted() turned
// false between two blocks. onProgress({ name, done, total }) after each block, in file bytes.
export async function readSafetensorsTable(lab, source, headerBytes, name,
                                           { onProgress = () => {}, stillWanted = () => true } = {}) {
  const reader = lab.safetensorsTable(headerBytes, source.size, name);
  try {
    const { rowBytes, begin, end } = reader;
    const step = rowBytes * Math.max(1, Math.floor(BLOCK_BYTES / rowBytes));
    for (let at = begin; at < end; at += step) {
      const bytes = await source.read(at, Math.min(at + step, end));
      if (!stillWanted()) return null;
      reader.addRows(bytes);
      onProgress({ name: reader.name, done: Math.min(at + step, end) - begin, total: end - begin });
    }
    const { dtype, rows, cols, conversion } = reader;
    return { weight: reader.finish(), table: { name: reader.name, dtype, rows, cols, conversion } };
  } finally {
    reader.discard();
  }
}
