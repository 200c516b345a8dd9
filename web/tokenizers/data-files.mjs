// Where the tokenizer worker finds each vocabulary (scripts/build-tokenizers.mjs packs them) and
// their sizes: beside the worker's own file. Each address is a literal
// new URL('./file', import.meta.url), the form that bundlers follow to copy the file.
export const SIZES_FILE = () => new URL('./tokenizer-sizes.json', import.meta.url);

export const DATA_FILES = Object.freeze({
  gpt2: () => new URL('./tokenizer-gpt2.json.gz', import.meta.url),
  llama3: () => new URL('./tokenizer-llama3.json.gz', import.meta.url),
  qwen3: () => new URL('./tokenizer-qwen3.json.gz', import.meta.url),
  gemma3: () => new URL('./tokenizer-gemma3.json.gz', import.meta.url),
});
