// What the model being trained predicts next at each position of the text's windows: the input
// token, the target (the token that does come next), and the k likeliest next tokens with their
// probability, the target's chip marked where it is among them. Tokens are text, never HTML.
import { element } from './dom.mjs';
import { morphChildren } from './morph.mjs';

// A probability as a share: "97%", "0.4%", "<0.1%".
export function share(p) {
  if (p >= 0.995) return `${Math.round(p * 100)}%`;
  if (p >= 0.1) return `${(p * 100).toFixed(0)}%`;
  if (p >= 0.001) return `${(p * 100).toFixed(1)}%`;
  return '<0.1%';
}

// spec: { positions: [{ input, target }] (window by window), predictions: { k, ids, probabilities }
// (row i's j-th likeliest at i * k + j), label(id): a token's words, maxLength: positions a window }.
// Drawn again, only what changed is written (morph.mjs).
export function drawPredictions(list, { positions, predictions, label, maxLength }) {
  const { k, ids, probabilities } = predictions;
  const token = (id, className) => {
    const span = element('span', `pred-token ${className}`, label(id));
    span.dataset.tokenOf = String(id);
    return span;
  };
  const next = element('ol');
  next.append(
    ...positions.map(({ input, target }, i) => {
      // A line of its input and its target, then its k chips: seven elements a position.
      const item = element('li', 'pred');
      item.dataset.position = String(i);
      if (i % maxLength === 0) item.classList.add('window-start');
      const head = element('span', 'pred-head');
      head.append(token(input, 'pred-input'), token(target, 'pred-target'));
      item.append(head);
      for (let j = 0; j < k; ++j) {
        const id = ids[i * k + j];
        // One element a chip: the token's words, then its share.
        const chip = element(
          'span',
          `pred-chip pred-token${id === target ? ' right' : ''}`,
          `${label(id)} ${share(probabilities[i * k + j])}`,
        );
        chip.dataset.id = String(id);
        chip.dataset.tokenOf = String(id);
        item.append(chip);
      }
      const right = Array.from(ids.subarray(i * k, (i + 1) * k)).includes(target);
      item.classList.toggle('learned', ids[i * k] === target);
      item.setAttribute(
        'aria-label',
        `${label(input)} then ${label(target)}: ${right ? 'the target is among' : 'not among'} the ${k} likeliest`,
      );
      return item;
    }),
  );
  morphChildren(list, next);
}
