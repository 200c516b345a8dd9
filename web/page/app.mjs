// The index page: one store (model/state.mjs), the session that computes from it
// (compute/session.mjs), the inputs that write it, and the page's sections, each made of views
// from the registry (data-views="…", views/registry.mjs) that the store redraws. The first
// screen redraws at once; the sections below catch up when scrolled to or when typing pauses.
import { loadEmbedlab } from '../embedlab/embedlab.mjs';
import { laterSessionCalls, moduleStandIn } from '../compute/module-stand-in.mjs';
import { createSession } from '../compute/session.mjs';
import { setFieldErrors } from '../inputs/field-errors.mjs';
import { bindFormFields } from '../inputs/form-fields.mjs';
import { createTextInput } from '../inputs/text-input.mjs';
import { VIEW_TOKENIZERS } from '../tokenizers/client.mjs';
import { createWeightsInput } from '../inputs/weights-input.mjs';
import { count } from '../model/format-number.mjs';
import { createStore, initialState } from '../model/state.mjs';
import { readUrlState, urlFor } from '../model/url-state.mjs';
import { linkViews } from '../views/linking.mjs';
import { pictureTitle } from '../views/picture/picture.mjs';
import { showsBusy } from '../views/verdict.mjs';
import { buildViews } from '../views/registry.mjs';
import { nextFrame, nextTask, whenNear } from '../draw/when-near.mjs';
import { deferredRedraw } from './deferred-redraw.mjs';
import { showInputNotes } from './input-notes.mjs';
import { askBeforeGrowingV } from './vocab-choice.mjs';
import { createStory } from './story.mjs';

const byId = (id) => document.getElementById(id);

// A list being typed ("[4, 7") is shown as wrong only after this long without a keystroke, or
// when the learner leaves the field.
const TYPING_PAUSE_MS = 700;
// The address follows the inputs this long after the last change: one replaceState costs
// Chromium about 10 ms here, most of a frame's budget if paid on every keystroke.
const URL_PAUSE_MS = 250;
// The first screen: redrawn in the keystroke's frame.
const FIRST_SCREEN = 'results';

// The limits the core enforces, in the hints under the inputs that meet them.
function showLimits(lab) {
  for (const span of document.querySelectorAll('[data-limit]')) {
    span.textContent = count(lab.limits[span.dataset.limit]);
  }
}

// The ids while they are typed: their errors wait for a pause (or for the field to be left), and
// so does the session's settling on a result (compute/session.mjs), so that a result of a part
// of what is being typed never stays as "the last valid input". onPause() at each pause.
function idsTyping(idsField, onPause) {
  let lastKey = -Infinity; // performance.now() of the last keystroke in the ids
  let timer = 0;
  const typing = () =>
    document.activeElement === idsField && performance.now() - lastKey < TYPING_PAUSE_MS;
  idsField.addEventListener('input', ({ inputType, data }) => {
    clearTimeout(timer);
    // A key typed or deleted; a paste (or a whole list put in at once) is an input complete.
    const key =
      (inputType === 'insertText' && data?.length === 1) || inputType?.startsWith('delete');
    lastKey = key ? performance.now() : -Infinity;
    if (key) timer = setTimeout(onPause, TYPING_PAUSE_MS);
  });
  idsField.addEventListener('blur', () => {
    lastKey = -Infinity;
    clearTimeout(timer);
    onPause();
  });
  return { typing, quiet: (error) => error.field === 'ids' && typing() };
}

// Returns request(now = false): draw() runs now when asked to, or when the views go busy or stop
// being so (they say so with the verdict), else once the frame being made is painted (from a
// store change in an animation frame callback, as the session's results come), at most once for
// however many requests came before it.
function afterFrame(draw, store) {
  let timer = 0;
  let busy = null;
  return (now = false) => {
    clearTimeout(timer);
    timer = 0;
    const busyNow = showsBusy(store.get());
    if (now || busyNow !== busy) draw();
    else timer = setTimeout(draw);
    busy = busyNow;
  };
}

// Each section's views, redrawn by the store. The first screen is built at once; its first view
// (the picture and its verdict) redraws at once, in the frame of the change, and its others
// right after that frame (a keystroke's frame holds what it must show first). The sections below are built once the module's deferred part runs (their views train,
// read files and draw positions), each when near the viewport or when the browser is idle
// (draw/when-near.mjs), and draw then too: their work waits for the first verdict.
// complete: a promise of the module's deferred part. Resolves once the first screen is built, to
// { below }: a promise of the others.
async function buildSections(store, context, complete) {
  const built = [];
  const all = new Set(Object.keys(store.get()));
  // names: views of section, drawn by request(now) made of draw().
  async function build(section, names, schedule) {
    const views = await buildViews(names, section, context);
    let pending = new Set();
    const draw = () => {
      const changed = pending;
      pending = new Set();
      views.update(store.get(), changed);
    };
    const request = schedule(draw, store);
    const add = (changed) => {
      for (const key of changed) pending.add(key);
    };
    built.push({ section, request, add });
    add(all);
    request();
  }
  async function buildSection(section) {
    const names = section.dataset.views.split(' ');
    if (section.id !== FIRST_SCREEN) {
      await build(section, names, (draw) => deferredRedraw(section, draw));
    } else {
      await build(section, names.slice(0, 1), (draw) => draw);
      if (names.length > 1) await build(section, names.slice(1), afterFrame);
    }
    section.dataset.built = ''; // its views hold their own room from here (styles/base.css)
  }
  const sections = [...document.querySelectorAll('section[data-views]')];
  await buildSection(sections.find((section) => section.id === FIRST_SCREEN));
  store.subscribe((state, changed) => {
    // A token picked or pointed at (one deliberate act, which every view follows) redraws
    // everywhere at once.
    const everywhere = (changed.has('step') || changed.has('hovered')) && !changed.has('result');
    // A result streaming its product is the inputs' own: not stale.
    const stale =
      state.status.state === 'failed' ||
      (state.status.state === 'computing' && !state.status.stoppable);
    for (const { section, add, request } of built) {
      section.classList.toggle('stale', stale && state.result !== null);
      add(changed);
      request(everywhere);
    }
  });
  // Busy until built (web/page/deferred-redraw.mjs clears it once each has drawn), or until
  // the module's deferred part fails to load.
  const others = sections.filter((section) => section.id !== FIRST_SCREEN);
  for (const section of others) section.setAttribute('aria-busy', 'true');
  const below = complete.then(
    () => Promise.all(others.map((section) => whenNear(section, () => buildSection(section)))),
    (error) => {
      for (const section of others) section.removeAttribute('aria-busy');
      throw error;
    },
  );
  return { below };
}

// The page: its first screen is built and laid out while the module downloads (its views keep
// the module's stand-in), then the session that computes and the inputs that call the module
// start once it runs, and the first result follows.
async function start(loading) {
  const { lab, loaded } = moduleStandIn(loading);
  const linked = readUrlState(location.search);
  const store = createStore({
    ...initialState(linked.inputs),
    step: linked.step ?? 0,
    ...(linked.train ? { train: linked.train } : {}),
    ...(linked.views ? { views: linked.views } : {}),
  });
  const form = byId('inputs');
  const fields = { ids: byId('ids'), vocab: byId('vocab'), dim: byId('dim'), seed: byId('seed') };
  bindFormFields(store, form, fields);
  form.addEventListener('submit', (event) => event.preventDefault());

  // The first screen's views are built in a task of their own, not in the module's evaluation.
  await nextTask();
  let session = null;
  const { below } = await buildSections(
    store,
    {
      store,
      lab,
      ...laterSessionCalls(() => session),
      tokenizers: VIEW_TOKENIZERS,
      embedded: false,
    },
    loaded.then(() => lab.complete),
  );
  linkViews(document.body, store);

  // The picture's section is headed by what its mode compares.
  store.subscribe(({ pictureMode }, changed) => {
    if (changed.has('pictureMode')) byId('results-title').textContent = pictureTitle(pictureMode);
  });

  // The inputs, the source, the token, the training and the section in the address
  // (model/url-state.mjs).
  let urlTimer = 0;
  store.subscribe((state, changed) => {
    if (!['inputs', 'step', 'train', 'views'].some((key) => changed.has(key))) return;
    clearTimeout(urlTimer);
    urlTimer = setTimeout(
      () => history.replaceState(null, '', urlFor(location.href, state, linked.view)),
      URL_PAUSE_MS,
    );
  });

  // The first screen's views are laid out in a frame of their own, while the module downloads:
  // the picture reads the page's colours and width.
  await nextFrame();
  try {
    await loaded;
  } catch (error) {
    below.catch(() => {}); // the same failure, said once
    failed(`The WebAssembly module could not be loaded: ${error.message}`);
    return;
  }
  byId('status').textContent = 'Ready.';
  showLimits(lab);
  // The module's start, the inputs and the first result: each in a task of its own, so that none
  // holds the page long.
  await nextTask();

  session = createSession(
    lab,
    store,
    idsTyping(fields.ids, () => session.paused()),
  );
  askBeforeGrowingV(lab, store, { ids: fields.ids, choice: byId('vocab-choice') });
  createWeightsInput(lab, store, {
    form,
    file: byId('weights-file'),
    dropZone: byId('drop-zone'),
    fileName: byId('file-name'),
    tensorField: byId('tensor-field'),
    tensor: byId('tensor'),
    tensorStatus: byId('tensor-status'),
  });
  const textInput = createTextInput(lab, store, {
    modes: byId('ids-from'),
    panel: byId('text-mode'),
    text: byId('text'),
    tokenizer: byId('tokenizer'),
    status: byId('text-status'),
    offer: byId('tokenizer-offer'),
    error: byId('text-error'),
    chips: byId('token-chips'),
    idsHint: byId('ids-hint'),
  });
  createStory(byId('story'), store, textInput);
  showInputNotes(store, { note: byId('shape-note'), summary: byId('weights-summary') });
  store.subscribe(({ status }, changed) => {
    if (!changed.has('status')) return;
    setFieldErrors(status.state === 'failed' ? { [status.field]: status.message } : {});
  });

  await nextTask();
  session.refresh();
  below.then(
    () => {
      // Sections off screen are laid out late (content-visibility): scroll once they are built
      // and the page has settled.
      if (linked.view)
        requestAnimationFrame(() =>
          requestAnimationFrame(() => byId(linked.view).scrollIntoView()),
        );
    },
    (error) => failed(`The rest of the WebAssembly module could not be loaded: ${error.message}`),
  );
}

// The status line says what could not load.
function failed(message) {
  const status = byId('status');
  status.textContent = message;
  status.classList.add('failed');
}

// The module's first part downloads while the first screen is built.
start(loadEmbedlab({ early: true }));
