// The verdict: do the lookup and the one-hot product agree? The box is an aria-live region,
// so a screen reader hears each new verdict.
import { element } from './dom.mjs';
import { count, scientific } from './format-number.mjs';

function stat(term, value) {
  const row = element('div');
  row.append(element('dt', '', term), element('dd', '', value));
  return row;
}

// comparison: lab.compare(lookup, product).
export function showVerdict(box, comparison) {
  const word = comparison.identical ? 'match' : 'mismatch';
  box.className = `verdict ${word}`;
  const stats = element('dl', 'verdict-stats');
  stats.append(
    stat('max |diff|', comparison.maxAbsDiff === 0 ? '0' : scientific(comparison.maxAbsDiff)),
    stat('bit-identical', `${count(comparison.bitIdentical)} of ${count(comparison.elements)}`),
    stat('equal in value', `${count(comparison.valueEqual)} of ${count(comparison.elements)}`),
  );
  box.replaceChildren(
    element('p', 'verdict-word', word),
    element('p', 'verdict-sentence', comparison.verdict),
    stats,
  );
}

// While the inputs are being fixed, or a large product is running: say what the tables show.
export function showPending(box, word, sentence) {
  box.className = `verdict ${word === 'computing' ? 'busy' : 'stale'}`;
  box.replaceChildren(element('p', 'verdict-word', word), element('p', 'verdict-sentence', sentence));
}
