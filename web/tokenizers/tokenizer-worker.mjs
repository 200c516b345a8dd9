// The tokenizer worker (a module Web Worker, client.mjs starts it): loads a tokenizer's files
// from beside itself the first time it is asked for (data-files.mjs), then tokenizes, so that neither a 5 MB
// vocabulary nor a long text ever holds up the page. One request at a time, a text to tokenize or
// ids to label:
//   in:  { job, name, text, maxIds } or { job, name, ids }
//   out: { job, progress: { phase: 'download', loaded, total } | { phase: 'prepare' | 'encode' } }
//        then { job, ids, labels, vocabSize } or { job, error, textError } or { job, tokenCount }
// textError: the text is at fault (tokenize.mjs's TextError), not the loading. tokenCount: the
// text makes more than maxIds tokens, which the page words as the core does (client.mjs).
import { createTokenizer } from './adapters.mjs';
import { TOKENIZERS } from './catalog.mjs';
import { DATA_FILES, SIZES_FILE } from './data-files.mjs';
import { parseTokenizerData } from './tokenizer-data.mjs';
import { TextError, TooManyTokens, labelsOfIds, tokenize } from './tokenize.mjs';

const loaded = new Map(); // name -> the adapter, kept for the worker's life
let sizes = null; // tokenizer-sizes.json: name -> { bytes }

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname} answered HTTP ${response.status}`);
  return response;
}

// The body of tokenizer-NAME.json.gz, reporting the bytes read so far against its size.
async function download(name, report) {
  sizes ??= await (await fetchOk(SIZES_FILE())).json();
  const total = sizes[name].bytes;
  const reader = (await fetchOk(DATA_FILES[name]())).body.getReader();
  const chunks = [];
  let received = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    chunks.push(chunk.value);
    received += chunk.value.length;
    report({ phase: 'download', loaded: received, total });
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

async function tokenizerFor(name, report) {
  if (!loaded.has(name)) {
    let bytes;
    try {
      bytes = await download(name, report);
    } catch (error) {
      throw new Error(
        `The ${TOKENIZERS[name].label} tokenizer could not be loaded: ${error.message}`,
        { cause: error },
      );
    }
    report({ phase: 'prepare' });
    loaded.set(name, await createTokenizer(name, await parseTokenizerData(bytes)));
  }
  return loaded.get(name);
}

self.addEventListener('message', async ({ data: { job, name, text, ids: given, maxIds } }) => {
  const report = (progress) => self.postMessage({ job, progress });
  try {
    const tokenizer = await tokenizerFor(name, report);
    report({ phase: 'encode' });
    const { ids, labels } = given
      ? { ids: given, labels: labelsOfIds(tokenizer, given) }
      : tokenize(tokenizer, text, maxIds);
    self.postMessage({ job, ids, labels, vocabSize: tokenizer.vocabSize });
  } catch (error) {
    if (error instanceof TooManyTokens) self.postMessage({ job, tokenCount: error.count });
    else self.postMessage({ job, error: error.message, textError: error instanceof TextError });
  }
});
