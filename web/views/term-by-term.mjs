// One output entry of token k term by term: out[k, c] = Σ_j one_hot[k, j] · W[j, c], the V
// products of the one-hot row with column c of W. The zeros are dimmed and the one survivor
// (j = idx[k]) lit; a big vocabulary shows the survivor, a few zeros each side and the ends,
// with the rest counted. The picture's Play (views/picture/picture.mjs) shows the sum being made.
import { element } from '../draw/dom.mjs';
import { count } from '../model/format-number.mjs';
import { shownIndices } from '../model/shown-indices.mjs';

const AROUND = 2; // zeros shown each side of the survivor
const CAP = 9; // a vocabulary up to this size is shown whole

export function termByTerm(lab, result, k, c = 0) {
  const { ids, vocab, dim, weight, product } = result;
  const id = ids[k];
  const shown = shownIndices(
    vocab,
    CAP,
    Array.from({ length: 2 * AROUND + 1 }, (_, i) => id - AROUND + i),
  );
  // Of a table held in part (model/row-window.mjs) a zero's row may not be on the page: its
  // term is written W[j, c], which the zero cancels all the same.
  const held = shown.filter((j) => j !== null && weight.has(j));
  const formatted = new Map(
    lab.formatElements(held.map((j) => weight.at(j, c))).map((t, i) => [held[i], t]),
  );
  const terms = element('span', 'terms');
  shown.forEach((j, i) => {
    if (i > 0) terms.append(' + ');
    if (j === null) {
      terms.append(element('span', 'term gap', '…'));
      return;
    }
    const one = j === id;
    const w = formatted.get(j) ?? `W[${j}, ${c}]`;
    const term = element(
      'span',
      one ? 'term survivor' : 'term zero',
      `${one ? 1 : 0}·${w.startsWith('-') ? `(${w})` : w}`,
    );
    term.title = `one_hot[${k}, ${j}] · W[${j}, ${c}]`;
    terms.append(term);
  });
  // While the product streams W, its entry is not known yet.
  const total = product ? lab.formatElements([product.data[k * dim + c]])[0] : '…';
  const out = element('div', 'term-by-term');
  out.append(
    element('code', '', `out[${k}, ${c}] = `),
    terms,
    element('code', '', ` = ${total}`),
    element(
      'p',
      'terms-count',
      `V = ${count(vocab)} products with column ${c} of W: ` +
        `${count(vocab - 1)} by zero (dimmed), 1 survivor, W[${id}, ${c}].`,
    ),
  );
  return out;
}
