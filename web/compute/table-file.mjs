// A table file made the session's file input (compute/plan.mjs): its format told from its name
// and first bytes, a .safetensors file's header read (its first 8 + N bytes, never more) or a
// GGUF file's (its first bytes, as many as the module asks for) for the tensors it holds, and
// the chosen tensor's shape and dtype checked by the module. The table's
// rows are read later, where they lie, by the compute worker (table-keeper.mjs). Works on a
// page's main thread and in Node; no DOM.
import { EmbedlabError } from '../embedlab/embedlab.mjs';

const read = async (file, begin, end) => new Uint8Array(await file.slice(begin, end).arrayBuffer());

// Whether the file is a .npy one (the CLI's rule: named .npy or .npz, or starting with
// "\x93NUMPY"); any other is read as .safetensors.
const isNpyFile = (lab, name, first) => /\.np[yz]$/i.test(name) || lab.hasNpyMagic(first);

// Whether the file is a GGUF one (the CLI's rule: named .gguf, or starting with "GGUF").
const isGgufFile = (lab, name, first) => /\.gguf$/i.test(name) || lab.hasGgufMagic(first);

// A GGUF header has no length field: its first bytes, read until the module has them all.
async function ggufHeaderBytes(lab, file) {
  let bytes = await read(file, 0, Math.min(file.size, 1 << 20));
  for (;;) {
    const answer = lab.ggufHeader(bytes, file.size);
    if (!('needBytes' in answer)) return { bytes, header: answer };
    bytes = await read(file, 0, answer.needBytes);
  }
}

// Whether a file is named as a sharded checkpoint's index is (the CLI's rule).
export const isIndexFile = (name) => /\.json$/i.test(name);

// The file (a File or Blob) as what it is: { format: 'npy', input } with input the session's file
// input, or { format: 'safetensors' or 'gguf', header, table(tensor) } where header is
// lab.safetensorsHeader's (or lab.ggufHeader's) reading and table(tensor) makes the input for a
// tensor ('' for the one its names point to):
// the core's checks that it can be a table come first. name: the file's name in messages; key: a
// key no other table has. Throws the core's EmbedlabError for a file that is neither, or a
// tensor that cannot be a table.
export async function openTableFile(lab, file, name, key) {
  const first = await read(file, 0, Math.min(8, file.size));
  if (isNpyFile(lab, name, first)) {
    // A .npy file is read whole (tables in .npy are small): its shape and dtype are in its header.
    const handle = lab.openNpyTable(await read(file, 0, file.size));
    const { rows, cols, dtype, conversion } = handle;
    handle.delete();
    return {
      format: 'npy',
      input: { key, name, format: 'npy', file, rows, cols, dtype, conversion },
    };
  }
  const gguf = isGgufFile(lab, name, first);
  const format = gguf ? 'gguf' : 'safetensors';
  let headerBytes, header;
  if (gguf) {
    ({ bytes: headerBytes, header } = await ggufHeaderBytes(lab, file));
  } else {
    headerBytes = await read(file, 0, lab.safetensorsHeaderSize(first, file.size));
    header = lab.safetensorsHeader(headerBytes, file.size);
  }
  const readHeader = gguf ? lab.ggufHeader : lab.safetensorsHeader;
  return {
    format,
    header,
    table(tensor) {
      const { table, tableError } = readHeader(headerBytes, file.size, tensor);
      if (table === null) throw new EmbedlabError(tableError, 'weights');
      const {
        shape: [rows, cols],
        dtype,
        conversion,
      } = header.tensors.find((t) => t.name === table);
      return {
        key: `${key}:${table}`,
        name,
        format,
        tensor: table,
        file,
        rows,
        cols,
        dtype,
        conversion,
        // A GGUF file's vocabulary names the rows of a table with a row for each of its tokens.
        tokens: header.tokens?.length === rows ? header.tokens : null,
      };
    },
  };
}

// A sharded checkpoint chosen as files: its index (model.safetensors.index.json) and some of its
// shards. Returns { shard: the File that holds the table, tensor } or throws an EmbedlabError that
// says which shard to add. tensor: '' for the one the index's names point to.
export async function shardOfIndex(lab, index, files, tensor = '') {
  const found = lab.safetensorsIndex(await index.text(), tensor);
  if (!found.table) throw new EmbedlabError(found.tableError, 'weights');
  const shard = files.find((f) => f.name === found.table.shard);
  if (!shard) {
    throw new EmbedlabError(
      `it puts ${found.table.tensor} in ${found.table.shard}, which ` +
        'was not chosen: choose the index together with that shard',
      'weights',
    );
  }
  return { shard, tensor: found.table.tensor };
}
