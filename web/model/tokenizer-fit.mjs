// How a tokenizer's vocabulary meets an embedding table's rows, in the learner's words: a
// tokenizer gives ids 0 to vocabSize − 1 and the table has a row for ids 0 to V − 1, so an id
// has its row when the vocabulary is no larger than the table. Models pad their tables past the
// vocabulary (Qwen 3: 151,669 entries, 151,936 rows) or, rarely, have fewer rows than the
// tokenizer entries (Gemma 3 1B: 262,144 rows for 262,145 entries). Every sentence the page says
// about it is here. Pure: no DOM.
//   tokenizer: { label, vocabSize, tableRows } (tokenizers/catalog.mjs's entries; tableRows is
//   needed only by fitSentence); rows: the table's V.
import { count } from './format-number.mjs';

const entries = ({ label, vocabSize }) => `${label}'s tokenizer has ${count(vocabSize)} entries`;
const howMany = (k) => (k === 1 ? 'one' : count(k));

// One sentence on how the tokenizer's ids and the table's rows meet.
export function fitSentence(tokenizer, rows) {
  const { label, vocabSize, tableRows } = tokenizer;
  if (vocabSize === rows)
    return `${entries(tokenizer)}, as many as the table's ${count(rows)} rows: every id has its row.`;
  if (vocabSize < rows) {
    const one = rows - vocabSize === 1;
    const last = one ? 'the last row' : `the last ${count(rows - vocabSize)} rows`;
    const unused = tableRows.includes(rows)
      ? `${last} ${one ? 'is' : 'are'} padding no token uses, as in ${label}'s own checkpoints`
      : `its ids stop at ${count(vocabSize - 1)}, so ${last} ${one ? 'goes' : 'go'} unused`;
    return `${entries(tokenizer)} for the table's ${count(rows)} rows: ${unused}; every id has its row.`;
  }
  const past =
    vocabSize - rows === 1
      ? `the token with id ${count(rows)} has`
      : `a token with id ${count(rows)} or above has`;
  return (
    `${entries(tokenizer)}, ${howMany(vocabSize - rows)} more than the table's ${count(rows)} ` +
    `rows: ${past} no row here.`
  );
}

// The error of an id the tokenizer gave that the table has no row for (rows ≤ id < vocabSize):
// the token's position k counts from 0, as the step does; the learner reads it from 1.
export function idPastTable(tokenizer, id, k, rows) {
  return (
    `${tokenizer.label}'s tokenizer gave id ${count(id)} (token ${count(k + 1)} of the text), and the ` +
    `table has ${count(rows)} rows (ids 0 to ${count(rows - 1)}): ${entries(tokenizer)}, ` +
    `${howMany(tokenizer.vocabSize - rows)} more than this table's rows.`
  );
}

// The tokenizer to offer for a table of `rows` rows, by name: the one whose models' tables have
// that many rows; null when none has, or when `chosen` is it. tokenizers: catalog.mjs's TOKENIZERS.
export function tokenizerFor(tokenizers, chosen, rows) {
  const made =
    Object.keys(tokenizers).find((name) => tokenizers[name].tableRows.includes(rows)) ?? null;
  return made === chosen ? null : made;
}
