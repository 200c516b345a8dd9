// What the model being trained predicts next at each position of the text's windows: the input
// token, the target (the token that does come next), and the k likeliest next tokens with their
// probability, the target marked where it is among them. Tokens are text, never HTML.
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
// A position is one item of text, two lines: "input → target", then the k likeliest with their
// shares, the target's marked "✓" where it is among them; an item whose likeliest is the target
// is marked learned. One element a position keeps the page within its element budget. Drawn
// again, only what changed is written (morph.mjs).
export function drawPredictions(list, { positions, predictions, label, maxLength }) {
  const { k, ids, probabilities } = predictions;
  const next = element('ol');
  next.append(
    ...positions.map(({ input, target }, i) => {
      const likeliest = Array.from(ids.subarray(i * k, (i + 1) * k));
      const shares = likeliest.map(
        (id, j) => `${id === target ? '✓ ' : ''}${label(id)} ${share(probabilities[i * k + j])}`,
      );
      const item = element(
        'li',
        'pred',
        `${label(input)} → ${label(target)}\n${shares.join(' | ')}`,
      );
      item.dataset.position = String(i);
      if (i % maxLength === 0) item.classList.add('window-start');
      item.classList.toggle('learned', likeliest[0] === target);
      item.classList.toggle('among', likeliest.includes(target));
      return item;
    }),
  );
  morphChildren(list, next);
}
