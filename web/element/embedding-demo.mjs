// <embedding-demo ids="2,3,1" dim="5" seed="123" view="compare">: the page's views in a shadow
// root, for tutorial pages. Each element has the page's program: a store of its own
// (model/state.mjs) that its attributes write, the session that computes from it (in the compute
// worker beyond a frame's work, compute/session.mjs), a view from the registry
// (views/registry.mjs) and the page's linking. Every attribute is live (changes are rendered once
// per frame); every element on a page shares one WebAssembly instance. An element first renders
// when it comes near the viewport, or when the browser is idle, one element at a time
// (draw/when-near.mjs): a host page with many never stalls on them. A view that runs on the
// module's first file alone (EARLY_VIEWS) does not wait for the second. Errors, bad attributes
// included, are shown inside the element as text (role="alert"), never thrown at the host page.
// Attributes: README.md in package/ and reference.html; types: embedding-demo.d.ts.
import { EmbedlabError, loadEmbedlab } from '../embedlab/embedlab.mjs';
import { attempt, FieldError } from '../compute/plan.mjs';
import { laterSessionCalls, moduleStandIn } from '../compute/module-stand-in.mjs';
import { createSession } from '../compute/session.mjs';
import { readRoutesFromBase64, readTableFromBase64 } from '../compute/table-from-bytes.mjs';
import { readTableFromUrl } from '../compute/table-from-url.mjs';
import { writeProperty } from '../draw/dom.mjs';
import { nextFrame, whenNear } from '../draw/when-near.mjs';
import { createTokenChips } from '../inputs/token-chips.mjs';
import { inputsText } from '../model/describe.mjs';
import { createStore, initialState } from '../model/state.mjs';
import { TOKENIZERS } from '../tokenizers/catalog.mjs';
import { createTokenizeChannel, progressMessage, VIEW_TOKENIZERS } from '../tokenizers/client.mjs';
import { linkViews } from '../views/linking.mjs';
import { pictureTitle } from '../views/picture/picture.mjs';
import { EARLY_VIEWS, VIEWS } from '../views/registry.mjs';
import {
  AttributeError,
  misspeltAttribute,
  OBSERVED_ATTRIBUTES,
  planInput,
  readAttributes,
} from './attributes.mjs';
import { createControls } from './controls.mjs';
import { elementStyleSheets } from './styles.mjs';

const LOADING = 'Loading the embedding demo…';
const VIEW_NAMES = Object.keys(VIEWS);
const NOTEBOOK_TOKENIZER = 'notebook'; // the tokenizer of the tokens attribute

const SKELETON = `
  <div class="demo" role="group" aria-labelledby="title">
    <p class="demo-title" id="title">${LOADING}</p>
    <form class="demo-controls" hidden novalidate autocomplete="off"></form>
    <p class="error" id="error" role="alert" hidden></p>
    <div class="demo-tokens token-chips" aria-label="Tokens of the text"></div>
    <div class="demo-view"></div>
  </div>`;

// file: the name of W's file (its URL) or, for a table the page gave, of its tensor.
function weightsText(input, file) {
  if (input.source === 'tf') return 'W: row i = 0.11·i';
  if (input.source === 'file') return `W from ${file}`;
  return `W from torch.manual_seed(${input.seedText.trim()})`;
}

// What the learner can act on: the core's message or a bad attribute's. Anything else (a module
// that cannot load, a bug) is shown too, and logged for the page's developer, never thrown.
function messageOf(error) {
  if (
    error instanceof FieldError ||
    error instanceof AttributeError ||
    error instanceof EmbedlabError
  ) {
    return error.message;
  }
  console.error(error);
  return `Something went wrong inside the demo: ${error?.message ?? error}`;
}

// The element's headings would enter the host page's outline: inside it they are text, styled
// as before (class view-heading).
function demoteHeadings(root) {
  for (const heading of root.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const text = document.createElement('p');
    text.className = `view-heading ${heading.className}`.trim();
    if (heading.id) text.id = heading.id;
    text.append(...heading.childNodes);
    heading.replaceWith(text);
  }
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
  #lab = null; // the module, or its stand-in while it loads (compute/module-stand-in.mjs)
  #loaded = null; // a promise of the module and the session
  #store = createStore(initialState());
  #titled = null; // what the title shows: { title, inputs }
  #session = null;
  #view = null; // { name, update } of the view shown
  #file = null; // { href, value: the store's file input } for the last src or table
  #chips = null;
  #channel = null;
  #error = null;
  #views = null; // the views' inputs (readAttributes()'s) the view was last built with
  #queued = false; // the first render waits its turn (whenNear())
  #begun = false; // the first render has begun

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#root.adoptedStyleSheets = elementStyleSheets();
    const template = document.createElement('template');
    template.innerHTML = SKELETON;
    this.#root.append(template.content);
    const $ = (selector) => this.#root.querySelector(selector);
    this.#parts = {
      title: $('#title'),
      form: $('form'),
      error: $('#error'),
      tokens: $('.demo-tokens'),
      view: $('.demo-view'),
    };
    // Only the observed attributes call back: one set as if it were the element's own
    // (padding-idx for padding_idx) is watched too, so that it shows as an error, not ignored.
    new MutationObserver((records) => {
      if (records.some((record) => misspeltAttribute(record.attributeName))) this.#schedule();
    }).observe(this, { attributes: true });
    // A token picked in the view (its picker, a row) becomes the step attribute; a step the
    // session clamped to the ids is left as the page wrote it.
    this.#store.subscribe((state, changed) => {
      if (changed.has('pictureMode') && this.#titled)
        this.#showTitle(this.#titled.title, this.#titled.inputs);
    });
    this.#store.subscribe(({ step, result }, changed) => {
      if (!changed.has('step')) return;
      this.#chips?.select(step);
      const written = Number(this.getAttribute('step') ?? 0);
      if (step !== Math.min(written, (result?.ids.length ?? Infinity) - 1))
        this.setAttribute('step', String(step));
    });
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

  // The last result shown: compute/plan.mjs's run() result { ids, vocab, dim, table, weight,
  // lookup, onehot, product, comparison }, or null. It stays while the attributes are being
  // fixed (see `error`).
  get result() {
    return this.#store.get().result;
  }

  // The message shown in the element's alert, or null.
  get error() {
    return this.#error;
  }

  // Resolves once the element shows its current attributes.
  get updateComplete() {
    return this.#done;
  }

  #schedule() {
    if (!this.#settle)
      this.#done = new Promise((resolve) => {
        this.#settle = resolve;
      });
    if (!this.#begun) {
      // The first render reads the attributes as they are when it begins.
      if (!this.#queued && this.isConnected) {
        this.#queued = true;
        whenNear(this, () => this.#begin());
      }
      return;
    }
    if (!this.#frame && this.isConnected) {
      this.#frame = requestAnimationFrame(() => {
        this.#frame = 0;
        this.#update();
      });
    }
  }

  // The first render, in its turn; an element disconnected meanwhile is queued again once
  // connected.
  async #begin() {
    this.#queued = false;
    if (!this.isConnected) return;
    this.#begun = true;
    await this.#update();
  }

  async #update() {
    const generation = ++this.#generation;
    try {
      await this.#render(() => generation === this.#generation);
    } catch (error) {
      this.#showError(error);
    }
    if (generation !== this.#generation || this.#frame) return; // a newer update follows
    this.#settle();
    this.#settle = null;
    this.dispatchEvent(
      new CustomEvent('render', { detail: { result: this.result, error: this.#error } }),
    );
  }

  // current(): false once a newer update has started, after which this one stops at its next await.
  // The view is built and laid out while the module downloads (with its stand-in); the session,
  // which computes, starts once the module runs.
  async #render(current) {
    if (!this.#lab) {
      const { lab, loaded } = moduleStandIn(loadEmbedlab({ early: true }));
      this.#lab = lab;
      this.#loaded = loaded.then(
        () => {
          this.#session = createSession(lab, this.#store);
          linkViews(this.#root, this.#store);
        },
        (error) => {
          // A later render loads it again, and builds its view anew with that load's stand-in.
          this.#lab = null;
          this.#view = null;
          throw error;
        },
      );
      // Each render that waits for it shows the failure; meanwhile it is not left unhandled.
      this.#loaded.catch(() => {});
    }
    const attrs = readAttributes(
      (name) => this.getAttribute(name),
      VIEW_NAMES,
      this.getAttributeNames(),
    );
    // A view's form starts from the store's inputs: a new padding_idx builds it anew.
    // The views beyond the first file's, and the tables read from files, need the second.
    if (!EARLY_VIEWS.has(attrs.view) || attrs.src || attrs.table || attrs.routes) {
      await this.#loaded;
      await this.#lab.complete;
      if (!current()) return;
    }
    const views = JSON.stringify(attrs.views);
    if (this.#view?.name !== attrs.view || this.#views !== views) {
      this.#views = views;
      this.#store.set({ views: attrs.views });
      await this.#buildView(attrs.view);
      // Laid out in a frame of its own before its first result draws (the picture reads the
      // page's colours and width).
      await nextFrame();
    }
    await this.#loaded;
    if (!current()) return;
    const title = attrs.label ?? VIEWS[attrs.view].title;
    if (!this.result) this.#showTitle(title, null);
    const text =
      attrs.text !== null
        ? await this.#tokenized(attrs, current)
        : attrs.tokens !== null
          ? this.#givenTokens(attrs)
          : this.#dropTokens();
    if (text === undefined || !current()) return;
    const given = attrs.routes ?? attrs.table;
    const file = given
      ? await this.#readGiven(given, attrs.routes ? readRoutesFromBase64 : readTableFromBase64)
      : attrs.src
        ? await this.#loadFile(attrs.src)
        : null;
    if (!current()) return;
    // With a text, V is the tokenizer's vocabulary size unless set.
    const vocabText =
      text.tokens?.vocabSize && this.getAttribute('vocab') === null
        ? String(text.tokens.vocabSize)
        : attrs.input.vocabText;
    const inputs = { ...attrs.input, vocabText, file };
    this.#store.set({
      inputs: sameInputs(inputs, this.#store.get().inputs) ? this.#store.get().inputs : inputs,
      ...text,
      step: attrs.step,
    });
    await this.#session.settled();
    await this.#view.settled?.();
    if (!current()) return;
    const { status, result } = this.#store.get();
    if (status.state === 'failed') throw new FieldError(status.field, status.message);
    if (attrs.paddingIdx !== null)
      attempt(() => this.#lab.checkPaddingIdx(attrs.paddingIdx, result.vocab));
    this.#showError(null);
    this.#showTitle(
      title,
      `${inputsText(result)}, ${weightsText(attrs.input, attrs.src ?? file?.name)}`,
    );
    this.#syncControls(inputs, vocabText.trim() === '' ? result.vocab : null, null);
  }

  // The store's text and tokens for a text attribute: the text's tokens, as chips, whose ids
  // the session computes with; V, unless set, is the tokenizer's vocabulary size. Tokenized in
  // the page's tokenizer worker, once per text and tokenizer; the title shows the loading. A text
  // the tokenizer cannot take is an error of the text attribute. undefined when a newer update
  // came meanwhile.
  async #tokenized(attrs, current) {
    const { text, tokenizer } = attrs;
    let { tokens } = this.#store.get();
    if (tokens?.text !== text || tokens?.tokenizer !== tokenizer) {
      this.#channel ??= createTokenizeChannel();
      const title = this.#parts.title.textContent;
      const answer = await this.#channel.tokenize(tokenizer, text, this.#lab, (progress) => {
        if (current()) this.#showTitle(progressMessage(progress), null);
      });
      if (!answer) return undefined;
      this.#showTitle(title, null);
      this.#parts.tokens.classList.toggle('stale', Boolean(answer.error));
      if (answer.error) throw new AttributeError('text', answer.error);
      tokens = {
        text,
        tokenizer,
        tokenizerLabel: TOKENIZERS[tokenizer].label,
        ids: answer.ids,
        labels: answer.labels,
        vocabSize: answer.vocabSize,
      };
      this.#showChips(answer.ids, answer.labels, attrs.step);
    }
    return { text: { text, tokenizer }, tokens };
  }

  #showChips(ids, labels, step) {
    this.#chips ??= createTokenChips(
      this.#parts.tokens,
      (picked) => this.setAttribute('step', String(picked)),
      { pickOnHover: true },
    );
    this.#chips.render(ids, labels, step);
  }

  // The store's text and tokens for the tokens attribute: the ids as a notebook's tokenizer gave
  // them, with the chips' texts it sent (readAttributes()), shown as a text's are.
  #givenTokens(attrs) {
    const given = `${attrs.input.idsText}\0${this.getAttribute('tokens')}`;
    let { tokens } = this.#store.get();
    if (tokens?.text !== given || tokens?.tokenizer !== NOTEBOOK_TOKENIZER) {
      const ids = Array.from(attempt(() => this.#lab.parseIds(attrs.input.idsText)));
      if (attrs.tokens.length !== ids.length) {
        throw new AttributeError(
          'tokens',
          `tokens holds ${attrs.tokens.length} base64 parts for ${ids.length} ids: give one for each id`,
        );
      }
      tokens = {
        text: given,
        tokenizer: NOTEBOOK_TOKENIZER,
        tokenizerLabel: "the notebook's tokenizer",
        ids,
        labels: attrs.tokens,
        vocabSize: null,
      };
      this.#showChips(ids, attrs.tokens, attrs.step);
    }
    return { text: { text: given, tokenizer: NOTEBOOK_TOKENIZER }, tokens };
  }

  // Without a text attribute: no chips, no text in the store.
  #dropTokens() {
    if (this.#store.get().tokens) this.#chips.clear();
    return { text: null, tokens: null };
  }

  // Built in place, its headings made text: a view may need its shadow root (the benchmark
  // panel adopts its style sheet).
  async #buildView(name) {
    const container = document.createElement('div');
    container.className = `view view-${name}`;
    this.#parts.view.replaceChildren(container);
    this.#view = { name };
    const built = await VIEWS[name].build(container, {
      store: this.#store,
      lab: this.#lab,
      ...laterSessionCalls(() => this.#session),
      tokenizers: VIEW_TOKENIZERS,
      embedded: true,
    });
    demoteHeadings(container);
    if (this.#parts.view.firstChild !== container) return;
    this.#view = { name, ...built };
    const all = new Set(Object.keys(this.#store.get()));
    built.update(this.#store.get(), all);
    const unsubscribe = this.#store.subscribe((state, changed) => {
      if (this.#parts.view.firstChild === container) built.update(state, changed);
      else unsubscribe();
    });
  }

  // The .npy or .safetensors file at url (relative to the page), read once per url: the store's
  // file input.
  async #loadFile(url) {
    const href = new URL(url, document.baseURI).href;
    if (this.#file?.href !== href) {
      this.#file = { href, value: await readTableFromUrl(this.#lab, url, href) };
    }
    return this.#file.value;
  }

  // The table or routes attribute's file, read once per value by read (table-from-bytes.mjs):
  // the store's file input.
  async #readGiven(text, read) {
    if (this.#file?.href !== text) {
      this.#file = { href: text, value: await read(this.#lab, text) };
    }
    return this.#file.value;
  }

  // title: the label attribute's or the view's, which the picture in backward mode replaces by
  // its own (its verdict is then dW's).
  #showTitle(title, inputs) {
    this.#titled = { title, inputs };
    const shown =
      this.#view?.name === 'equation' &&
      this.getAttribute('label') === null &&
      this.#store.get().pictureMode === 'backward'
        ? pictureTitle('backward')
        : title;
    this.#parts.title.textContent = inputs ? `${shown}: ${inputs}` : shown;
  }

  // null clears the alert; an error shows its message and marks the last result stale.
  #showError(error) {
    const message = error === null ? null : messageOf(error);
    const box = this.#parts.error;
    writeProperty(box, 'textContent', message ?? '');
    box.hidden = message === null;
    this.#error = message;
    const { result } = this.#store.get();
    this.#parts.view.classList.toggle('stale', message !== null && result !== null);
    // A view that has never had a result has nothing to show beside the message; the benchmark
    // panel shows none.
    this.#parts.view.hidden =
      message !== null && result === null && this.#view?.name !== 'benchmark';
    if (message !== null) {
      const field = error.field ?? error.attribute ?? null;
      this.#syncControls(
        planInput((name) => this.getAttribute(name)),
        null,
        field,
      );
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

// Equal inputs keep the store's object, so that the session does not compute them again.
function sameInputs(a, b) {
  return (
    Object.keys(a).every((key) => a[key] === b[key]) &&
    Object.keys(a).length === Object.keys(b).length
  );
}

// Property access to every attribute: el.ids = '4, 2' sets ids="4, 2"; null removes it.
for (const name of OBSERVED_ATTRIBUTES.filter((n) => n !== 'controls')) {
  Object.defineProperty(EmbeddingDemoElement.prototype, name, {
    get() {
      return this.getAttribute(name);
    },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(name);
      else this.setAttribute(name, String(value));
    },
    configurable: true,
    enumerable: true,
  });
}
Object.defineProperty(EmbeddingDemoElement.prototype, 'controls', {
  get() {
    return this.hasAttribute('controls');
  },
  set(value) {
    this.toggleAttribute('controls', Boolean(value));
  },
  configurable: true,
  enumerable: true,
});

if (!customElements.get('embedding-demo')) {
  customElements.define('embedding-demo', EmbeddingDemoElement);
}
