// What the positions and head views share: their inputs (a (B, T) batch, one row per ';', the
// token table's V, d and seed, the position table's context_length), kept in the store
// (state.views[kind], model/view-inputs.mjs) and so in the address, and the tables they compute
// on (compute/positions-tables.mjs, in the compute worker): seeded in the book's order, or the
// page's .safetensors checkpoint when one is chosen as W. The view draws what the computation
// `kind` returned.
import { FieldError, wholeNumber } from '../compute/plan.mjs';
import { element } from '../draw/dom.mjs';
import { POSITIONS_FIELDS } from '../model/error-fields.mjs';
import { createViewForm } from './view-form.mjs';

// The chapter's first batch of 8 × 4: the opening of "The Verdict" (the chapter's
// the-verdict.txt), "I HAD always thought Jack Gisburn rather a cheap genius--though a good
// fellow enough--so it was no great surprise to me to hear that, in the height of his glory",
// in GPT-2's tokens, four at a time (max_length = stride = 4).
export const BOOK_BATCH =
  '40,367,2885,1464; 1807,3619,402,271; 10899,2138,257,7026; 15632,438,2016,257; ' +
  '922,5891,1576,438; 568,340,373,645; 1049,5975,284,502; 284,3285,326,11';

// V = GPT-2's vocabulary and context_length = 4 as in the chapter; d = 256 there, 16 here so
// that the page draws the table at once (the CLI takes the chapter's d).
// `of` completes each input's accessible name ("V of the head"), one name per view on a page
// that shows both; defaults: { batch, dim } where a view starts from others.
export function positionControls(of, extra = '', { batch = BOOK_BATCH, dim = '16' } = {}) {
  const label = (text) => `<span>${text}<span class="visually-hidden"> ${of}</span></span>`;
  return `
  <label class="view-field wide-field">${label('batch <code>inputs</code> (B × T)')}
    <input name="batch" type="text" class="wide" value="${batch}" spellcheck="false"></label>
  <label class="view-field">${label('<var>V</var>')}
    <input name="vocab" type="text" inputmode="numeric" value="50257" spellcheck="false"></label>
  <label class="view-field">${label('<var>d</var>')}
    <input name="dim" type="text" inputmode="numeric" value="${dim}" spellcheck="false"></label>
  <label class="view-field">${label('<code>context_length</code>')}
    <input name="context-length" type="text" inputmode="numeric" value="4" spellcheck="false"></label>
  <label class="view-field">${label('seed')}
    <input name="seed" type="text" inputmode="numeric" value="123" spellcheck="false"></label>
  ${extra}`;
}

// The page's W when it is a .safetensors checkpoint (one file, not a sharded index): its File.
export function checkpointOf(state) {
  const file = state.inputs.source === 'file' ? state.inputs.file : null;
  if (!file || file.error || file.format !== 'safetensors' || /\.json$/i.test(file.name))
    return null;
  return file;
}

// What compute/positions-tables.mjs opens for args: a checkpoint, trained tables, or a seed.
function specOf({ checkpoint, trained, seed, vocab, dim, contextLength }) {
  if (checkpoint) {
    const { file, bytes, key, configText } = checkpoint;
    return { checkpoint: { file, bytes, key, configText } };
  }
  if (trained) {
    const { key, token, position } = trained;
    return { trained: { key, token, position } };
  }
  return { seed, vocab, dim, contextLength };
}

// root: an empty element; kind: 'positions' or 'head', the computation whose result
// show(output, drawn, args) draws; controls: the form's markup; more(form): the computation's
// arguments beyond the batch; args: { batch, checkpoint } and, for seeded tables, { seed, vocab,
// dim, contextLength, trained }; computePositions: the session's (compute/session.mjs).
// trainedFor(state, args): the page's trained tables (state.trained) where they are the seeded
// ones trained, else null: then args.trained holds them and the computation runs on them. Returns
// { output, update(state, changed), settled() }: settled() resolves once the output shows the
// last update's computation (or its error).
export function createPositionsForm(
  root,
  { kind, controls, store, computePositions, more, show, trainedFor = () => null },
) {
  let typed = store.get().views[kind]; // what the form holds, as the store keeps it
  const form = createViewForm(root, controls, POSITIONS_FIELDS, typed, (values) => {
    typed = values;
    store.set({ views: { ...store.get().views, [kind]: values } });
  });
  const output = element('div', 'view-output');
  root.append(output);
  let latest = 0; // the newest computation; an older one's answer is dropped

  function seededArgs() {
    return {
      seed: wholeNumber(form.value('seed'), 'the seed', 'seed'),
      vocab: wholeNumber(form.value('vocab'), 'V', 'vocab'),
      dim: wholeNumber(form.value('dim'), 'd', 'dim'),
      contextLength: wholeNumber(form.value('context-length'), 'context_length', 'context_length'),
    };
  }

  async function update(state) {
    const mine = ++latest;
    const checkpoint = checkpointOf(state);
    try {
      const batch = form.value('batch');
      if (batch.trim() === '')
        throw new FieldError('ids', 'the batch is empty: type ids, one row per ;');
      const args = checkpoint
        ? { batch, checkpoint }
        : { batch, checkpoint: null, ...seededArgs() };
      if (!checkpoint) args.trained = trainedFor(state, args);
      const drawn = await computePositions(kind, specOf(args), { batch, ...more(form) });
      if (mine !== latest) return;
      form.clear();
      output.classList.remove('stale');
      show(output, drawn, args);
    } catch (error) {
      if (mine !== latest) return;
      output.classList.add('stale');
      form.fail(error);
    }
  }

  // What the last computation read: this view's inputs, the page's checkpoint and its trained
  // tables. The page's other inputs (its ids, at every keystroke) and the other views' leave it
  // as it is.
  let computedFor = null;
  let shown = Promise.resolve();
  return {
    output,
    update(state) {
      if (state.views[kind] !== typed) {
        typed = state.views[kind];
        form.write(typed);
      }
      const checkpoint = checkpointOf(state);
      const { trained } = state;
      if (
        computedFor?.views === state.views[kind] &&
        computedFor.checkpoint === checkpoint &&
        computedFor.trained === trained
      )
        return;
      computedFor = { views: state.views[kind], checkpoint, trained };
      shown = update(state);
    },
    settled: () => shown,
  };
}
