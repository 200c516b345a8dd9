// The attributes of <embedding-demo>, read into the store's inputs (model/state.mjs). No DOM, no
// WASM: the values are checked here only as far as the core does not check them (the view, the
// step, the tokenizer, the source, that padding_idx is a number), and an attribute that is none
// of the element's but looks like one (padding-idx, seeds) is an error, as an options object's
// unknown key is in the API: set and silently ignored, it would look like a wrong result.
import { meantKey } from '../embedlab/options.mjs';
import { wholeNumber } from '../compute/plan.mjs';
import { initialState } from '../model/state.mjs';
import { DEFAULT_SOURCE, SOURCES } from '../model/table-source.mjs';
import { DEFAULT_TOKENIZER, TEXT_DIM, TOKENIZER_NAMES } from '../tokenizers/catalog.mjs';
import { VIEW_INPUTS } from '../model/view-inputs.mjs';
import { base64Bytes } from '../compute/table-from-bytes.mjs';
import { tokenLabel } from '../tokenizers/token-label.mjs';

// The page's defaults are the element's: the notebook's ids, d and seed.
const DEFAULT_INPUTS = initialState().inputs;
export const DEFAULT_VIEW = 'compare';
export const OBSERVED_ATTRIBUTES = Object.freeze([
  'ids',
  'vocab',
  'dim',
  'seed',
  'weights',
  'src',
  'table',
  'routes',
  'view',
  'step',
  'label',
  'controls',
  'text',
  'tokenizer',
  'padding_idx',
  'tokens',
]);

// A bad attribute value; `attribute` names it.
export class AttributeError extends Error {
  constructor(attribute, message) {
    super(message);
    this.attribute = attribute;
  }
}

function oneOf(attribute, value, allowed) {
  if (!allowed.includes(value)) {
    const meant = meantKey(value, allowed);
    throw new AttributeError(
      attribute,
      `${attribute}="${value}" is not one of: ${allowed.join(', ')}` +
        (meant ? ` (did you mean ${meant}?)` : ''),
    );
  }
  return value;
}

// Attributes of every HTML element, and the sizes authors set on any box, which are not the
// element's to refuse however close they are to one of its own (id to ids, dir to dim, height to
// weights).
const GLOBAL_ATTRIBUTE =
  /^(data-|aria-|on)|^(id|class|style|slot|part|exportparts|is|lang|dir|title|hidden|inert|role|tabindex|accesskey|autofocus|autocapitalize|contenteditable|draggable|enterkeyhint|inputmode|nonce|popover|spellcheck|translate|itemid|itemprop|itemref|itemscope|itemtype|width|height)$/;

// The attribute of the element that `name` was meant to be, for an attribute it does not read
// (padding-idx and paddingidx for padding_idx, seeds for seed), else null.
export function misspeltAttribute(name) {
  if (OBSERVED_ATTRIBUTES.includes(name) || GLOBAL_ATTRIBUTE.test(name)) return null;
  return meantKey(name, OBSERVED_ATTRIBUTES);
}

function checkNames(names) {
  for (const name of names) {
    const meant = misspeltAttribute(name);
    if (meant) {
      throw new AttributeError(
        meant,
        `${name} is not an attribute of <embedding-demo>: did you mean ${meant}? Its attributes ` +
          `are ${OBSERVED_ATTRIBUTES.join(', ')}`,
      );
    }
  }
}

// The token to step through, counted from 0 like idx[k]; clamped to the ids later.
function stepOf(text) {
  if (text === null) return 0;
  if (!/^\s*\d+\s*$/.test(text)) {
    throw new AttributeError('step', `step must be a whole number counted from 0, got "${text}"`);
  }
  return Number(text);
}

// tokens="IHRoZQ== IGNhdA==": each id's bytes in base64, as a notebook's tokenizer gave them
// (embedlab.show(text=, tokenizer=)), as their chips show them; null when absent.
function tokenLabels(text) {
  if (text === null) return null;
  const parts = text.trim().split(/\s+/).filter(Boolean);
  const bytes = parts.map(base64Bytes);
  const k = bytes.indexOf(null);
  if (k >= 0) {
    throw new AttributeError(
      'tokens',
      `tokens must be each id's bytes in base64, separated by spaces: token ${k} is "${parts[k]}"`,
    );
  }
  return bytes.map(tokenLabel);
}

// The views with a padding_idx input of their own, where padding_idx="…" starts it (and the core
// checks it, under that input).
const PADDING_VIEWS = ['backward', 'bag'];
const viewInputs = (padding) =>
  padding === null
    ? VIEW_INPUTS
    : {
        ...VIEW_INPUTS,
        ...Object.fromEntries(PADDING_VIEWS.map((view) => [view, { 'padding-idx': padding }])),
      };

// get(name): the attribute's text, or null when it is absent. The store's inputs, less the file,
// unchecked: `source` is the weights attribute, or its default. With a text, the ids are its
// tokens' and d starts small.
export function planInput(get) {
  return {
    ...DEFAULT_INPUTS,
    idsText: get('ids') ?? DEFAULT_INPUTS.idsText,
    vocabText: get('vocab') ?? DEFAULT_INPUTS.vocabText,
    dimText: get('dim') ?? (get('text') === null ? DEFAULT_INPUTS.dimText : String(TEXT_DIM)),
    source:
      get('weights')?.trim() ||
      (get('src')?.trim() || get('table')?.trim() || get('routes')?.trim()
        ? 'file'
        : DEFAULT_SOURCE),
    seedText: get('seed') ?? DEFAULT_INPUTS.seedText,
  };
}

// Returns { view, step, label, src, table, routes, text, tokenizer, tokens, views, paddingIdx,
// input }, checked: input is
// planInput(get); src is the file's URL when the weights come from one, else null; table the
// file's bytes in base64 when the page gives them, routes both routes computed elsewhere (each
// wins over those before it), else null; text is the text to
// tokenize in place of the ids, or null, and tokenizer the name of the tokenizer for it; tokens
// the chips' texts of the ids a notebook's tokenizer gave (tokenLabels()), or null; views
// the backward and bag views' inputs (model/view-inputs.mjs): padding_idx="1" is where their
// padding_idx starts (the core checks it there); paddingIdx: padding_idx as a number where the
// view shown has no input for it, for the element to check against V (lab.checkPaddingIdx), else
// null.
// views: the names `view` may take; names: the attributes the element has (getAttributeNames()).
export function readAttributes(get, views, names = []) {
  checkNames(names);
  const input = planInput(get);
  const src = get('src')?.trim() || null;
  const routes = get('routes')?.trim() || null;
  const table = routes ? null : get('table')?.trim() || null;
  oneOf('weights', input.source, SOURCES);
  if (input.source === 'file' && !src && !table && !routes) {
    throw new AttributeError(
      'src',
      'weights="file" needs src="…": the URL of a .npy, .safetensors or .gguf file holding W (V × d), ' +
        'or table="…": such a file\'s bytes in base64',
    );
  }
  const view = oneOf('view', (get('view') ?? DEFAULT_VIEW).trim(), views);
  const padding = get('padding_idx')?.trim() || null;
  const paddingIdx = padding === null ? null : wholeNumber(padding, 'padding_idx', 'padding_idx');
  return {
    view,
    step: stepOf(get('step')),
    label: get('label')?.trim() || null,
    src: input.source === 'file' && !table && !routes ? src : null,
    table: input.source === 'file' ? table : null,
    routes: input.source === 'file' ? routes : null,
    text: get('text'),
    tokenizer: oneOf('tokenizer', get('tokenizer')?.trim() || DEFAULT_TOKENIZER, TOKENIZER_NAMES),
    views: viewInputs(padding),
    paddingIdx: PADDING_VIEWS.includes(view) ? null : paddingIdx,
    tokens: tokenLabels(get('tokens')),
    input,
  };
}
