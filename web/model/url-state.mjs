// What the learner sees, in the page's address: ?ids=2,3,1&vocab=&dim=5&seed=123&w=seed&k=0
// &view=backward, so a link shares exactly that state. Values from the address go into the
// inputs as if typed, so a bad one gets the same message under the same field as a typed one.

// Address parameter -> input id; w is the table's source (seed | tf; a file cannot be linked).
const INPUTS = { ids: 'ids', vocab: 'vocab', dim: 'dim', seed: 'seed' };
const SOURCES = ['seed', 'tf'];
// The sections a link can open at.
export const VIEWS = ['results', 'step', 'matrices', 'printout-section', 'backward', 'bag',
                      'benchmark'];

// The state in search (location.search): { inputs: { id: text }, source, step, view }, each
// part present only when the address has it.
export function readUrlState(search) {
  const params = new URLSearchParams(search);
  const inputs = {};
  for (const [param, id] of Object.entries(INPUTS)) {
    if (params.has(param)) inputs[id] = params.get(param);
  }
  const state = { inputs };
  if (SOURCES.includes(params.get('w'))) state.source = params.get('w');
  const step = Number(params.get('k'));
  if (params.has('k') && Number.isSafeInteger(step) && step >= 0) state.step = step;
  if (VIEWS.includes(params.get('view'))) state.view = params.get('view');
  return state;
}

// The address for the inputs' texts, the source, the selected token and the view; params the
// page does not own are kept.
export function urlFor(href, { inputs, source, step, view }) {
  const url = new URL(href);
  for (const [param, id] of Object.entries(INPUTS)) url.searchParams.set(param, inputs[id] ?? '');
  if (SOURCES.includes(source)) url.searchParams.set('w', source);
  else url.searchParams.delete('w');
  url.searchParams.set('k', String(step));
  if (view) url.searchParams.set('view', view);
  else url.searchParams.delete('view');
  return url.href;
}
