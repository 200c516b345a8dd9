// A verdict box: do two results agree, and how closely? One of four grades, decided in the core
// (its verdict.hpp, through lab.compare()), each with its colour and one sentence, the counts
// behind it and what its terms mean. The box is an aria-live region, so a screen reader hears
// each new verdict. A difference that PyTorch defines (two routes that are meant to differ, for a
// reason the view names) is shown as its own calm state, 'defined', with that reason and the
// grade of everything else. While a newer verdict is on its way the box is aria-busy.
import { element } from './dom.mjs';
import { count } from '../model/format-number.mjs';

// box -> the verdict it shows, as showVerdict() last drew it.
const lastShown = new WeakMap();
// box -> { id, open }: its definitions' paragraph's id, and whether a reader opened it.
const definitionsOf = new WeakMap();
let boxes = 0; // numbers the boxes' definitions: their ids are unique in a document

// The heading of the section (or the view) a box is in: what tells its verdict from the page's
// others.
const placeOf = (box) =>
  box.closest('section, .view')?.querySelector('h2, .view-heading')?.textContent.trim() ?? '';

// A term of the counts, with its definition one press away (a button: the keyboard and a touch
// reach it, as a pointer reaches its title), named by its words and where it stands.
function stat(term, value, definition, terms) {
  const row = element('div');
  const dt = element('dt');
  if (definition) {
    const button = element('button', 'verdict-term');
    button.type = 'button';
    const place = placeOf(terms.box);
    if (place) button.setAttribute('aria-label', `${term}, in ${place}`);
    button.setAttribute('aria-controls', terms.id);
    button.setAttribute('aria-expanded', String(terms.open));
    const dfn = element('dfn', '', term);
    dfn.title = definition;
    button.append(dfn);
    dt.append(button);
  } else dt.append(term);
  row.append(dt, element('dd', '', value));
  return row;
}

// The definitions of `box`, made once with the listener that opens and closes them.
function definitionsIn(box) {
  if (!definitionsOf.has(box)) {
    const terms = { id: `verdict-terms-${++boxes}`, open: false, box };
    definitionsOf.set(box, terms);
    box.addEventListener('click', (event) => {
      if (!event.target.closest('.verdict-term')) return;
      terms.open = !terms.open;
      for (const button of box.querySelectorAll('.verdict-term'))
        button.setAttribute('aria-expanded', String(terms.open));
      box.querySelector('.verdict-terms').hidden = !terms.open;
    });
  }
  return definitionsOf.get(box);
}

// comparison: lab.compare() of two results, with its grade; definitions: lab.verdictDefinitions.
// A grade with a difference PyTorch defines (grade.defined) shows why, and the grade of the rest.
// cost: what the routes cost, as the core words it, a line each (the work of each route, a GGUF
// table's blocks decoded).
export function showVerdict(box, comparison, definitions, cost = []) {
  const { grade } = comparison;
  const state = grade.defined ? 'defined' : grade.state;
  const all = count(comparison.elements);
  const rows = [
    ['max |diff|', grade.maxAbsDiffText],
    ['bit-identical', `${count(comparison.bitIdentical)} of ${all}`, definitions.identical],
    ['equal in value', `${count(comparison.valueEqual)} of ${all}`, definitions.value],
  ];
  if (grade.state === 'rounding') rows.push(['max ulps', count(grade.maxUlps)]);
  const reason = grade.defined ? [grade.defined.text] : [];
  // The same verdict again (most keystrokes) is left as it is: rebuilding it cost a layout, and
  // the live region would read it out once more.
  const shown = JSON.stringify([state, grade.headline, grade.sentence, rows, reason, cost]);
  box.removeAttribute('aria-busy');
  if (lastShown.get(box) !== shown) {
    lastShown.set(box, shown);
    box.className = `verdict ${state}`;
    box.dataset.state = state;
    const terms = definitionsIn(box);
    const stats = element('dl', 'verdict-stats');
    stats.append(...rows.map(([term, value, definition]) => stat(term, value, definition, terms)));
    const defined = element('p', 'verdict-terms', `${definitions.identical} ${definitions.value}`);
    defined.id = terms.id;
    defined.hidden = !terms.open;
    box.replaceChildren(
      element('p', 'verdict-word', grade.headline),
      ...reason.map((text) => element('p', 'verdict-reason', text)),
      element('p', 'verdict-sentence', grade.sentence),
      stats,
      ...cost.map((line) => element('p', 'verdict-cost', line)),
      defined,
    );
  }
}

// cellClass(value, i, j) for the tables of two graded results with `cols` columns: 'differs' on
// each cell whose bits differ, which styles/base.css outlines in the grade's colour
// ('differs-<state>'); the cells of a row whose difference PyTorch defines (grade.defined) are
// outlined calmly ('differs-defined'), the others in the grade of the rest. Worked out once per
// grade.
const cellClasses = new WeakMap(); // grade -> cellClass
export function differingCells(grade, cols) {
  if (!grade) return () => ''; // no comparison yet: the product is still streaming
  if (!cellClasses.has(grade)) {
    const differing = new Set(grade.differing ?? []);
    const { row = null, rest = grade } = grade.defined ?? {};
    const marked = (i) => `differs differs-${i === row ? 'defined' : rest.state}`;
    cellClasses.set(grade, (value, i, j) => (differing.has(i * cols + j) ? marked(i) : ''));
  }
  return cellClasses.get(grade);
}

// The words of showPending() while a newer verdict is on its way.
const BUSY_WORDS = new Set(['computing', 'tokenizing']);

// While the inputs are being fixed, a large product is running or a text is read into tokens:
// say what the tables show.
export function showPending(box, word, sentence) {
  lastShown.delete(box);
  const busy = BUSY_WORDS.has(word);
  box.className = `verdict ${busy ? 'busy' : 'stale'}`;
  if (busy) box.setAttribute('aria-busy', 'true');
  else box.removeAttribute('aria-busy');
  delete box.dataset.state;
  box.replaceChildren(
    element('p', 'verdict-word', word),
    element('p', 'verdict-sentence', sentence),
  );
}
