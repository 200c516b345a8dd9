// A text's tokens for the demo, or a TextError that says what is wrong with the text: it is
// empty, or it holds a lone surrogate (which has no UTF-8 bytes to tokenize). A text that makes
// more tokens than the core takes at once is a TooManyTokens, which the page words as the core
// does (client.mjs). tokenizer: adapters.mjs's createTokenizer().
import { count } from '../model/format-number.mjs';
import { tokenLabel } from './token-label.mjs';

export class TextError extends Error {}

// More tokens than one request takes: their count, for the core's message.
export class TooManyTokens extends Error {
  constructor(count) {
    super(`${count} tokens`);
    this.count = count;
  }
}

// "U+D83D" for a UTF-16 code unit.
const codeUnit = (text, index) => `U+${text.charCodeAt(index).toString(16).toUpperCase()}`;

function checkText(text) {
  if (text === '')
    throw new TextError('The text is empty: type a word or a sentence to see its tokens.');
  // In a /u pattern a surrogate matches \p{Cs} only when it has no partner.
  const index = text.search(/\p{Cs}/u);
  if (index >= 0) {
    const position = [...text.slice(0, index)].length + 1;
    throw new TextError(
      `Character ${count(position)} is a lone surrogate (${codeUnit(text, index)}): ` +
        'half of a UTF-16 pair, with no UTF-8 bytes for a tokenizer to read. Delete it, or paste the whole character.',
    );
  }
}

// Returns { ids: number[], labels: string[] }: each token's id and what its chip shows.
// maxIds: the core's lab.limits.maxIds, sent by client.mjs.
export function tokenize(tokenizer, text, maxIds) {
  checkText(text);
  const ids = tokenizer.encode(text);
  if (ids.length > maxIds) throw new TooManyTokens(ids.length);
  return { ids, labels: ids.map((id) => tokenLabel(tokenizer.bytesOf(id))) };
}

// What the chips of these ids show (tokenLabel()), null for an id past the vocabulary: the
// tokens a table's rows stand for, such as the head's largest logits.
export const labelsOfIds = (tokenizer, ids) =>
  ids.map((id) => (id < tokenizer.vocabSize ? tokenLabel(tokenizer.bytesOf(id)) : null));
