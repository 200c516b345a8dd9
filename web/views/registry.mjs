// Every view of the page and of <embedding-demo>, by the name the page's sections
// (data-views="...") and the element's `view` attribute use; PARTS are pieces of views that the
// page places apart. A view is built into an empty
// container once:
//   build(container, context) -> (a promise of) { update(state, changed), settled() }
//   (settled(), where a view has it: a promise that the view shows its last update, for a view
//   whose update computes elsewhere, in the compute worker, or draws later, as the picture's
//   first paint)
//   context: { store (model/state.mjs), lab (the WebAssembly module), computeView,
//              computePositions, computeTraining and stop (the session's,
//              compute/session.mjs: the views that compute on the table, or on the positions'
//              tables; the Train view's training; the end of a product streaming W),
//              tokenizers (tokenizers/client.mjs's
//              VIEW_TOKENIZERS), embedded (true inside <embedding-demo>) }
// and then hears every change of the store: update(state, changed), changed being the set of
// state keys that are new (every key the first time). A new view is one file and one line here.
// The views of a first screen (the picture, the tables, the verdict) come with the registry; the
// others load when first built (later()).
import { pictureView } from './picture/picture.mjs';
import { tokenPickerView } from './token-picker.mjs';
import { lookupView, matricesView, onehotProductView, routesView } from './tables.mjs';
import { verdictView } from './verdict.mjs';

// A view built only when the reader opens it (a disclosure named `summary`), then kept up to
// date while open: what is on demand costs the page nothing until then.
function onDemand(summary, view) {
  return {
    title: view.title,
    build(container, context) {
      const details = document.createElement('details');
      details.className = 'on-demand';
      const label = document.createElement('summary');
      label.textContent = summary;
      const part = document.createElement('div');
      details.append(label, part);
      container.append(details);
      let built = null;
      let latest = null; // the store's state, and every key changed since the view last heard it
      details.addEventListener('toggle', async () => {
        if (!details.open) return;
        built ??= await view.build(part, context);
        if (latest) built.update(latest.state, latest.changed);
        latest = null;
      });
      return {
        update(state, changed) {
          if (built && details.open) {
            built.update(state, changed);
            return;
          }
          latest = { state, changed: new Set([...(latest?.changed ?? []), ...changed]) };
        },
      };
    },
  };
}

// A view whose module loads when the view is first built (later.mjs, its own file of the split
// bundles: scripts/build-site.mjs), so a page fetches the code of the views below its first
// screen after the first screen. Its title is known once it has loaded.
function later(name) {
  let view = null;
  return {
    get title() {
      return view?.title ?? '';
    },
    async build(container, context) {
      view ??= (await import('./later.mjs'))[name];
      return view.build(container, context);
    },
  };
}
const stepView = later('stepView');

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
      return {
        update: (state, changed) => built.forEach((view) => view.update(state, changed)),
        settled: () => Promise.all(built.map((view) => view.settled?.())),
      };
    },
  };
}

export const VIEWS = Object.freeze({
  equation: composite(
    'one_hot(idx) · W = out',
    tokenPickerView,
    pictureView,
    onDemand('The tables: the lookup and the one-hot product', routesView),
  ),
  compare: composite('Lookup and one-hot product', verdictView, routesView),
  routes: routesView,
  lookup: lookupView,
  onehot: composite('One-hot product', verdictView, onehotProductView),
  matrices: matricesView,
  step: composite('Step through one token', tokenPickerView, stepView),

  printout: later('printoutView'),
  backward: later('backwardView'),
  train: later('trainView'),
  bag: later('bagView'),
  positions: later('positionsView'),
  head: later('headView'),
  benchmark: later('benchmarkView'),
});

// The views that run on the module's first file alone (wasm/README.md, "Two files"): the others
// train, read files, draw positions or bags, and wait for the second.
export const EARLY_VIEWS = new Set([
  'equation',
  'compare',
  'routes',
  'lookup',
  'onehot',
  'matrices',
  'step',
  'printout',
  'backward',
]);

// Parts of views that the page places apart (the element shows whole views only).
export const PARTS = Object.freeze({
  explanation: stepView,
  // The first screen: the picture, its token picker and its verdict; the page shows the tables
  // below it.
  picture: composite('one_hot(idx) · W = out', tokenPickerView, pictureView),
});

// Builds the views or parts `names` into container, one after another: (a promise of) one view.
export function buildViews(names, container, context) {
  return composite('', ...names.map((name) => VIEWS[name] ?? PARTS[name])).build(
    container,
    context,
  );
}
