// <embedding-demo> on host pages of its own: the notebook's numbers, live attributes batched per
// frame, elements that do not interfere, errors shown inside the element as text, one shared
// WebAssembly instance, no request off the page's server, theming, size, keyboard and the JS API.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sitePerSuite } from './harness.mjs';
import { cellsOnly, demoCells, demoText, openHost, settle } from './demo.mjs';
import { entriesOf, notebook, printedAfter } from '../notebooks.mjs';
import { npyFloat32 } from './npy-bytes.mjs';
import { runTorch } from './torch-reference.mjs';

const TESTS_DIR = fileURLToPath(new URL('..', import.meta.url));

const nb = notebook('002');
const NOTEBOOK_W = entriesOf(printedAfter(nb, 'In [5]:')); // embedding.weight, 4 x 5
const NOTEBOOK_LOOKUP = entriesOf(printedAfter(nb, 'In [8]:')); // embedding(idx), idx = [2, 3, 1]
const NOTEBOOK_PRODUCT = entriesOf(printedAfter(nb, 'In [18]:')); // linear(onehot.float())
// The TensorFlow notebook's table: every entry of row i is 0.11 * i, printed to 4 decimals.
const tfRow = (i, d) => Array(d).fill((0.11 * i).toFixed(4));

function renderCounter(page) {
  return page.evaluate(() => {
    window.renders = {};
    for (const demo of document.querySelectorAll('embedding-demo')) {
      window.renders[demo.id] = 0;
      demo.addEventListener('render', () => {
        window.renders[demo.id] += 1;
      });
    }
  });
}

describe('<embedding-demo>', () => {
  const env = sitePerSuite();
  afterEach(() => env.assertClean());

  test('without attributes it shows the notebook: seed 123, idx = [2, 3, 1], d = 5', async () => {
    const { page } = env;
    await openHost(env, 'defaults', '<embedding-demo id="a"></embedding-demo>');
    assert.deepEqual(cellsOnly(await demoCells(page, '#a', 'lookup')), NOTEBOOK_LOOKUP);
    assert.deepEqual(cellsOnly(await demoCells(page, '#a', 'product')), NOTEBOOK_PRODUCT);
    assert.equal(await demoText(page, '#a', '.verdict-word'), 'bit-identical');
    assert.equal(
      await demoText(page, '#a', '.demo-title'),
      'Lookup and one-hot product: idx = [2, 3, 1], V = 4, d = 5, W from torch.manual_seed(123)',
    );
  });

  // The text an author writes inside the element, as the reference page's snippet does.
  const FALLBACK =
    'This embedlab demo appears once its script, /embedlab/element.mjs, has loaded. ' +
    'If this text stays, the script could not be loaded from that path.';
  // The size the fallback text takes on the page (0 × 0 once a shadow root hides it).
  const fallbackBox = (page) =>
    page.$eval('#a', (demo) => {
      const range = document.createRange();
      range.selectNodeContents(demo);
      const { width, height } = range.getBoundingClientRect();
      return { width, height, upgraded: demo.shadowRoot !== null };
    });

  test('the text inside the element shows where its script cannot load, and only there', async () => {
    const { page } = env;
    const body = `<embedding-demo id="a">${FALLBACK}</embedding-demo>`;
    await openHost(env, 'fallback-loaded', body);
    assert.deepEqual(await fallbackBox(page), { width: 0, height: 0, upgraded: true });

    // A page in a sub-folder whose relative script path misses the embedlab/ folder.
    const url = `${env.url}guide/fallback.html`;
    await page.route(url, (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>guide</title>
        <script type="module" src="embedlab/element.mjs"></script></head><body>${body}</body></html>`,
      }),
    );
    const missing = page.waitForResponse((response) =>
      response.url().endsWith('/guide/embedlab/element.mjs'),
    );
    await page.goto(url);
    assert.equal((await missing).status(), 404);
    await page.waitForLoadState('load');
    const shown = await fallbackBox(page);
    assert.equal(shown.upgraded, false);
    assert.ok(shown.width > 0 && shown.height > 0, JSON.stringify(shown));
    assert.equal((await page.textContent('#a')).trim(), FALLBACK);
    // The browser reports the missing script: expected here.
    env.problems.splice(0, env.problems.length, ...env.problems.filter((p) => !p.includes('404')));
  });

  test("changing one element's attribute leaves the others as they were", async () => {
    const { page } = env;
    await openHost(
      env,
      'three',
      `
      <embedding-demo id="a" view="lookup"></embedding-demo>
      <embedding-demo id="b" view="lookup" ids="1" vocab="4"></embedding-demo>
      <embedding-demo id="c" weights="tf"></embedding-demo>`,
    );
    const before = {
      b: await demoCells(page, '#b', 'lookup'),
      c: await demoCells(page, '#c', 'product'),
    };
    assert.deepEqual(cellsOnly(before.b), [NOTEBOOK_W[1]]);
    await renderCounter(page);
    await page.evaluate(() => {
      document.getElementById('a').setAttribute('ids', '3, 0');
    });
    await settle(page);
    assert.deepEqual(cellsOnly(await demoCells(page, '#a', 'lookup')), [
      NOTEBOOK_W[3],
      NOTEBOOK_W[0],
    ]);
    assert.deepEqual(await demoCells(page, '#b', 'lookup'), before.b);
    assert.deepEqual(await demoCells(page, '#c', 'product'), before.c);
    assert.deepEqual(await page.evaluate(() => window.renders), { a: 1, b: 0, c: 0 });
  });

  test('attributes changed in one task are drawn once, together, at the next frame', async () => {
    const { page } = env;
    await openHost(env, 'batch', '<embedding-demo id="a"></embedding-demo>');
    await renderCounter(page);
    const sameTask = await page.evaluate(() => {
      const demo = document.getElementById('a');
      const title = () => demo.shadowRoot.querySelector('.demo-title').textContent;
      const was = title();
      demo.setAttribute('weights', 'tf');
      demo.setAttribute('dim', '2');
      demo.setAttribute('ids', '[3, 1]');
      demo.setAttribute('view', 'lookup');
      return title() === was; // nothing is drawn synchronously
    });
    assert.ok(sameTask);
    await settle(page);
    assert.deepEqual(await page.evaluate(() => window.renders), { a: 1 });
    assert.deepEqual(cellsOnly(await demoCells(page, '#a', 'lookup')), [tfRow(3, 2), tfRow(1, 2)]);
    assert.deepEqual(
      cellsOnly(await demoCells(page, '#a', 'weight')),
      [0, 1, 2, 3].map((i) => tfRow(i, 2)),
    );
    assert.equal(
      await demoText(page, '#a', '[data-box="product"]'),
      '',
      'the lookup view has no product',
    );
  });

  test('bad attributes show their message inside the element, as text, and the page goes on', async () => {
    const { page } = env;
    await openHost(
      env,
      'errors',
      `
      <embedding-demo id="bad" ids="2, x, 1"></embedding-demo>
      <embedding-demo id="view" view="matrix"></embedding-demo>
      <embedding-demo id="html"></embedding-demo>
      <embedding-demo id="good"></embedding-demo>
      <p id="after">The host page goes on.</p>`,
    );
    const alert = (id) =>
      page.evaluate((id) => {
        const box = document.getElementById(id).shadowRoot.querySelector('[role="alert"]');
        return box.hidden ? null : box.textContent;
      }, id);
    assert.equal(
      await alert('bad'),
      'token 2 is "x", which is not an integer: write token ids in plain digits, e.g. 2, 3, 1',
    );
    assert.equal(
      await alert('view'),
      'view="matrix" is not one of: equation, compare, routes, lookup, onehot, matrices, step, printout, backward, train, bag, positions, head, benchmark (did you mean matrices?)',
    );
    assert.equal(
      await page.evaluate(() => document.getElementById('bad').error),
      'token 2 is "x", which is not an integer: write token ids in plain digits, e.g. 2, 3, 1',
    );
    assert.deepEqual(cellsOnly(await demoCells(page, '#good', 'lookup')), NOTEBOOK_LOOKUP);
    assert.equal(await alert('good'), null);

    // Markup in an attribute is shown as text, never parsed.
    const markup = '<img src=x onerror="window.injected=1">';
    await page.evaluate(
      (markup) => document.getElementById('html').setAttribute('ids', markup),
      markup,
    );
    await settle(page);
    assert.ok((await alert('html')).includes('"<img"'), await alert('html'));
    assert.equal(
      await page.evaluate(() => document.getElementById('html').shadowRoot.querySelector('img')),
      null,
    );
    assert.equal(await page.evaluate(() => window.injected), undefined);

    // The last good result stays, dimmed, until the attribute is fixed.
    await page.evaluate(() => document.getElementById('good').setAttribute('ids', '2, -1'));
    await settle(page);
    assert.equal(
      await alert('good'),
      'token 2 is "-1": token ids must be >= 0 (each id picks a row of W, counting from 0)',
    );
    assert.deepEqual(cellsOnly(await demoCells(page, '#good', 'lookup')), NOTEBOOK_LOOKUP);
    assert.ok(
      await page.evaluate(() =>
        document
          .getElementById('good')
          .shadowRoot.querySelector('.demo-view')
          .classList.contains('stale'),
      ),
    );
    assert.equal(await demoText(page, '#good', '.verdict-word'), 'no result');
    await page.evaluate(() => document.getElementById('good').setAttribute('ids', '3, 1'));
    await settle(page);
    assert.equal(await alert('good'), null);
    assert.deepEqual(cellsOnly(await demoCells(page, '#good', 'lookup')), [
      NOTEBOOK_W[3],
      NOTEBOOK_W[1],
    ]);
    assert.equal(await page.textContent('#after'), 'The host page goes on.');
  });

  test('an attribute meant as one of its own, or a bad padding_idx, is an error in the element', async () => {
    const { page } = env;
    await openHost(
      env,
      'strict',
      `
      <embedding-demo id="kebab" view="backward" padding-idx="1"></embedding-demo>
      <embedding-demo id="word" padding_idx="x"></embedding-demo>
      <embedding-demo id="far" padding_idx="-5"></embedding-demo>
      <embedding-demo id="near" padding_idx="-4"></embedding-demo>
      <embedding-demo id="long" vocabulary="10"></embedding-demo>
      <embedding-demo id="html" class="wide" dir="ltr" title="t" data-x="1" aria-label="demo"
        tabindex="0" style="display: block" height="300"></embedding-demo>`,
    );
    const alert = (id) =>
      page.evaluate((id) => {
        const box = document.getElementById(id).shadowRoot.querySelector('[role="alert"]');
        return box.hidden ? null : box.textContent;
      }, id);
    const ATTRIBUTES =
      'ids, vocab, dim, seed, weights, src, table, routes, view, step, label, controls, text, ' +
      'tokenizer, padding_idx, tokens';
    assert.equal(
      await alert('kebab'),
      `padding-idx is not an attribute of <embedding-demo>: did you mean padding_idx? Its attributes are ${ATTRIBUTES}`,
    );
    assert.match(
      await alert('long'),
      /^vocabulary is not an attribute of <embedding-demo>: did you mean vocab\? /,
    );
    assert.equal(await alert('word'), 'padding_idx must be a whole number, got "x"');
    // idx = [2, 3, 1]: V = 4, so padding_idx lies in [-4, 3] (the core's words, in any view).
    assert.equal(
      await alert('far'),
      'padding_idx = -5 is outside the vocabulary: it must lie in [-4, 3] for V = 4',
    );
    assert.equal(await alert('near'), null);
    assert.deepEqual(cellsOnly(await demoCells(page, '#near', 'lookup')), NOTEBOOK_LOOKUP);
    assert.equal(
      await alert('html'),
      null,
      "HTML's own attributes are not the element's to refuse",
    );

    // Set later, an attribute the element does not observe is still seen; fixed, it clears.
    await page.evaluate(() => document.getElementById('near').setAttribute('seeds', '5'));
    await settle(page);
    assert.match(
      await alert('near'),
      /^seeds is not an attribute of <embedding-demo>: did you mean seed\? /,
    );
    // The attribute `wrong` of element `id` written as `right`.
    const respell = async (id, wrong, right) => {
      await page.evaluate(
        ([id, wrong, right]) => {
          const demo = document.getElementById(id);
          demo.setAttribute(right, demo.getAttribute(wrong));
          demo.removeAttribute(wrong);
        },
        [id, wrong, right],
      );
      await settle(page);
      assert.equal(await alert(id), null);
    };
    await respell('near', 'seeds', 'seed');
    await respell('kebab', 'padding-idx', 'padding_idx');
    assert.match(
      await demoText(page, '#kebab', '.view-notes'),
      /padding_idx = 1: row 1 of the scatter-add gets no gradient/,
    );
  });

  test('every element on the page shares one WebAssembly instance, fetched once', async () => {
    const { page } = env;
    const fetched = [];
    const record = (request) => fetched.push(new URL(request.url()).pathname);
    page.on('request', record);
    await openHost(
      env,
      'shared',
      ['compare', 'lookup', 'onehot', 'step', 'printout', 'lookup']
        .map((view, i) => `<embedding-demo id="d${i}" view="${view}" seed="${i}"></embedding-demo>`)
        .join(''),
    );
    page.off('request', record);
    const count = (name) => fetched.filter((p) => p.endsWith(name)).length;
    assert.equal(count('/embedlab-core.wasm'), 1);
    assert.equal(count('/embedlab-core.deferred.wasm'), 1);
    assert.equal(count('/embedlab.mjs'), 1);
    // Its style sheets travel inside its module: no path a host's bundler would have to know.
    assert.deepEqual(
      fetched.filter((p) => p.endsWith('.css')),
      [],
    );
    const errors = await page.$$eval('embedding-demo', (all) => all.map((d) => d.error));
    assert.deepEqual(errors, Array(6).fill(null));
  });

  test("no request leaves the page's own server", async () => {
    const { page } = env;
    const elsewhere = [];
    const record = (request) => {
      const url = request.url();
      if (!url.startsWith(env.url) && !url.startsWith('data:')) elsewhere.push(url);
    };
    page.on('request', record);
    await openHost(
      env,
      'offline',
      ['compare', 'step', 'printout', 'benchmark']
        .map((view) => `<embedding-demo view="${view}"></embedding-demo>`)
        .join(''),
    );
    page.off('request', record);
    assert.deepEqual(elsewhere, []);
  });

  test("a host page whose Content-Security-Policy forbids eval: 'wasm-unsafe-eval' is all it needs", async () => {
    const { page } = env;
    await openHost(
      env,
      'no-eval',
      ['compare', 'step', 'printout']
        .map((view) => `<embedding-demo id="${view}" view="${view}"></embedding-demo>`)
        .join(''),
      `<meta http-equiv="Content-Security-Policy" content="script-src 'self' 'wasm-unsafe-eval'">`,
    );
    assert.deepEqual(cellsOnly(await demoCells(page, '#compare', 'lookup')), NOTEBOOK_LOOKUP);
    assert.equal(await demoText(page, '#compare', '.verdict-word'), 'bit-identical');
    assert.equal(await demoText(page, '#step', '[role="alert"]'), '');
  });

  test('weights from a .npy file at src, and a src that cannot be loaded', async () => {
    const { page } = env;
    // W[i][j] = i + j / 4 (exact in float32), 3 x 2.
    const values = [0, 0.25, 1, 1.25, 2, 2.25];
    await page.route(`${env.url}w.npy`, (route) =>
      route.fulfill({
        contentType: 'application/octet-stream',
        body: npyFloat32(3, 2, values),
      }),
    );
    await openHost(
      env,
      'npy',
      `
      <embedding-demo id="file" src="w.npy" ids="2, 0" view="lookup"></embedding-demo>
      <embedding-demo id="missing" src="missing.npy"></embedding-demo>`,
    );
    assert.deepEqual(cellsOnly(await demoCells(page, '#file', 'lookup')), [
      ['2.0000', '2.2500'],
      ['0.0000', '0.2500'],
    ]);
    assert.ok(
      (await demoText(page, '#file', '.demo-title')).endsWith('V = 3, d = 2, W from w.npy'),
    );
    assert.equal(
      await page.evaluate(() => document.getElementById('missing').error),
      'src="missing.npy" could not be loaded: HTTP 404',
    );
    // Chromium logs the 404 itself: the only console message, expected here.
    assert.equal(env.problems.length, 1);
    assert.match(env.problems[0], /Failed to load resource.*404/);
    env.problems.length = 0;
  });

  test('the views: lookup, one-hot, printout, backward and bag', async () => {
    const { page } = env;
    await openHost(
      env,
      'views',
      `
      <embedding-demo id="lookup" view="lookup"></embedding-demo>
      <embedding-demo id="onehot" view="onehot"></embedding-demo>
      <embedding-demo id="printout" view="printout"></embedding-demo>
      <embedding-demo id="backward" view="backward"></embedding-demo>
      <embedding-demo id="bag" view="bag"></embedding-demo>`,
    );
    assert.deepEqual(cellsOnly(await demoCells(page, '#lookup', 'weight')), NOTEBOOK_W);
    assert.deepEqual(cellsOnly(await demoCells(page, '#lookup', 'lookup')), NOTEBOOK_LOOKUP);
    assert.deepEqual(
      cellsOnly(await demoCells(page, '#onehot', 'onehot')),
      entriesOf(printedAfter(nb, 'In [12]:')),
    );
    assert.deepEqual(cellsOnly(await demoCells(page, '#onehot', 'product')), NOTEBOOK_PRODUCT);
    assert.equal(await demoText(page, '#onehot', '.verdict-word'), 'bit-identical');
    const printed = await page.evaluate(() =>
      [...document.querySelector('#printout').shadowRoot.querySelectorAll('.printout-out')].map(
        (p) => p.textContent,
      ),
    );
    assert.equal(printed[0], printedAfter(nb, 'In [5]:'));
    // Their numbers are checked against PyTorch in backward.test.mjs and bag.test.mjs.
    assert.equal((await demoCells(page, '#backward', 'grad')).length, 4);
    assert.equal((await demoCells(page, '#bag', 'output')).length, 2);
    for (const id of ['backward', 'bag']) {
      assert.equal(await demoText(page, `#${id}`, '.verdict-word'), 'bit-identical');
      assert.equal(await page.evaluate((id) => document.getElementById(id).error, id), null);
    }
  });

  test("the printout of a table given in table= starts from the notebook's W, not a seed", async () => {
    const { page } = env;
    // The notebook's embedding.weight (seed 123, 4 x 5) as embedlab.show() sends it.
    const { table } = runTorch(
      `
import base64, json, sys, torch
a = json.load(sys.stdin)
sys.path.insert(0, a['tests'])
from safetensors_file import safetensors_bytes
torch.manual_seed(123)
w = torch.nn.Embedding(4, 5).weight.detach()
data = safetensors_bytes([('nn.Embedding(4, 5).weight', 'F32', w.numpy())])
print(json.dumps({'table': base64.b64encode(data).decode()}))
`,
      { tests: TESTS_DIR },
    );
    await openHost(
      env,
      'given',
      `<embedding-demo id="given" view="printout" table="${table}"></embedding-demo>`,
    );
    const { code, printed, note } = await page.evaluate(() => {
      const root = document.getElementById('given').shadowRoot;
      const texts = (selector) => [...root.querySelectorAll(selector)].map((p) => p.textContent);
      return {
        code: texts('.printout-in').join('\n'),
        printed: texts('.printout-out'),
        note: root.querySelector('.printout .route-note').textContent,
      };
    });
    assert.match(
      code,
      /# W: the notebook's own table, nn\.Embedding\(4, 5\)\.weight \(4 × 5\), as embedlab\.show\(\) got it\nwith torch\.no_grad\(\):\n {4}embedding\.weight\.copy_\(torch\.as_tensor\(W\)\.float\(\)\)/,
    );
    assert.doesNotMatch(code, /manual_seed|load_file|safetensors/);
    assert.match(note, /runs in the notebook, where W is the table given to embedlab\.show\(\)/);
    assert.equal(printed[0], printedAfter(nb, 'In [5]:'));
  });

  test("tokens: a notebook tokenizer's bytes of each id, shown as chips and in the token picker", async () => {
    const { page } = env;
    const base64 = (text) => Buffer.from(text).toString('base64');
    await openHost(
      env,
      'tokens',
      `<embedding-demo id="t" view="equation" ids="464, 3797"
        tokens="${base64('The')} ${base64(' cat')}"></embedding-demo>
      <embedding-demo id="bad" ids="1, 2" tokens="${base64('a')}"></embedding-demo>`,
    );
    const shown = await page.evaluate(() => {
      const root = document.getElementById('t').shadowRoot;
      const texts = (selector) => [...root.querySelectorAll(selector)].map((n) => n.textContent);
      return {
        chips: texts('.demo-tokens .token-chip .token-text'),
        ids: texts('.demo-tokens .token-chip .token-id'),
        picker: texts('[data-part="tokens"] [data-token]'),
      };
    });
    assert.deepEqual(shown, {
      chips: ['The', '·cat'],
      ids: ['464', '3797'],
      picker: ['The 464', '·cat 3797'],
    });
    assert.equal(
      await page.evaluate(() => document.getElementById('bad').error),
      'tokens holds 1 base64 parts for 2 ids: give one for each id',
    );
  });

  test('the benchmark view mounts the panel with its styles inside the shadow root only', async () => {
    const { page } = env;
    await openHost(env, 'benchmark', '<embedding-demo id="b" view="benchmark"></embedding-demo>');
    await page.waitForFunction(() => {
      const form = document.getElementById('b').shadowRoot.querySelector('.bench-form');
      return form && getComputedStyle(form).display === 'flex'; // panel.css applies
    });
    assert.equal(await demoText(page, '#b', 'button[type="submit"]'), 'Run');
    assert.equal(
      await page.evaluate(
        () => [...document.styleSheets].filter((s) => s.href?.endsWith('panel.css')).length,
      ),
      0,
    );
  });

  test('step: the arrow keys, Home and End move the token, set `step` and keep the focus', async () => {
    const { page } = env;
    await openHost(env, 'step', '<embedding-demo id="s" view="step"></embedding-demo>');
    const state = () =>
      page.evaluate(() => {
        const demo = document.getElementById('s');
        const focused = demo.shadowRoot.activeElement;
        return {
          step: demo.getAttribute('step'),
          focused: focused?.textContent,
          checked: focused?.getAttribute('aria-checked'),
          title: demo.shadowRoot.querySelector('.step-title').textContent,
        };
      });
    await page.locator('#s [role="radio"][aria-checked="true"]').focus();
    await page.keyboard.press('ArrowRight');
    await settle(page);
    assert.deepEqual(await state(), {
      step: '1',
      focused: '3',
      checked: 'true',
      title: 'idx[1] = 3 (position 1 of 0–2)',
    });
    await page.keyboard.press('End');
    await settle(page);
    assert.deepEqual(await state(), {
      step: '2',
      focused: '1',
      checked: 'true',
      title: 'idx[2] = 1 (position 2 of 0–2)',
    });
    await page.keyboard.press('Home');
    await settle(page);
    assert.deepEqual(await state(), {
      step: '0',
      focused: '2',
      checked: 'true',
      title: 'idx[0] = 2 (position 0 of 0–2)',
    });
  });

  test('controls: labelled inputs that edit the attributes', async () => {
    const { page } = env;
    await openHost(
      env,
      'controls',
      '<embedding-demo id="c" controls view="lookup"></embedding-demo>',
    );
    const ids = page.getByRole('textbox', { name: 'idx' });
    await ids.fill('3');
    await settle(page);
    assert.equal(await page.getAttribute('#c', 'ids'), '3');
    assert.deepEqual(cellsOnly(await demoCells(page, '#c', 'lookup')), [NOTEBOOK_W[3]]);
    assert.equal(
      await page.getByRole('textbox', { name: 'V' }).getAttribute('placeholder'),
      'auto: 4',
    );
    await page.getByRole('combobox', { name: 'W' }).selectOption('tf');
    await settle(page);
    assert.equal(await page.getAttribute('#c', 'weights'), 'tf');
    assert.deepEqual(cellsOnly(await demoCells(page, '#c', 'lookup')), [tfRow(3, 5)]);
    await ids.fill('3, -1');
    await settle(page);
    assert.equal(await ids.getAttribute('aria-invalid'), 'true');
    // An attribute set by the page shows in the input.
    await page.evaluate(() => document.getElementById('c').setAttribute('ids', '0'));
    await settle(page);
    assert.equal(await ids.inputValue(), '0');
    assert.equal(await ids.getAttribute('aria-invalid'), null);
  });

  test('accessible: a named group, a live verdict, an alert for errors', async () => {
    const { page } = env;
    await openHost(env, 'a11y', '<embedding-demo id="a" label="Try it"></embedding-demo>');
    const group = page.getByRole('group', {
      name: 'Try it: idx = [2, 3, 1], V = 4, d = 5, W from torch.manual_seed(123)',
    });
    assert.equal(await group.count(), 1);
    assert.equal(await page.locator('#a .verdict').getAttribute('aria-live'), 'polite');
    assert.equal(await page.locator('#a .error').getAttribute('role'), 'alert');
    const captions = await page.$$eval('embedding-demo', (all) =>
      [...all[0].shadowRoot.querySelectorAll('table')].map((t) => t.caption?.textContent),
    );
    assert.deepEqual(captions, [
      'embedding(idx) (n × d): 3 × 5',
      'linear(onehot.float()) (n × d): 3 × 5',
    ]);
  });

  test("as wide as its container; colours follow the page's scheme and custom properties", async () => {
    const { page } = env;
    await openHost(
      env,
      'theme',
      `
      <div style="width: 300px"><embedding-demo id="narrow" dim="12"></embedding-demo></div>
      <embedding-demo id="custom" style="--embedlab-match: rgb(1, 2, 3)"></embedding-demo>`,
      '<style>:root { color-scheme: light dark; } body { background: Canvas; color: CanvasText; }</style>',
    );
    const box = await page.locator('#narrow').boundingBox();
    assert.equal(box.width, 300);
    assert.equal(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
      0,
    );
    const colours = () =>
      page.evaluate(() => {
        const demo = document.getElementById('narrow');
        const word = demo.shadowRoot.querySelector('.verdict-word');
        return {
          word: getComputedStyle(word).color,
          text: getComputedStyle(demo).color,
          body: getComputedStyle(document.body).color,
          custom: getComputedStyle(
            document.getElementById('custom').shadowRoot.querySelector('.verdict-word'),
          ).color,
        };
      });
    const light = await colours();
    assert.equal(light.word, 'rgb(26, 127, 55)');
    assert.equal(light.text, light.body);
    assert.equal(light.custom, 'rgb(1, 2, 3)');
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await colours();
    assert.equal(dark.word, 'rgb(74, 194, 107)');
    assert.equal(dark.text, dark.body);
    assert.notEqual(dark.text, light.text);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test("the host page's root font size leaves the element's sizes as they are", async () => {
    const { page } = env;
    // The sizes of text and boxes in the shadow root, as the page lays them out.
    const sizes = async (name, head) => {
      await openHost(env, name, '<embedding-demo id="a" view="compare"></embedding-demo>', head);
      return page.evaluate(() => {
        const root = document.getElementById('a').shadowRoot;
        const of = (selector) => {
          const node = root.querySelector(selector);
          return [getComputedStyle(node).fontSize, node.getBoundingClientRect().height];
        };
        return {
          title: of('.demo-title'),
          word: of('.verdict-word'),
          cell: of('[data-box="lookup"] tbody td'),
          demo: of('.demo'),
        };
      });
    };
    const plain = await sizes('root-default');
    // The classic Notebook's root font size.
    const notebook = await sizes('root-10px', '<style>html { font-size: 10px; }</style>');
    assert.deepEqual(notebook, plain);
  });

  test("padding_idx starts the backward view's padding_idx, and a new one starts it anew", async () => {
    const { page } = env;
    await openHost(
      env,
      'padding',
      '<embedding-demo id="p" view="backward" ids="2, 3, 1" padding_idx="1"></embedding-demo>',
    );
    const padding = () =>
      page.evaluate(() => {
        const root = document.getElementById('p').shadowRoot;
        return {
          input: root.querySelector('input[name="padding-idx"]').value,
          notes: root.querySelector('.view-notes')?.textContent ?? '',
        };
      });
    const first = await padding();
    assert.equal(first.input, '1');
    assert.match(first.notes, /padding_idx = 1: row 1 of the scatter-add gets no gradient/);
    await page.evaluate(() => {
      document.getElementById('p').padding_idx = '3';
    });
    await settle(page);
    assert.equal((await padding()).input, '3');
  });

  test('a property set before the element is defined still reaches it', async () => {
    const { page } = env;
    // A classic script runs before the deferred module script defines the element.
    await openHost(
      env,
      'early',
      `<script>
      const early = document.createElement('embedding-demo');
      early.id = 'early';
      early.ids = '3';
      early.vocab = 4;
      document.body.append(early);
    </script>`,
    );
    assert.equal(await page.getAttribute('#early', 'ids'), '3');
    assert.deepEqual(cellsOnly(await demoCells(page, '#early', 'lookup')), [NOTEBOOK_W[3]]);
  });

  test('when the WebAssembly module cannot be loaded, every element says so and the page goes on', async () => {
    const { page } = env;
    await page.route(`${env.url}embedlab/embedlab-core.wasm`, (route) =>
      route.fulfill({ status: 404 }),
    );
    await openHost(
      env,
      'no-wasm',
      `
      <embedding-demo id="a"></embedding-demo><embedding-demo id="b" view="step"></embedding-demo>
      <p id="after">The host page goes on.</p>`,
    );
    await page.unroute(`${env.url}embedlab/embedlab-core.wasm`);
    for (const id of ['#a', '#b']) {
      assert.equal(await demoText(page, id, '.demo-title'), 'The embedding demo could not start');
      assert.match(
        await demoText(page, id, '[role="alert"]'),
        /^Something went wrong inside the demo: /,
      );
    }
    assert.equal(await page.textContent('#after'), 'The host page goes on.');
    // Expected here: the 404, Emscripten's own warnings, and the element's log of the failure.
    assert.ok(env.problems.length > 0);
    assert.ok(
      env.problems.every((p) => p.startsWith('console ')),
      env.problems.join('\n'),
    );
    env.problems.length = 0;
  });

  test('the JS API: reflecting properties, result, error, updateComplete and the render event', async () => {
    const { page } = env;
    await openHost(env, 'api', '<embedding-demo id="a"></embedding-demo>');
    const seen = await page.evaluate(async () => {
      const demo = document.getElementById('a');
      const events = [];
      demo.addEventListener('render', (event) => events.push(event.detail));
      demo.dim = 3;
      demo.ids = '3, 3, 0';
      demo.controls = true;
      await demo.updateComplete;
      const { result } = demo;
      return {
        attributes: [
          demo.getAttribute('dim'),
          demo.getAttribute('ids'),
          demo.hasAttribute('controls'),
        ],
        shape: [result.lookup.rows, result.lookup.cols, result.weight.rows],
        identical: result.comparison.identical,
        sameRows: events.length === 1 && events[0].result === result && events[0].error === null,
        element: customElements.get('embedding-demo') === demo.constructor,
        vocabProperty: demo.vocab,
      };
    });
    assert.deepEqual(seen, {
      attributes: ['3', '3, 3, 0', true],
      shape: [3, 3, 4],
      identical: true,
      sameRows: true,
      element: true,
      vocabProperty: null,
    });
  });
});
