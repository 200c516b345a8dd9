// The attributes of <embedding-demo>, read into what compute.plan() takes. No DOM, no WASM: the
// values are checked here only as far as the core does not check them (the view, the step,
// the tokenizer).
import { DEFAULT_TOKENIZER, TEXT_DIM, TOKENIZER_NAMES } from '../tokenizers/catalog.mjs';

// What each view shows; the order is the one the reference page documents.
export const VIEWS = ['equation', 'compare', 'lookup', 'onehot', 'step', 'printout', 'backward', 'bag', 'benchmark'];
export const WEIGHTS = ['seed', 'tf', 'npy'];
export const DEFAULTS = Object.freeze({ ids: '2, 3, 1', dim: '5', seed: '123', view: 'compare' });
export const OBSERVED_ATTRIBUTES = Object.freeze(
  ['ids', 'vocab', 'dim', 'seed', 'weights', 'src', 'view', 'step', 'label', 'controls', 'text',
   'tokenizer']);

// A bad attribute value; `attribute` names it.
export class AttributeError extends Error {
  constructor(attribute, message) {
    super(message);
    this.attribute = attribute;
  }
}

function oneOf(attribute, value, allowed) {
  if (!allowed.includes(value)) {
    throw new AttributeError(attribute,
      `${attribute}="${value}" is not one of: ${allowed.join(', ')}`);
  }
  return value;
}

// The token to step through, counted from 0 like idx[k]; clamped to the ids later.
function stepOf(text) {
  if (text === null) return 0;
  if (!/^\s*\d+\s*$/.test(text)) {
    throw new AttributeError('step', `step must be a whole number counted from 0, got "${text}"`);
  }
  return Number(text);
}

// get(name): the attribute's text, or null when it is absent. What compute.plan() takes, less
// `npy`, unchecked: `source` is the weights attribute, or its default. With a text, the ids
// are its tokens' (the element puts them in) and d starts small.
export function planInput(get) {
  return {
    idsText: get('ids') ?? DEFAULTS.ids,
    vocabText: get('vocab') ?? '',
    dimText: get('dim') ?? (get('text') === null ? DEFAULTS.dim : String(TEXT_DIM)),
    source: get('weights')?.trim() || (get('src')?.trim() ? 'npy' : 'seed'),
    seedText: get('seed') ?? DEFAULTS.seed,
  };
}

// Returns { view, step, label, src, text, tokenizer, input }, checked: input is planInput(get);
// src is the .npy file's URL when the weights come from one, else null; text is the text to
// tokenize in place of the ids, or null, and tokenizer the name of the tokenizer for it.
export function readAttributes(get) {
  const input = planInput(get);
  const src = get('src')?.trim() || null;
  oneOf('weights', input.source, WEIGHTS);
  if (input.source === 'npy' && !src) {
    throw new AttributeError('src',
      'weights="npy" needs src="…": the URL of a .npy file holding W (V × d)');
  }
  return {
    view: oneOf('view', (get('view') ?? DEFAULTS.view).trim(), VIEWS),
    step: stepOf(get('step')),
    label: get('label')?.trim() || null,
    src: input.source === 'npy' ? src : null,
    text: get('text'),
    tokenizer: oneOf('tokenizer', get('tokenizer')?.trim() || DEFAULT_TOKENIZER, TOKENIZER_NAMES),
    input,
  };
}
