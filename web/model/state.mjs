// The one state behind the page and every <embedding-demo>: inputs write to it, the session
// (compute/session.mjs) turns its inputs into a result, and views subscribe to it. Pure: no DOM.
//
//   inputs   what the learner typed or picked, as text, as the core's plan() takes it:
//            { idsText, vocabText, dimText, source: 'seed' | 'tf' | 'file', seedText,
//              file: null | { key, name, table } | { name, error } }
//   text     Text mode: null, or { text, tokenizer } whose tokens are the ids
//   tokens   Text mode's tokens: null, or { text, tokenizer, tokenizerLabel, ids, labels, vocabSize }
//            (labels: the chips'; tokenizerLabel: the tokenizer's, as errors name it)
//   result   the last good result of both routes (compute/plan.mjs's resultOf()), shown until
//            the next; its product and comparison are null while the product streams W
//   status   { state: 'ready' } | { state: 'computing', sentence, stoppable } (stoppable: the
//            result holds the lookup's rows and the product streams W) |
//            { state: 'stopped', sentence }: stopped, the result without its product |
//            { state: 'failed', field, message }: a FieldError's field and message |
//            { state: 'typing' }: an error that waits for the learner to pause
//   step     the token every view follows, from 0
//   pictureMode  what the picture shows (picture-scene.mjs's MODES): 'product', 'lookup', or
//            'backward', where the verdict below it is that of the gradient dW
//   hovered  the token under the pointer or the focus, or null: a light mark everywhere
//   train    the Train view's inputs and the steps taken (train-inputs.mjs)
//   trained  the Train view's tables once it has trained with a head and stands still, or null:
//            { key (the training's plan and steps), seed, vocab, dim, head, contextLength (0
//              without positions), steps, epochs, token (V, d), position (contextLength, d) or
//              null }; the head view reads them
//   views    the backward and bag views' own inputs (view-inputs.mjs)
import { TRAIN_INPUTS } from './train-inputs.mjs';
import { VIEW_INPUTS } from './view-inputs.mjs';

export function initialState(inputs = {}) {
  return {
    inputs: {
      idsText: '2, 3, 1',
      vocabText: '',
      dimText: '5',
      source: 'seed',
      seedText: '123',
      file: null,
      ...inputs,
    },
    text: null,
    tokens: null,
    result: null,
    status: { state: 'ready' },
    step: 0,
    pictureMode: 'product',
    hovered: null,
    train: TRAIN_INPUTS,
    trained: null,
    views: VIEW_INPUTS,
  };
}

// A store of one state object, replaced (never mutated) by set(patch). Listeners hear
// (state, changed) after each set that changed something: changed is the Set of top-level keys
// whose values are new.
export function createStore(state) {
  const listeners = new Set();
  return {
    get: () => state,
    set(patch) {
      const changed = new Set(Object.keys(patch).filter((key) => patch[key] !== state[key]));
      if (changed.size === 0) return;
      state = { ...state, ...patch };
      for (const listener of [...listeners]) listener(state, changed);
    },
    // A change to some of the inputs, the others kept.
    setInputs(patch) {
      const inputs = { ...state.inputs, ...patch };
      if (Object.keys(patch).every((key) => patch[key] === state.inputs[key])) return;
      this.set({ inputs });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
