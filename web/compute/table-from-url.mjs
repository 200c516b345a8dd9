// The table at a URL, for <embedding-demo src="...">: a .npy file, fetched whole, or a model's
// .safetensors file, streamed: its header, then the table's bytes converted as they arrive
// (compute/table-file.mjs), everything else dropped as it streams past, and the download stopped at the
// table's end. No Range request is made (plain static servers answer without one), so the bytes
// before the table are downloaded, though never kept: a table at the end of a 1 GB file costs
// 1 GB of download and the table's memory. src="model.safetensors#model.embed_tokens.weight"
// names the tensor where the file's names point to none or to several.
import { EmbedlabError } from '../embedlab/embedlab.mjs';
import {
  bytesSource, isNpyFile, readFirstBytes, readSafetensorsHeader, readSafetensorsTable,
  responseSource,
} from './table-file.mjs';

// The file's length, where the response says it as sent (a compressed body's is not the file's).
function lengthOf(response) {
  const encoding = response.headers.get('Content-Encoding');
  const length = response.headers.get('Content-Length');
  if ((encoding && encoding !== 'identity') || length === null) return null;
  return Number(length);
}

// plan()'s file input for the file at href (url as the page wrote it, for messages):
// { key, name, format, tensor, table } or { name, error }.
export async function readTableFromUrl(lab, url, href) {
  let source;
  try {
    const response = await fetch(href);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const size = lengthOf(response);
    source = size === null ? bytesSource(new Uint8Array(await response.arrayBuffer()))
      : responseSource(response, size);
  } catch (error) {
    return { name: url, error: `src="${url}" could not be loaded: ${error.message}` };
  }
  const { pathname, hash } = new URL(href);
  try {
    const first = await readFirstBytes(source);
    if (isNpyFile(lab, pathname, first)) {
      const bytes = new Uint8Array(source.size);
      bytes.set(first);
      bytes.set(await source.read(first.length, source.size), first.length);
      return { key: `npy:${href}`, name: url, format: 'npy', table: lab.npyTable(bytes) };
    }
    const { headerBytes } = await readSafetensorsHeader(lab, source, first);
    const tensor = decodeURIComponent(hash.slice(1));
    const { weight, table } = await readSafetensorsTable(lab, source, headerBytes, tensor);
    return { key: `safetensors:${href}`, name: url, format: 'safetensors', tensor: table.name, table: weight };
  } catch (error) {
    if (!(error instanceof EmbedlabError || error instanceof URIError)) throw error;  // URIError: a bad #name
    return { name: url, error: `${url}: ${error.message}` };
  } finally {
    source.cancel?.();
  }
}
