// tokenizer-NAME.json.gz (scripts/build-tokenizers.mjs) from its bytes to its JSON. A server may
// already have inflated it (Content-Encoding: gzip); only bytes that start with gzip's magic
// number are inflated here, with the platform's DecompressionStream.
const GZIP_MAGIC = [0x1f, 0x8b];

export async function parseTokenizerData(bytes) {
  const gzipped = bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  const stream = new Blob([bytes]).stream();
  const text = await new Response(
    gzipped ? stream.pipeThrough(new DecompressionStream('gzip')) : stream,
  ).text();
  return JSON.parse(text);
}
