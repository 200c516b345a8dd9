// What the learner sees, in the page's address: ?ids=2,3,1&vocab=&dim=5&seed=123&w=seed&k=0
// &view=backward, so a link shares exactly that state. Values from the address go into the
// store's inputs as if typed, so a bad one gets the same message under the same field as a typed
// one. Pure: no DOM.
import { LINKABLE_SOURCES } from './table-source.mjs';
import { isTrainParam, trainFromParams, trainParams, TRAIN_INPUTS } from './train-inputs.mjs';
import { isViewParam, viewParams, viewsFromParams, VIEW_INPUTS } from './view-inputs.mjs';

// Address parameter -> the store's input (model/state.mjs); w is the table's source.
const INPUTS = { ids: 'idsText', vocab: 'vocabText', dim: 'dimText', seed: 'seedText' };
// The sections a link can open at.
export const SECTIONS = [
  'results',
  'step',
  'matrices',
  'printout-section',
  'backward',
  'train',
  'bag',
  'positions',
  'head',
  'benchmark',
];

// The state in search (location.search): { inputs, step, view, train, views }, inputs holding
// only what the address has, step, view, train (train-inputs.mjs) and views (view-inputs.mjs)
// only when it has them.
export function readUrlState(search) {
  const params = new URLSearchParams(search);
  const inputs = {};
  for (const [param, key] of Object.entries(INPUTS)) {
    if (params.has(param)) inputs[key] = params.get(param);
  }
  if (LINKABLE_SOURCES.includes(params.get('w'))) inputs.source = params.get('w');
  const state = { inputs };
  const step = Number(params.get('k'));
  if (params.has('k') && Number.isSafeInteger(step) && step >= 0) state.step = step;
  if (SECTIONS.includes(params.get('view'))) state.view = params.get('view');
  const train = trainFromParams(params);
  if (train) state.train = train;
  const views = viewsFromParams(params);
  if (views) state.views = views;
  return state;
}

// The address for the store's inputs, the selected token, the training, the views' inputs and the
// section; params the page does not own are kept.
export function urlFor(href, { inputs, step, train = TRAIN_INPUTS, views = VIEW_INPUTS }, view) {
  const url = new URL(href);
  for (const [param, key] of Object.entries(INPUTS)) url.searchParams.set(param, inputs[key]);
  if (LINKABLE_SOURCES.includes(inputs.source)) url.searchParams.set('w', inputs.source);
  else url.searchParams.delete('w');
  url.searchParams.set('k', String(step));
  for (const param of [...url.searchParams.keys()])
    if (isTrainParam(param)) url.searchParams.delete(param);
  for (const [param, value] of trainParams(train)) url.searchParams.set(param, value);
  for (const param of [...url.searchParams.keys()])
    if (isViewParam(param)) url.searchParams.delete(param);
  for (const [param, value] of viewParams(views)) url.searchParams.set(param, value);
  if (view) url.searchParams.set('view', view);
  else url.searchParams.delete('view');
  return url.href;
}
