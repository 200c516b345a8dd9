// Tables a page gives as bytes, for <embedding-demo table="…"> and routes="…": a file's bytes in
// base64, as a notebook's output carries W bit for bit (embedlab.show() in python/). The bytes
// stay in memory beside the table, so that any thread opens it (table-keeper.mjs), the page's own
// included where no worker starts.
import { EmbedlabError } from '../embedlab/embedlab.mjs';
import { openTableFile } from './table-file.mjs';

let tables = 0; // each value read gets a key no other table has

// The bytes of base64 text, or null where it is not base64.
export function base64Bytes(text) {
  try {
    return Uint8Array.from(atob(text.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const notBase64 = (attribute) => ({
  name: attribute,
  error: `${attribute}="…" is not base64: give a .safetensors file's bytes in base64`,
});

// Runs read(); the core's EmbedlabError becomes { name: attribute, error } naming the attribute.
async function reading(attribute, read) {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof EmbedlabError)) throw error;
    return { name: attribute, error: `${attribute}: ${error.message}` };
  }
}

// plan()'s file input for table="…": a .safetensors file of one 2-D tensor (or a .npy file):
// the session's file input with `bytes`, named after its tensor, or { name, error }.
export async function readTableFromBase64(lab, text) {
  const bytes = base64Bytes(text);
  if (!bytes) return notBase64('table');
  return reading('table', async () => {
    const table = await openTableFile(lab, new Blob([bytes]), 'table', `table:${++tables}`);
    if (table.format === 'npy') return { ...table.input, bytes };
    const only = table.header.tensors.length === 1 ? table.header.tensors[0].name : '';
    const input = table.table(only);
    return { ...input, name: input.tensor, bytes };
  });
}

// plan()'s file input for routes="…": the tensors a notebook's kernel computed for a table too
// large to send (python/embedlab/routes.py), as a .safetensors file: lookup and product (n, d),
// rows (the rows of W the views draw, those its metadata's `kept` names) and heatmap (W's
// pixels), in their dtypes; the metadata also says V (`vocab`) and W's name (`table`). Returns
// { key, name, rows: V, cols: d, routes: { lookup, product, kept, keptRows, heatmap }, float32
// matrices }, or { name, error }.
export async function readRoutesFromBase64(lab, text) {
  const bytes = base64Bytes(text);
  if (!bytes) return notBase64('routes');
  return reading('routes', () => {
    const source = { size: bytes.length, read: (at, length) => bytes.subarray(at, at + length) };
    const headerSize = lab.safetensorsHeaderSize(bytes.subarray(0, 8), bytes.length);
    const header = lab.safetensorsHeader(bytes.subarray(0, headerSize), bytes.length);
    const meta = Object.fromEntries(header.metadata);
    const tensor = (name) => {
      const table = lab.openSafetensorsTable(source, name);
      try {
        return table.rowsAt(0, table.rows);
      } finally {
        table.delete();
      }
    };
    const routes = {
      lookup: tensor('lookup'),
      product: tensor('product'),
      keptRows: tensor('rows'),
      kept: Float64Array.from((meta.kept ?? '').split(','), Number),
      heatmap: tensor('heatmap'),
    };
    const vocab = Number(meta.vocab);
    const { lookup, product, keptRows, kept } = routes;
    const wrong = (what) => ({ name: 'routes', error: `routes: ${what}` });
    if (!Number.isSafeInteger(vocab) || vocab < 1)
      return wrong(`the metadata's vocab must be V, a whole number from 1, got "${meta.vocab}"`);
    if (lookup.rows !== product.rows || lookup.cols !== product.cols)
      return wrong(
        `lookup is ${lookup.rows} × ${lookup.cols} and product ${product.rows} × ${product.cols}: they must be alike`,
      );
    if (keptRows.cols !== lookup.cols || kept.length !== keptRows.rows)
      return wrong(
        `rows holds ${keptRows.rows} × ${keptRows.cols}, for ${kept.length} ids in kept and d = ${lookup.cols}`,
      );
    if (!kept.every((row) => Number.isSafeInteger(row) && row >= 0 && row < vocab))
      return wrong(`kept must name rows of W, 0 to ${vocab - 1}, separated by commas`);
    return {
      key: `routes:${++tables}`,
      name: meta.table ?? 'routes',
      rows: vocab,
      cols: lookup.cols,
      routes,
    };
  });
}
