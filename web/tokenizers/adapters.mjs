// Every tokenizer behind one small interface, built from its library and the JSON that
// scripts/build-tokenizers.mjs packed (data/NAME.json.gz):
//   { vocabSize, encode(text) -> number[], bytesOf(id) -> Uint8Array }
// encode() adds no special tokens of its own (no <bos>): the ids are the text's, as
// tokenizer(text, add_special_tokens=False)['input_ids'] gives them in Hugging Face's
// transformers; a special token typed as text ("<|endoftext|>") is that token, as there.
// bytesOf() is what the token stands for in the text, byte for byte (token-label.mjs shows it).
import { TOKENIZERS } from './catalog.mjs';

const utf8 = new TextEncoder();

// gpt-tokenizer, from its byte-pair ranks: entry i is token i's text, or its bytes where they
// are not UTF-8 on their own; the special tokens (GPT-2's <|endoftext|>, 50256) come after.
async function gptTokenizer(spec, ranks) {
  const { GptEncoding } = await import('gpt-tokenizer/GptEncoding');
  const encoding = GptEncoding.getEncodingApi(spec.encoding, () => ranks);
  const special = new Map([...encoding.specialTokensEncoder].map(([text, id]) => [id, text]));
  return {
    vocabSize: encoding.vocabularySize,
    encode: (text) => encoding.encode(text, { allowedSpecial: 'all' }),
    bytesOf(id) {
      const entry = id < ranks.length ? ranks[id] : special.get(id);
      return typeof entry === 'string' ? utf8.encode(entry) : Uint8Array.from(entry);
    },
  };
}

// Byte-fallback vocabularies (Gemma's) name a raw byte "<0xE2>".
const BYTE_TOKEN = /^<0x([0-9A-F]{2})>$/;

// @lenml/tokenizers (transformers.js's tokenizers) from Hugging Face's tokenizer.json and
// tokenizer_config.json. Its tokens are strings in one of two spellings, told apart by the
// decoder tokenizer.json names: byte-level BPE (GPT-2's scheme, Llama 3 and Qwen 3) spells each
// byte as one printable character (' ' is 'Ġ') and its decoder maps them back; SentencePiece-
// style BPE (Gemma 3) writes text as it is, with '▁' for a space and <0xNN> for a lone byte.
async function lenmlTokenizer(spec, { tokenizerJSON, tokenizerConfig }) {
  const { TokenizerLoader } = await import('@lenml/tokenizers');
  const tokenizer = TokenizerLoader.fromPreTrained({ tokenizerJSON, tokenizerConfig });
  const { vocab } = tokenizer.model;
  const added = new Set(tokenizer.added_tokens.map((token) => token.content));
  const byteOf = tokenizer.decoder?.byte_decoder ?? null; // byte-level BPE only
  return {
    vocabSize: vocab.length,
    encode: (text) => tokenizer.encode(text, { add_special_tokens: false }),
    bytesOf(id) {
      const token = vocab[id];
      if (added.has(token)) return utf8.encode(token);
      if (byteOf) return Uint8Array.from(token, (character) => byteOf[character]);
      const byte = BYTE_TOKEN.exec(token);
      return byte ? Uint8Array.of(parseInt(byte[1], 16)) : utf8.encode(token.replaceAll('▁', ' '));
    },
  };
}

const ADAPTERS = { 'gpt-tokenizer': gptTokenizer, lenml: lenmlTokenizer };

// name: a key of TOKENIZERS; data: the parsed JSON of data/NAME.json.gz.
export function createTokenizer(name, data) {
  const spec = TOKENIZERS[name];
  return ADAPTERS[spec.library](spec, data);
}
