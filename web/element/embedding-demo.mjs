// <embedding-demo ids="2,3,1" dim="5" seed="123" view="compare">: the page's demo as a custom
// element for tutorial pages. Every attribute is live (changes are rendered once per frame),
// styles are scoped in a shadow root, and every element on a page shares one WebAssembly
// instance (loadEmbedlab() caches it). Errors, bad attributes included, are shown inside the
// element as text (role="alert"), never thrown at the host page. Attributes: README.md in
// package/ and reference.html; types: embedding-demo.d.ts.
import { EmbedlabError, loadEmbedlab } from '../embedlab/embedlab.mjs';
import { FieldError, plan, run } from '../compute/plan.mjs';
import { shownIndices } from '../model/shown-indices.mjs';
import { readTableFromUrl } from '../compute/table-from-url.mjs';
import { createTokenChips } from '../inputs/token-chips.mjs';
import { createTokenizeChannel, progressMessage } from '../tokenizers/client.mjs';
import { AttributeError, OBSERVED_ATTRIBUTES, planInput, readAttributes } from './attributes.mjs';
import { createControls } from './controls.mjs';
import { elementStyleSheets } from './styles.mjs';
import { VIEW_SPECS } from './views.mjs';

const IDS_SHOWN = 8;
const LOADING = 'Loading the embedding demo…';

const SKELETON = `
  <div class="demo" role="group" aria-labelledby="title">
    <p class="demo-title" id="title">${LOADING}</p>
    <form class="demo-controls" hidden novalidate autocomplete="off"></form>
    <p class="error" id="error" role="alert" hidden></p>
    <div class="demo-tokens token-chips" aria-label="Tokens of the text"></div>
    <div class="demo-view"></div>
  </div>`;

// "[2, 3, 1]", summarised like PyTorch beyond IDS_SHOWN ids: "[2, 3, 1, …, 7, 0, 5]".
function idsText(ids) {
  return `[${shownIndices(ids.length, IDS_SHOWN).map((k) => (k === null ? '…' : ids[k])).join(', ')}]`;
}

function weightsText(input, src) {
  if (input.source === 'tf') return 'W: row i = 0.11·i';
  if (input.source === 'npy') return `W from ${src}`;
  return `W from torch.manual_seed(${input.seedText.trim()})`;
}

// What the learner can act on: the core's message or a bad attribute's. Anything else (a module
// that cannot load, a bug) is shown too, and logged for the page's developer, never thrown.
function messageOf(error) {
  if (error instanceof FieldError || error instanceof AttributeError ||
      error instanceof EmbedlabError) {
    return error.message;
  }
  console.error(error);
  return `Something went wrong inside the demo: ${error?.message ?? error}`;
}

export class EmbeddingDemoElement extends HTMLElement {
  static observedAttributes = OBSERVED_ATTRIBUTES;

  #root;
  #parts;
  #controls = null;
  #frame = 0;
  #generation = 0;
  #settle = null;
  #done = Promise.resolve();
  #lab = null;
  #view = null;       // { name, render?, fail? }
  #cache = { key: null, weight: null };  // compute.run()'s W, reused while its inputs stay
  #npy = null;        // { href, value: plan()'s npy } for the last src
  #tokens = null;     // { tokenizer, text, answer } for the last text (tokenizers/client.mjs)
  #chips = null;
  #channel = null;
  #result = null;
  #error = null;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#root.adoptedStyleSheets = elementStyleSheets();
    const template = document.createElement('template');
    template.innerHTML = SKELETON;
    this.#root.append(template.content);
    const $ = (selector) => this.#root.querySelector(selector);
    this.#parts = { title: $('#title'), form: $('form'), error: $('#error'), tokens: $('.demo-tokens'),
                    view: $('.demo-view') };
  }

  connectedCallback() {
    // A property set before the element was defined hides the accessor: pass it on.
    for (const name of OBSERVED_ATTRIBUTES) {
      if (Object.hasOwn(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
    this.#schedule();
  }

  disconnectedCallback() {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue !== newValue) this.#schedule();
  }

  // The last result shown: compute.run()'s { ids, vocab, dim, weight, lookup, onehot, product,
  // comparison }, or null. It stays while the attributes are being fixed (see `error`).
  get result() { return this.#result; }

  // The message shown in the element's alert, or null.
  get error() { return this.#error; }

  // Resolves once the element shows its current attributes.
  get updateComplete() { return this.#done; }

  #schedule() {
    if (!this.#settle) this.#done = new Promise((resolve) => { this.#settle = resolve; });
    if (!this.#frame && this.isConnected) {
      this.#frame = requestAnimationFrame(() => {
        this.#frame = 0;
        this.#update();
      });
    }
  }

  async #update() {
    const generation = ++this.#generation;
    try {
      await this.#render(() => generation === this.#generation);
    } catch (error) {
      this.#showError(error);
    }
    if (generation !== this.#generation || this.#frame) return;  // a newer update follows
    this.#settle();
    this.#settle = null;
    this.dispatchEvent(new CustomEvent('render', { detail: { result: this.#result, error: this.#error } }));
  }

  // current(): false once a newer update has started, after which this one stops at its next await.
  async #render(current) {
    if (!this.#lab) {
      this.#lab = await loadEmbedlab();
      if (!current()) return;
    }
    const get = (name) => this.getAttribute(name);
    const attrs = readAttributes(get);
    const spec = VIEW_SPECS[attrs.view];
    if (this.#view?.name !== attrs.view) await this.#buildView(attrs.view);
    if (!current()) return;
    // Until a result names its inputs, the title names the view.
    if (!spec.result || !this.#result) this.#showTitle(attrs.label ?? spec.title, null);
    if (!spec.result) {
      this.#showError(null);
      this.#syncControls(attrs.input, null, null);
      return;
    }
    const input = attrs.text === null ? this.#dropTokens(attrs.input) : await this.#tokenized(attrs, current);
    if (!input || !current()) return;
    const npy = attrs.src ? await this.#loadNpy(attrs.src) : null;
    if (!current()) return;
    const p = plan(this.#lab, { ...input, npy });
    const result = run(this.#lab, p, this.#cache);
    const step = Math.min(attrs.step, result.ids.length - 1);
    this.#result = result;
    this.#showError(null);
    this.#view.render(result, step);
    this.#chips?.select(step);
    this.#showTitle(attrs.label ?? spec.title,
      `idx = ${idsText(result.ids)}, V = ${result.vocab}, d = ${result.dim}, ${weightsText(attrs.input, attrs.src)}`);
    this.#syncControls(input, input.vocabText.trim() === '' ? result.vocab : null, null);
  }

  // The text's tokens, as chips and as plan()'s input: the ids are theirs and V, unless set, is
  // the tokenizer's vocabulary size. Tokenized in the page's tokenizer worker, once per text and
  // tokenizer; the title shows the loading. A text the tokenizer cannot take is an error of
  // the text attribute. null when a newer update came meanwhile.
  async #tokenized(attrs, current) {
    const { text, tokenizer } = attrs;
    if (this.#tokens?.text !== text || this.#tokens?.tokenizer !== tokenizer) {
      this.#channel ??= createTokenizeChannel();
      this.#chips ??= createTokenChips(this.#parts.tokens, (step) => this.setAttribute('step', String(step)),
        { pickOnHover: true });
      const title = this.#parts.title.textContent;
      const answer = await this.#channel.tokenize(tokenizer, text, this.#lab.limits.maxIds, (progress) => {
        if (current()) this.#showTitle(progressMessage(progress), null);
      });
      if (!answer) return null;
      this.#showTitle(title, null);
      this.#parts.tokens.classList.toggle('stale', Boolean(answer.error));
      if (answer.error) throw new AttributeError('text', answer.error);
      this.#tokens = { text, tokenizer, answer };
      this.#chips.render(answer.ids, answer.labels, attrs.step);
    }
    const { ids, vocabSize } = this.#tokens.answer;
    return { ...attrs.input, idsText: ids.join(', '), vocabText: this.getAttribute('vocab') ?? String(vocabSize) };
  }

  // Without a text attribute: no chips. Returns input.
  #dropTokens(input) {
    if (this.#tokens) {
      this.#tokens = null;
      this.#chips.clear();
    }
    return input;
  }

  // Built in place: a view may need its shadow root (the benchmark panel adds its stylesheet).
  async #buildView(name) {
    const container = document.createElement('div');
    container.className = `view view-${name}`;
    this.#parts.view.replaceChildren(container);
    this.#view = { name };
    this.#result = null;
    const built = await VIEW_SPECS[name].build(container, {
      lab: this.#lab,
      onStep: (step) => this.setAttribute('step', String(step)),
    });
    if (this.#parts.view.firstChild === container) this.#view = { name, ...built };
  }

  // The .npy or .safetensors file at url (relative to the page), read once per url: plan()'s
  // npy input.
  async #loadNpy(url) {
    const href = new URL(url, document.baseURI).href;
    if (this.#npy?.href !== href) {
      this.#npy = { href, value: await readTableFromUrl(this.#lab, url, href) };
    }
    return this.#npy.value;
  }

  #showTitle(title, inputs) {
    this.#parts.title.textContent = inputs ? `${title}: ${inputs}` : title;
  }

  // null clears the alert; an error shows its message and marks the last result stale.
  #showError(error) {
    const message = error === null ? null : messageOf(error);
    const box = this.#parts.error;
    if (box.textContent !== (message ?? '')) box.textContent = message ?? '';
    box.hidden = message === null;
    this.#error = message;
    this.#parts.view.classList.toggle('stale', message !== null && this.#result !== null);
    // A view that has never had a result has nothing to show beside the message.
    this.#parts.view.hidden = message !== null && this.#result === null && this.#view?.render !== undefined;
    if (message !== null) {
      this.#view?.fail?.(this.#result !== null);
      const field = error.field ?? error.attribute ?? null;
      this.#syncControls(planInput((name) => this.getAttribute(name)), null, field);
      if (this.#parts.title.textContent === LOADING) {
        this.#showTitle(this.#lab ? 'Embedding demo' : 'The embedding demo could not start', null);
      }
    }
  }

  #syncControls(input, autoVocab, field) {
    const { form } = this.#parts;
    form.hidden = !this.hasAttribute('controls');
    if (form.hidden) return;
    this.#controls ??= createControls(form, this, 'error');
    this.#controls.sync(input, autoVocab, field);
  }
}

// Property access to every attribute: el.ids = '4, 2' sets ids="4, 2"; null removes it.
for (const name of OBSERVED_ATTRIBUTES.filter((n) => n !== 'controls')) {
  Object.defineProperty(EmbeddingDemoElement.prototype, name, {
    get() { return this.getAttribute(name); },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(name);
      else this.setAttribute(name, String(value));
    },
    configurable: true,
    enumerable: true,
  });
}
Object.defineProperty(EmbeddingDemoElement.prototype, 'controls', {
  get() { return this.hasAttribute('controls'); },
  set(value) { this.toggleAttribute('controls', Boolean(value)); },
  configurable: true,
  enumerable: true,
});

if (!customElements.get('embedding-demo')) {
  customElements.define('embedding-demo', EmbeddingDemoElement);
}
