// The verdict: do the two routes agree, and how closely? One of four grades (verdict.mjs), each
// with its colour and one sentence, the counts behind it and what its terms mean. The box is an
// aria-live region, so a screen reader hears each new verdict.
import { element } from '../draw/dom.mjs';
import { count } from '../model/format-number.mjs';
import { DEFINITIONS, formatAbsDiff, gradeComparison } from '../model/verdict.mjs';

// box -> the verdict it shows, as showVerdict() last drew it.
const lastShown = new WeakMap();

function stat(term, value, definition) {
  const row = element('div');
  const dt = element('dt');
  dt.append(definition ? element('dfn', '', term) : term);
  if (definition) dt.firstChild.title = definition;
  row.append(dt, element('dd', '', value));
  return row;
}

// comparison: the core's compare() of two results; grade: model/verdict.mjs's gradeComparison()
// of them.
export function showVerdict(box, comparison, grade) {
  const all = count(comparison.elements);
  const rows = [
    ['max |diff|', formatAbsDiff(grade.maxAbsDiff)],
    ['bit-identical', `${count(comparison.bitIdentical)} of ${all}`, DEFINITIONS.identical],
    ['equal in value', `${count(comparison.valueEqual)} of ${all}`, DEFINITIONS.value],
  ];
  if (grade.state === 'rounding') rows.push(['max ulps', count(grade.maxUlps)]);
  // The same verdict again (most keystrokes) is left as it is: rebuilding it cost a layout, and
  // the live region would read it out once more.
  const shown = JSON.stringify([grade.state, grade.headline, grade.sentence, rows]);
  if (lastShown.get(box) !== shown) {
    lastShown.set(box, shown);
    box.className = `verdict ${grade.state}`;
    box.dataset.state = grade.state;
    const stats = element('dl', 'verdict-stats');
    stats.append(...rows.map((row) => stat(...row)));
    box.replaceChildren(
      element('p', 'verdict-word', grade.headline),
      element('p', 'verdict-sentence', grade.sentence),
      stats,
      element('p', 'verdict-terms', `${DEFINITIONS.identical} ${DEFINITIONS.value}`),
    );
  }
}

// cellClass(value, i, j) for the tables of two graded results with `cols` columns: 'differs' on
// each cell whose bits differ, which styles/base.css outlines in the grade's colour
// ('differs-<state>').
export function differingCells(grade, cols) {
  const { differing } = grade;
  const marked = `differs differs-${grade.state}`;
  return (value, i, j) => (differing && differing[i * cols + j] ? marked : '');
}

// While the inputs are being fixed, or a large product is running: say what the tables show.
export function showPending(box, word, sentence) {
  lastShown.delete(box);
  box.className = `verdict ${word === 'computing' ? 'busy' : 'stale'}`;
  delete box.dataset.state;
  box.replaceChildren(element('p', 'verdict-word', word), element('p', 'verdict-sentence', sentence));
}
