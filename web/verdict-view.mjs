// The verdict: do the lookup and the one-hot product agree? The box is an aria-live region,
// so a screen reader hears each new verdict.
import { scientific } from './format-number.mjs';

function line(tag, className, text) {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}

function stat(term, value) {
  const row = document.createElement('div');
  row.append(line('dt', '', term), line('dd', '', value));
  return row;
}

const count = (n) => n.toLocaleString('en-US');

// comparison: lab.compare(lookup, product).
export function showVerdict(box, comparison) {
  const word = comparison.identical ? 'match' : 'mismatch';
  box.className = `verdict ${word}`;
  const stats = document.createElement('dl');
  stats.className = 'verdict-stats';
  stats.append(
    stat('max |diff|', comparison.maxAbsDiff === 0 ? '0' : scientific(comparison.maxAbsDiff)),
    stat('bit-identical', `${count(comparison.bitIdentical)} of ${count(comparison.elements)}`),
    stat('equal in value', `${count(comparison.valueEqual)} of ${count(comparison.elements)}`),
  );
  box.replaceChildren(
    line('p', 'verdict-word', word),
    line('p', 'verdict-sentence', comparison.verdict),
    stats,
  );
}

// While the inputs are being fixed, or a large product is running: say what the tables show.
export function showPending(box, word, sentence) {
  box.className = `verdict ${word === 'computing' ? 'busy' : 'stale'}`;
  box.replaceChildren(line('p', 'verdict-word', word), line('p', 'verdict-sentence', sentence));
}
