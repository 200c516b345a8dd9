// The table at a URL, for <embedding-demo src="...">: a .npy, .safetensors or GGUF file, downloaded as
// a Blob (which the browser may keep on disk) and then read like a chosen file: its header here,
// its rows where they lie by the compute worker (table-file.mjs, table-keeper.mjs).
// src="model.safetensors#model.embed_tokens.weight" names the tensor where the file's names point
// to none or to several (a GGUF file's to token_embd.weight: src="model.gguf#output.weight").
import { EmbedlabError } from '../embedlab/embedlab.mjs';
import { openTableFile } from './table-file.mjs';

// plan()'s file input for the file at href (url as the page wrote it, for messages): the
// session's file input, or { name, error }.
export async function readTableFromUrl(lab, url, href) {
  let blob;
  try {
    const response = await fetch(href);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    blob = await response.blob();
  } catch (error) {
    return { name: url, error: `src="${url}" could not be loaded: ${error.message}` };
  }
  try {
    const { pathname, hash } = new URL(href);
    const table = await openTableFile(lab, blob, pathname, `src:${href}`);
    const input =
      table.format === 'npy' ? table.input : table.table(decodeURIComponent(hash.slice(1)));
    return { ...input, name: url };
  } catch (error) {
    if (!(error instanceof EmbedlabError || error instanceof URIError)) throw error; // URIError: a bad #name
    return { name: url, error: `${url}: ${error.message}` };
  }
}
