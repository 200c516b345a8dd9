// Every view of the page and of <embedding-demo>, by the name the page's sections
// (data-views="...") and the element's `view` attribute use; PARTS are pieces of views that the
// page places apart. A view is built into an empty
// container once:
//   build(container, context) -> (a promise of) { update(state, changed) }
//   context: { store (model/state.mjs), lab (the WebAssembly module), computeView,
//              computeTraining and stop (the session's, compute/session.mjs: the views that
//              compute on the table; the Train view's training; the end of a product streaming
//              W), tokenizers (tokenizers/client.mjs's
//              VIEW_TOKENIZERS), embedded (true inside <embedding-demo>) }
// and then hears every change of the store: update(state, changed), changed being the set of
// state keys that are new (every key the first time). A new view is one file and one line here.
import { backwardView } from './backward.mjs';
import { bagView } from './bag.mjs';
import { benchmarkView } from '../benchmark/panel.mjs';
import { pictureView } from './picture/picture.mjs';
import { headView } from './head.mjs';
import { positionsView } from './positions.mjs';
import { printoutView } from './printout.mjs';
import { stepView } from './step.mjs';
import { tokenPickerView } from './token-picker.mjs';
import { trainView } from './train/view.mjs';
import { lookupView, matricesView, onehotProductView, routesView } from './tables.mjs';
import { verdictView } from './verdict.mjs';

// Views one above the other, as one view.
function composite(title, ...views) {
  return {
    title,
    async build(container, context) {
      const built = [];
      for (const view of views) {
        const part = document.createElement('div');
        part.className = 'view-part';
        container.append(part);
        built.push(await view.build(part, context));
      }
      return { update: (state, changed) => built.forEach((view) => view.update(state, changed)) };
    },
  };
}

export const VIEWS = Object.freeze({
  equation: composite('one_hot(idx) · W = out', tokenPickerView, pictureView, verdictView),
  compare: composite('Lookup and one-hot product', verdictView, routesView),
  routes: routesView,
  lookup: lookupView,
  onehot: composite('One-hot product', verdictView, onehotProductView),
  matrices: matricesView,
  step: composite('Step through one token', tokenPickerView, stepView),

  printout: printoutView,
  backward: backwardView,
  train: trainView,
  bag: bagView,
  positions: positionsView,
  head: headView,
  benchmark: benchmarkView,
});

// Parts of views that the page places apart (the element shows whole views only).
export const PARTS = Object.freeze({
  explanation: stepView,
});

// Builds the views or parts `names` into container, one after another: (a promise of) one view.
export function buildViews(names, container, context) {
  return composite('', ...names.map((name) => VIEWS[name] ?? PARTS[name])).build(
    container,
    context,
  );
}
