// Train: nn.Embedding and nn.Linear(V, d, bias=False) on one-hot rows, trained side by side by
// one torch.optim optimizer each, in the WebAssembly module (lab.seededTraining), bit for bit as
// PyTorch trains them: W after each step with the rows it changed lit in the colour of why, a
// rows × steps timeline, the optimizer state of the picked row, the Linear route's verdict, and
// the training as a PyTorch script that prints what the view shows.
//
// The store is the source of truth (model/train-inputs.mjs): the view's inputs and the steps taken
// live in store.train, and the view makes its training follow them, so a link replays the same
// steps. V, d and the seed are the page's, except for batches typed as text (one batch per line,
// tokenized in the tokenizer worker, which the context's `tokenizers` reaches): V is then the
// tokenizer's vocabulary and d no more than TRAIN_BUDGET allows (model/train-text.mjs). Nothing
// trains until Step or Play (or a link's steps); typing only checks, which costs no more than
// parsing (and tokenizing).
import trainCss from '../styles/train.css';
import { FieldError, wholeNumber } from '../compute/plan.mjs';
import { byData, element, writeProperty } from '../draw/dom.mjs';
import { adoptStyleSheet } from '../draw/style-sheets.mjs';
import { causeOf, drawLegend, drawTimeline, drawWeights } from '../draw/train-picture.mjs';
import { showPending, showVerdict } from '../draw/verdict-box.mjs';
import { EmbedlabError } from '../embedlab/embedlab.mjs';
import { TRAIN_FIELDS, TRAIN_TEXT_FIELDS } from '../model/error-fields.mjs';
import { count, plural, vectorText } from '../model/format-number.mjs';
import { ROW_CAP } from '../model/shown-indices.mjs';
import {
  pythonFloat,
  pythonPair,
  torchEqual,
  TRAIN_BUDGET,
  trainRows,
} from '../model/train-inputs.mjs';
import { scriptText, trainScript } from '../model/train-script.mjs';
import {
  batchLines,
  idsTextOf,
  linesError,
  shapeSentence,
  textShape,
} from '../model/train-text.mjs';

// Between two steps of Play: long enough to read which rows lit up.
const PLAY_INTERVAL_MS = 900;
// While the view's fields are typed in, a new training (a new W drawn) waits for this pause:
// the checks run on every keystroke, the drawing once.
const TYPING_PAUSE_MS = 200;
// The picture of W is about its rows: of more columns than this, the first WEIGHT_COLS - 1 and
// an ellipsis, which keeps the page's DOM small at V = 4096, d = 64.
const WEIGHT_COLS = 5;
const weightCols = (d) =>
  d <= WEIGHT_COLS
    ? Array.from({ length: d }, (_, j) => j)
    : [...Array.from({ length: WEIGHT_COLS - 1 }, (_, j) => j), null];

let views = 0; // ids unique in the page or shadow root

const MARKUP = (id) => `
  <form class="view-controls train-controls" novalidate autocomplete="off">
    <div class="view-field train-batches">
      <div class="train-batches-head">
        <span id="${id}-batches-title">batches</span>
        <div class="ids-from" role="radiogroup" aria-labelledby="${id}-batches-title">
          <input id="${id}-from-ids" type="radio" name="batches-from" value="ids">
          <label for="${id}-from-ids">ids</label>
          <input id="${id}-from-text" type="radio" name="batches-from" value="text">
          <label for="${id}-from-text">text</label>
        </div>
      </div>
      <div class="train-from" data-part="from-ids">
        <label for="${id}-batches" class="visually-hidden">batches as ids</label>
        <input id="${id}-batches" name="batches" type="text" class="wide" spellcheck="false"
               aria-describedby="${id}-batches-error">
        <p class="error" id="${id}-batches-error" role="alert" hidden></p>
      </div>
      <div class="train-from text-mode" data-part="from-text" hidden>
        <div class="train-text-head">
          <label for="${id}-batch-lines">one batch per line, tokenized by</label>
          <label for="${id}-batch-tokenizer" class="visually-hidden">tokenizer</label>
          <select id="${id}-batch-tokenizer" name="batch-tokenizer"
                  aria-describedby="${id}-batch-tokenizer-error"></select>
        </div>
        <p class="error" id="${id}-batch-tokenizer-error" role="alert" hidden></p>
        <textarea id="${id}-batch-lines" name="batch-lines" rows="3" spellcheck="false"
                  aria-describedby="${id}-batch-lines-error"></textarea>
        <p class="error" id="${id}-batch-lines-error" role="alert" hidden></p>
        <p class="route-note train-shape" data-part="shape" role="status"></p>
        <ol class="train-lines" data-part="lines" aria-label="Each batch's tokens"></ol>
      </div>
    </div>
    <div class="view-field">
      <label for="${id}-optimizer">optimizer</label>
      <select id="${id}-optimizer" name="optimizer" aria-describedby="${id}-optimizer-error"></select>
      <p class="error" id="${id}-optimizer-error" role="alert" hidden></p>
    </div>
    <div class="train-hyper" data-part="hyper"></div>
    <div class="view-field train-flag">
      <label class="py-name"><input type="checkbox" name="sparse"> sparse=True</label>
    </div>
    <div class="view-field">
      <label for="${id}-padding-idx" class="py-name">padding_idx</label>
      <input id="${id}-padding-idx" name="padding-idx" type="text" inputmode="numeric"
             placeholder="none" spellcheck="false" aria-describedby="${id}-padding-idx-error">
      <p class="error" id="${id}-padding-idx-error" role="alert" hidden></p>
    </div>
  </form>
  <p class="error" data-part="alert" role="alert" hidden></p>
  <div class="train-bar">
    <button type="button" class="train-button" data-action="step">Step</button>
    <button type="button" class="train-button" data-action="play" aria-pressed="false">Play</button>
    <button type="button" class="train-button" data-action="reset">Reset</button>
    <p class="train-status" data-part="status" aria-live="polite"></p>
  </div>
  <p class="route-note view-code" data-part="origin"></p>
  <h3 class="train-verdict-title" data-part="verdict-title"></h3>
  <div class="verdict" data-part="verdict" aria-live="polite"></div>
  <ul class="train-legend" data-part="legend" aria-label="Why a row changed"></ul>
  <div class="train-grid">
    <div class="matrix-item">
      <h3><code>embedding.weight</code>, lit where the step changed it</h3>
      <div class="table-box" data-box="weights"></div>
      <p class="route-note" data-part="more"></p>
    </div>
    <div class="matrix-item">
      <h3>Which rows each step changed</h3>
      <div class="table-box" data-box="timeline"></div>
    </div>
    <div class="matrix-item train-state">
      <h3 data-part="state-title">Optimizer state</h3>
      <div data-part="state"></div>
    </div>
  </div>
  <details class="printout-details train-printout">
    <summary>Show the PyTorch script of this training and what it prints</summary>
    <div class="printout" data-part="printout"></div>
  </details>`;

// A hyperparameter's input: a text field (a number, or betas as "0.9, 0.999") or a checkbox.
function hyperField(id, argument, value) {
  const name = TRAIN_FIELDS[argument.name];
  const field = element('div', `view-field${argument.form === 'flag' ? ' train-flag' : ''}`);
  const error = element('p', 'error');
  error.id = `${id}-${name}-error`;
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const input = element('input');
  input.name = name;
  input.setAttribute('aria-describedby', error.id);
  const label = element('label', 'py-name');
  if (argument.form === 'flag') {
    input.type = 'checkbox';
    input.checked = value;
    label.append(input, ` ${argument.name}`);
    field.append(label, error);
  } else {
    input.type = 'text';
    input.dataset.form = argument.form;
    input.id = `${id}-${name}`;
    input.spellcheck = false;
    input.value = value;
    label.htmlFor = input.id;
    label.append(argument.name);
    field.append(label, input, error);
  }
  return field;
}

// The batches typed as ids, each checked against V.
function batchesOf(lab, idsText, vocab) {
  const batches = lab.parseBatches(idsText);
  batches.forEach((batch, b) => {
    try {
      lab.checkIds(batch, vocab);
    } catch (error) {
      if (error instanceof EmbedlabError)
        throw new FieldError('ids', `batch ${b + 1}: ${error.message}`);
      throw error;
    }
  });
  return batches;
}

// The training the inputs describe, checked as far as is cheap: { seed, vocab, dim, batches,
// options, key (what makes one training differ from another, the batches aside) }, or a
// FieldError / EmbedlabError for the input at fault. text: null for batches typed as ids; for
// batches typed as text, { vocab, dim, lines: [{ text, ids, labels }] } (train-text.mjs's shape).
function plan(lab, { result, train }, info, text) {
  const { table } = result;
  const { vocab, dim } = text ?? result;
  if (table.source !== 'seed') {
    throw new FieldError(
      null,
      'Training draws its table as torch.manual_seed(seed); nn.Embedding(V, d): ' +
        'choose torch.manual_seed as the source of W to train.',
    );
  }
  if (vocab * dim > TRAIN_BUDGET) {
    throw new FieldError(
      'vocab',
      `V × d = ${count(vocab * dim)} is more than this page trains between two ` +
        `frames (at most ${count(TRAIN_BUDGET)}): each step copies and compares W several times. ` +
        'Make V or d smaller, or train it with the CLI, embedlab train.',
    );
  }
  let batches;
  try {
    batches = batchesOf(lab, text ? idsTextOf(text.lines) : train.batchesText, vocab);
  } catch (error) {
    // Batch k is line k: said under the text.
    if (text && (error instanceof FieldError || error instanceof EmbedlabError))
      throw new FieldError('lines', error.message);
    throw error;
  }
  const optimizer = { name: info.name };
  for (const argument of info.arguments) {
    const given = train.hyper[argument.name];
    if (given === undefined) continue;
    if (argument.form === 'flag') {
      optimizer[argument.name] = given;
      continue;
    }
    const value = argument.form === 'pair' ? pythonPair(given) : pythonFloat(given);
    if (value === null) {
      throw new FieldError(
        argument.name,
        argument.form === 'pair'
          ? `${argument.name} takes two numbers, e.g. ${argument.text}; got "${given.trim()}"`
          : `${argument.name} must be a number, e.g. ${argument.text}; got "${given.trim()}"`,
      );
    }
    optimizer[argument.name] = value;
  }
  const paddingIdx =
    train.paddingIdxText.trim() === ''
      ? null
      : wholeNumber(train.paddingIdxText, 'padding_idx', 'padding_idx');
  const options = { optimizer, sparse: train.sparse, paddingIdx };
  lab.checkTraining(vocab, dim, options);
  const seed = table.seed;
  return {
    seed,
    vocab,
    dim,
    batches,
    options,
    lines: text?.lines ?? null,
    tokenizerLabel: text?.label ?? null,
    key: JSON.stringify([seed, vocab, dim, options]),
  };
}

function createTrainView(container, { store, lab, embedded, tokenizers }) {
  adoptStyleSheet(container.getRootNode(), trainCss);
  const id = `train-${++views}`;
  const root = element('div', 'train-view');
  root.innerHTML = MARKUP(id);
  container.append(root);
  const form = root.querySelector('form');
  const parts = byData(root, 'part');
  const boxes = byData(root, 'box');
  const buttons = byData(root, 'action');
  const printout = root.querySelector('details');
  printout.open = embedded;
  // The tied head moves rows only in next-token training (the core's last cause), which this
  // view's side-by-side training does not run.
  drawLegend(
    parts.legend,
    lab.rowCauses.filter(({ name }) => name !== 'head'),
  );
  for (const o of lab.optimizers) form.elements.optimizer.append(new Option(o.className, o.name));
  for (const [name, { label }] of Object.entries(tokenizers.catalog)) {
    form.elements['batch-tokenizer'].append(new Option(label, name));
  }
  const channel = tokenizers.openChannel();

  let shownOptimizer = null; // the optimizer whose hyperparameter fields are drawn
  let run = null; // { key, training, history: TrainingStep[], failed } or null
  let picked = null; // the row whose optimizer state is shown
  let playing = 0; // Play's timer, or 0
  let lastPlan = null;
  let tokenized = null; // { key, lines: [{ text, ids, labels }] | null, error: FieldError | null }
  // Training (even drawing W for step 0) waits until the view is near the screen: the page's
  // sections catch up when typing pauses, and a table of V·d = TRAIN_BUDGET takes a long task
  // to draw. Whether it is near is measured when it updates; coming near, it updates.
  const NEAR_PX = 200;
  const near = () => {
    const box = container.getBoundingClientRect();
    return box.bottom >= -NEAR_PX && box.top <= innerHeight + NEAR_PX;
  };
  let waiting = false;
  new IntersectionObserver(
    (entries) => {
      if (entries[entries.length - 1].isIntersecting && waiting) {
        waiting = false;
        update(store.get());
      }
    },
    { rootMargin: `${NEAR_PX}px` },
  ).observe(container);

  const infoOf = (train) =>
    lab.optimizers.find((o) => o.name === train.optimizer) ?? lab.optimizers[0];

  // The store's train inputs, shown in the fields (a link's, or after Reset); the field being
  // typed in is left alone when it already says the same.
  function showInputs(train) {
    const info = infoOf(train);
    const fromText = train.batchesFrom === 'text';
    form.elements['batches-from'].value = fromText ? 'text' : 'ids';
    parts['from-ids'].hidden = fromText;
    parts['from-text'].hidden = !fromText;
    writeProperty(form.elements.batches, 'value', train.batchesText);
    writeProperty(form.elements['batch-lines'], 'value', train.linesText);
    writeProperty(
      form.elements['batch-tokenizer'],
      'value',
      train.tokenizer ?? tokenizers.defaultName,
    );
    writeProperty(form.elements.optimizer, 'value', info.name);
    writeProperty(form.elements['padding-idx'], 'value', train.paddingIdxText);
    form.elements.sparse.checked = train.sparse;
    if (shownOptimizer !== info.name) {
      shownOptimizer = info.name;
      parts.hyper.replaceChildren(
        ...info.arguments.map((a) =>
          hyperField(id, a, train.hyper[a.name] ?? (a.form === 'flag' ? a.default : a.text)),
        ),
      );
      return;
    }
    for (const a of info.arguments) {
      const input = form.elements[TRAIN_FIELDS[a.name]];
      if (a.form === 'flag') input.checked = train.hyper[a.name] ?? a.default;
      else writeProperty(input, 'value', train.hyper[a.name] ?? a.text);
    }
  }

  // What the fields say, as the store's train: steps back to 0, hyperparameters as typed (all of
  // them again PyTorch's defaults when the optimizer changes).
  function readInputs(optimizerChanged) {
    const info = lab.optimizers.find((o) => o.name === form.elements.optimizer.value);
    const hyper = {};
    if (!optimizerChanged) {
      for (const a of info.arguments) {
        const input = form.elements[TRAIN_FIELDS[a.name]];
        const value = a.form === 'flag' ? input.checked : input.value;
        if (value !== (a.form === 'flag' ? a.default : a.text)) hyper[a.name] = value;
      }
    }
    return {
      batchesFrom: form.elements['batches-from'].value,
      batchesText: form.elements.batches.value,
      linesText: form.elements['batch-lines'].value,
      tokenizer: form.elements['batch-tokenizer'].value || null,
      optimizer: info.name,
      hyper,
      sparse: form.elements.sparse.checked,
      paddingIdxText: form.elements['padding-idx'].value,
      steps: 0,
    };
  }

  form.addEventListener('submit', (event) => event.preventDefault());
  let typed = false; // the store's train comes from a keystroke in the view's fields
  let pending = 0; // the timer of the training that waits for typing to pause
  form.addEventListener('input', (event) => {
    stop();
    typed = true;
    store.set({ train: readInputs(event.target.name === 'optimizer') });
    typed = false;
  });

  // An error beside the input it is about; one no input of the view stands for (V, d, the seed,
  // the source of W) in the view's alert.
  function showError(error) {
    const field =
      error === null ? null : error instanceof FieldError ? error.field : error.argument;
    const input =
      field === null ? null : form.elements[TRAIN_FIELDS[field] ?? TRAIN_TEXT_FIELDS[field]];
    for (const box of root.querySelectorAll('.train-controls .error')) {
      const mine = input && box.id === input.getAttribute('aria-describedby');
      writeProperty(box, 'textContent', mine ? error.message : '');
      box.hidden = !mine;
    }
    for (const control of form.elements) {
      if (control === input) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
    }
    const general = error !== null && !input ? error.message : '';
    writeProperty(parts.alert, 'textContent', general);
    parts.alert.hidden = general === '';
    root.classList.toggle('stale', error !== null);
  }

  function stop() {
    clearTimeout(playing);
    playing = 0;
    buttons.play.textContent = 'Play';
    buttons.play.setAttribute('aria-pressed', 'false');
  }

  const setSteps = (steps) => store.set({ train: { ...store.get().train, steps } });

  function tick() {
    const { train } = store.get();
    if (!lastPlan || train.steps >= lastPlan.batches.length || run?.failed) {
      stop();
      return;
    }
    setSteps(train.steps + 1);
    playing = setTimeout(tick, PLAY_INTERVAL_MS);
  }

  buttons.step.addEventListener('click', () => {
    stop();
    setSteps(store.get().train.steps + 1);
  });
  buttons.reset.addEventListener('click', () => {
    stop();
    setSteps(0);
  });
  buttons.play.addEventListener('click', () => {
    if (playing) {
      stop();
      return;
    }
    buttons.play.textContent = 'Pause';
    buttons.play.setAttribute('aria-pressed', 'true');
    if (lastPlan && store.get().train.steps >= lastPlan.batches.length) setSteps(0);
    playing = setTimeout(tick, 0);
  });

  // A row picked in the picture: its state is shown, and where a token has its id, that token
  // becomes the page's step (the page's linking, as a click on any row of W).
  root.addEventListener('click', (event) => {
    const button = event.target.closest?.('.row-pick');
    if (!button) return;
    picked = Number(button.dataset.row);
    const k = store.get().result?.ids.indexOf(picked) ?? -1;
    if (k >= 0 && k !== store.get().step) store.set({ step: k });
    else draw(false);
  });
  printout.addEventListener('toggle', () => draw(false));

  function discard() {
    run?.training.delete();
    run = null;
  }

  // Makes the training follow the store: a new one for new inputs, then the steps asked for
  // (from the start again when fewer than taken). Returns whether a step was taken.
  function follow(p, steps) {
    const sameBatches = run?.history.every((s, k) => String(s.batch) === String(p.batches[k]));
    if (run?.key !== p.key || steps < run.history.length || !sameBatches) {
      discard();
      run = {
        key: p.key,
        training: lab.seededTraining(p.seed, p.vocab, p.dim, p.options),
        history: [],
        failed: null,
      };
    }
    const wanted = Math.min(steps, p.batches.length);
    let stepped = false;
    while (!run.failed && run.history.length < wanted) {
      try {
        const s = run.training.step(p.batches[run.history.length]);
        s.torchEqual = s.linearWeight !== null && torchEqual(s.embeddingWeight, s.linearWeight);
        run.history.push(s);
        stepped = true;
      } catch (error) {
        if (!(error instanceof EmbedlabError)) throw error;
        run.failed = error;
      }
    }
    return stepped;
  }

  // Each line of text tokenized, one request after another on the view's channel (whose newest
  // request wins): into `tokenized`, then the view updates.
  async function tokenizeLines(key, name, linesText) {
    const lines = batchLines(linesText);
    const wrong = linesError(lines);
    tokenized = { key, lines: null, error: wrong === null ? null : new FieldError('lines', wrong) };
    if (wrong !== null) return;
    const done = [];
    for (const [k, line] of lines.entries()) {
      const answer = await channel.tokenize(name, line, lab, (progress) => {
        if (tokenized.key === key) parts.shape.textContent = tokenizers.progressMessage(progress);
      });
      if (!answer || tokenized.key !== key) return; // other lines came meanwhile
      if (answer.error) {
        tokenized.error = answer.textError
          ? new FieldError('lines', `Line ${k + 1}: ${answer.error}`)
          : new FieldError('tokenizer', answer.error);
        update(store.get());
        return;
      }
      done.push({ text: line, ids: answer.ids, labels: answer.labels });
    }
    tokenized.lines = done;
    update(store.get());
  }

  // Batches typed as text: null when typed as ids; else { label, vocab, dim, lines } (the
  // tokenizer's, V and d as train-text.mjs makes them, the lines tokenized), undefined while the
  // tokenizer works, or a FieldError thrown.
  function textBatches({ train, result }) {
    if (train.batchesFrom !== 'text') return null;
    const name = train.tokenizer ?? tokenizers.defaultName;
    const spec = tokenizers.catalog[name];
    if (!spec) {
      throw new FieldError(
        'tokenizer',
        `There is no tokenizer "${name}": pick one of ` +
          `${Object.values(tokenizers.catalog)
            .map((t) => t.label)
            .join(', ')}.`,
      );
    }
    const shape = textShape(spec, result.dim);
    if (shape.dim === 0) throw new FieldError('tokenizer', shapeSentence(spec, result.dim));
    const key = JSON.stringify([name, train.linesText]);
    if (tokenized?.key !== key) tokenizeLines(key, name, train.linesText);
    if (tokenized.error) throw tokenized.error;
    if (!tokenized.lines) return undefined;
    parts.shape.textContent = shapeSentence(spec, result.dim);
    return { label: spec.label, ...shape, lines: tokenized.lines };
  }

  // Each batch's tokens, as text and id.
  function drawLines(lines) {
    parts.lines.replaceChildren(
      ...lines.map((line, b) => {
        const item = element('li', 'train-line');
        item.append(element('span', 'train-line-name', `batch ${b + 1}`));
        line.ids.forEach((id, i) => {
          const token = element('span', 'train-token');
          token.append(
            element('span', 'train-token-text', line.labels[i]),
            element('span', 'train-token-id', String(id)),
          );
          item.append(token);
        });
        return item;
      }),
    );
  }

  function update(state) {
    if (!state.result) return;
    clearTimeout(pending);
    pending = 0;
    showInputs(state.train);
    let p;
    try {
      const text = textBatches(state);
      if (text === undefined) {
        // the view updates again once the lines are tokenized
        stop();
        lastPlan = null;
        showError(null);
        root.classList.add('stale');
        drawButtons(null, state.train);
        return;
      }
      if (text) drawLines(text.lines);
      p = plan(lab, state, infoOf(state.train), text);
    } catch (error) {
      if (!(error instanceof FieldError || error instanceof EmbedlabError)) throw error;
      stop();
      discard();
      lastPlan = null;
      if (error.field === 'lines' || error.field === 'tokenizer') {
        parts.shape.textContent = '';
        drawLines([]);
      }
      showError(error);
      drawButtons(null, state.train);
      return;
    }
    lastPlan = p;
    if (!near()) {
      showError(null);
      waiting = true;
      return;
    }
    if (typed) {
      showError(null);
      root.classList.add('stale');
      pending = setTimeout(() => update(store.get()), TYPING_PAUSE_MS);
      return;
    }
    const stepped = follow(p, state.train.steps);
    showError(run.failed);
    if (run.failed) stop();
    if (picked === null || picked >= p.vocab)
      picked =
        state.result.ids[state.step] < p.vocab ? state.result.ids[state.step] : p.batches[0][0];
    draw(stepped);
  }

  function drawButtons(p, train) {
    const total = p?.batches.length ?? 0;
    const taken = run?.history.length ?? 0;
    buttons.step.disabled = !p || taken >= total || Boolean(run?.failed);
    buttons.play.disabled = !p || total === 0;
    buttons.reset.disabled = train.steps === 0;
    parts.status.textContent = !p
      ? ''
      : taken === 0
        ? `${plural(total, 'batch', 'batches')} to train: Step takes the first.`
        : `Step ${taken} of ${total}: batch [${Array.from(p.batches[taken - 1]).join(', ')}]` +
          `${p.lines ? `, ${JSON.stringify(p.lines[taken - 1].text)}` : ''}.`;
  }

  // Redraws from the training as it stands; lit: a step was just taken, so its rows light up.
  function draw(lit) {
    const p = lastPlan;
    drawButtons(p, store.get().train);
    if (!p || run?.key !== p.key || pending) return;
    const { training, history } = run;
    const last = history.at(-1) ?? null;
    const weight = last ? last.embeddingWeight : training.weight;
    const padding = training.paddingRow;
    parts.origin.replaceChildren(
      element(
        'code',
        '',
        `torch.manual_seed(${p.seed}); embedding = nn.Embedding(${p.vocab}, ${p.dim}` +
          `${p.options.paddingIdx === null ? '' : `, padding_idx=${p.options.paddingIdx}`}` +
          `${p.options.sparse ? ', sparse=True' : ''})`,
      ),
      p.lines
        ? `: V is ${p.tokenizerLabel}'s vocabulary, d as said under the batches, the seed the page's. `
        : ": V, d and the seed are the page's. ",
      'Step k draws G = torch.randn(len(batch k), d) after the table, as ',
      element('code', 'nowrap', 'embedlab train'),
      ' does.',
    );

    parts['verdict-title'].replaceChildren(
      `The Linear route ${last ? `after step ${last.step}` : 'before training'}: `,
      element('code', '', 'embedding.weight'),
      ' against ',
      element('code', '', 'linear.weight.T'),
    );
    if (!last) {
      showPending(
        parts.verdict,
        'step 0',
        'Both routes start from the same W. Step trains the first batch ' +
          'and compares embedding.weight with linear.weight.T, bit by bit.',
      );
    } else if (!last.verdict) {
      showPending(
        parts.verdict,
        'no Linear route',
        `linear.weight cannot be trained with this optimizer: ${training.linearRefusal}`,
      );
    } else {
      showVerdict(parts.verdict, last.verdict, lab.verdictDefinitions);
    }

    // Every row a batch names stays in view, with the padding row and the picked one.
    const named = p.batches.flatMap((b) => Array.from(b));
    const keep = [...named, picked, ...(padding === null ? [] : [padding])];
    const rows = trainRows(p.vocab, ROW_CAP, keep);
    // A row's button redrawn keeps the keyboard's focus.
    const focused = container.getRootNode().activeElement?.closest?.('.row-pick')?.dataset.row;
    drawWeights(boxes.weights, {
      lab,
      weight,
      rows,
      cols: weightCols(p.dim),
      changed: last?.changed ?? null,
      causes: lab.rowCauses,
      picked,
      padding,
      caption: last
        ? `embedding.weight after step ${last.step}`
        : 'embedding.weight before training',
      lit,
    });
    const hidden = last
      ? last.changed.rows.length -
        rows.filter((r) => r !== null && causeOf(last.changed, r) !== undefined).length
      : 0;
    parts.more.textContent =
      hidden > 0
        ? `${plural(hidden, 'more row', 'more rows')} changed in step ${last.step}, ` +
          'out of view: weight decay and optimizer state reach every row.'
        : '';
    parts.more.hidden = hidden === 0;
    if (focused !== undefined)
      boxes.weights.querySelector(`.row-pick[data-row="${focused}"]`)?.focus();
    drawTimeline(boxes.timeline, {
      rows,
      batches: p.batches,
      history: history.map((s) => s.changed),
      causes: lab.rowCauses,
      picked,
    });
    drawState(training, padding);
    if (printout.open) drawPrintout(p, training, history);
  }

  function drawState(training, padding) {
    const { step, state } = training.rowState(picked);
    parts['state-title'].replaceChildren(
      element('code', '', `optimizer.state`),
      ` of row ${picked}`,
      padding === picked ? ' (padding_idx)' : '',
    );
    const list = element('dl', 'train-state-list');
    const entry = (term, value) => list.append(element('dt', '', term), element('dd', '', value));
    entry('step', String(step));
    for (const { name, values } of state) {
      if (values.rows === 0) entry(`${name}[${picked}]`, 'no entry for this row yet');
      for (let r = 0; r < values.rows; ++r) {
        entry(
          values.rows > 1 ? `${name}[${picked}], entry ${r + 1}` : `${name}[${picked}]`,
          vectorText(lab, values.data, r * values.cols, values.cols),
        );
      }
    }
    const info = infoOf(store.get().train);
    const note = element(
      'p',
      'route-note',
      state.length === 0
        ? `torch.optim.${info.className} has made no state for this row: ${step === 0 ? 'it makes it at the first step' : 'it keeps none with these options'}.`
        : 'Pick another row of W to see its state.',
    );
    parts.state.replaceChildren(list, note);
  }

  function drawPrintout(p, training, history) {
    const script = trainScript(
      lab,
      {
        seed: p.seed,
        vocab: p.vocab,
        dim: p.dim,
        paddingIdx: p.options.paddingIdx,
        sparse: p.options.sparse,
        optimizer: p.options.optimizer,
        weight: training.weight,
        linearRefusal: training.linearRefusal,
        lines: p.lines?.map((line) => line.text) ?? null,
      },
      history,
    );
    const copy = element('button', 'copy-script', 'Copy the script');
    copy.type = 'button';
    const figures = element('div', 'printout-steps');
    figures.append(
      ...script.map(({ code, printed }) => {
        const figure = element('figure');
        figure.append(element('pre', 'printout-in', code.join('\n')));
        if (printed !== undefined) figure.append(element('pre', 'printout-out', printed));
        return figure;
      }),
    );
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(scriptText(script));
        copy.textContent = 'Copied';
      } catch {
        getSelection().selectAllChildren(figures);
        copy.textContent = 'Selected: press Ctrl+C';
      }
    });
    const bar = element('div', 'printout-bar');
    bar.append(
      copy,
      element(
        'p',
        'route-note',
        `The steps taken so far (${history.length}): each prints the text under it in PyTorch.`,
      ),
    );
    parts.printout.replaceChildren(bar, figures);
  }

  return {
    update(state, changed) {
      if (changed.has('step') && state.result && state.step < state.result.ids.length) {
        picked = state.result.ids[state.step];
      }
      if (changed.has('result') || changed.has('train')) {
        update(state);
      } else if (changed.has('step') && lastPlan) {
        draw(false);
      }
    },
  };
}

export const trainView = {
  title: 'Training: which rows an optimizer step changes',
  build: (container, context) => createTrainView(container, context),
};
