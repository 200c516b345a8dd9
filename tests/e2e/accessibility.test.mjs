// Accessibility of the page, the tutorial and the reference: axe-core (the pinned npm package)
// finds no serious or critical violation on any of them, inside <embedding-demo>'s shadow roots
// included, in light and dark mode, at 1280 and 375 px; a box that scrolls is a focusable,
// named region exactly while it scrolls; the focus never falls to <body> when a button it is on
// disables itself; the segmented switches' focus rings are outside and 3:1 (axe does not check
// that); controls have names of their own; the benchmark's slider says the V it
// stands for; the element's headings stay out of the host page's outline; and while a newer
// result is on its way, the views that show an older one say so.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { afterEach, describe, test } from 'node:test';
import { frames, sitePerSuite, waitForLookupRows, waitForVerdict } from './harness.mjs';
import { settle } from './demo.mjs';
import { saveScreenshot } from './screenshots.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SIZES = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];
const SCHEMES = ['light', 'dark'];

// The page's sections off screen are not laid out (content-visibility: auto), and neither axe
// nor the accessibility tree Chromium hands a screen reader holds what is not laid out: here
// they are, so that every section is checked.
const LAY_OUT_ALL = 'main > section { content-visibility: visible !important; }';
// Resolves once an article page has laid out every section its first layout skipped (its
// sections, laid out in idle periods by page/reference.mjs): its outline is whole from then.
const sectionsLaidOut = (page) =>
  page.waitForFunction(() => !document.querySelector('.article > section:not([data-laid-out])'));

// axe-core's serious and critical violations on the page as it is, open shadow roots included:
// one line each, naming the rule, the node and what is wrong.
async function axeViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter(({ impact }) => impact === 'serious' || impact === 'critical')
      .flatMap(({ id, impact, help, nodes }) =>
        nodes.map(
          (node) =>
            `${id} (${impact}): ${JSON.stringify(node.target)}: ${help}. ${node.failureSummary.replace(/\s+/g, ' ')}`,
        ),
      );
  });
  return violations;
}

// The accessible names of the controls one can reach on the page (not inside a shadow root),
// from Chromium's accessibility tree: [{ role, name }].
async function controlNames(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  const controls = new Set([
    'button',
    'textbox',
    'combobox',
    'slider',
    'spinbutton',
    'checkbox',
    'radio',
    'searchbox',
  ]);
  return nodes
    .filter((node) => !node.ignored && controls.has(node.role?.value))
    .map((node) => ({ role: node.role.value, name: node.name?.value ?? '' }));
}

describe('accessibility', () => {
  const env = sitePerSuite();
  afterEach(() => env.assertClean());

  // The page, fresh, for a test that needs it after one on another page, all its sections laid
  // out.
  async function home() {
    const { page } = env;
    if (page.url() !== env.url) {
      await page.goto(env.url);
      await waitForVerdict(page, 'bit-identical');
    }
    await page.addStyleTag({ content: LAY_OUT_ALL });
  }

  // check(look) in light and dark mode, at each width; the page is left light, at 1280 px.
  async function eachLook(check) {
    const { page } = env;
    try {
      for (const colorScheme of SCHEMES) {
        for (const size of SIZES) {
          await page.emulateMedia({ colorScheme });
          await page.setViewportSize(size);
          await frames(page);
          await check(`${colorScheme}, ${size.width} px`);
        }
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize(SIZES[0]);
    }
  }

  test('axe-core: no serious or critical violation on the page, light and dark, 1280 and 375 px', async () => {
    const { page } = env;
    await home();
    // Beside the first screen: the printout open, the Backward view's calm padding_idx state,
    // and Text mode's chips.
    await page.click('#printout-section details summary');
    await page.fill('#backward [name="padding-idx"]', '1');
    await page.waitForSelector('#backward .verdict[data-state="defined"]');
    await page.click('label[for="from-text"]');
    await page.waitForSelector('.token-chip');
    await waitForLookupRows(page, [15496, 995]);
    await waitForVerdict(page, 'bit-identical');
    await eachLook(async (look) => {
      assert.deepEqual(await axeViolations(page), [], `index.html, ${look}`);
    });
    await page.click('label[for="from-ids"]');
    await page.fill('#backward [name="padding-idx"]', '');
    await waitForLookupRows(page, [2, 3, 1]);
  });

  for (const name of ['tutorial.html', 'reference.html']) {
    test(`axe-core: no serious or critical violation on ${name}, its elements' shadow roots included`, async () => {
      const { page } = env;
      await page.goto(`${env.url}${name}`);
      await settle(page);
      await sectionsLaidOut(page);
      await eachLook(async (look) => {
        assert.deepEqual(await axeViolations(page), [], `${name}, ${look}`);
      });
    });
  }

  test('a table box that scrolls is a named region the keyboard reaches and scrolls', async () => {
    const { page } = env;
    await home();
    const box = '#results [data-box="lookup"]';
    const attributes = () =>
      page.$eval(box, (node) => ({
        tabindex: node.getAttribute('tabindex'),
        role: node.getAttribute('role'),
        label: node.getAttribute('aria-label'),
        scrolls: node.scrollWidth > node.clientWidth,
      }));
    assert.deepEqual(await attributes(), {
      tabindex: null,
      role: null,
      label: null,
      scrolls: false,
    });
    await page.setViewportSize(SIZES[1]);
    await page.waitForSelector(`${box}[tabindex="0"]`);
    assert.deepEqual(await attributes(), {
      tabindex: '0',
      role: 'region',
      label: 'Lookup: embedding(idx)',
      scrolls: true,
    });
    await page.focus(box);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((selector) => document.querySelector(selector).scrollLeft > 0, box);
    await page.setViewportSize(SIZES[0]);
    await page.waitForFunction(
      (selector) =>
        document.querySelector(selector).scrollWidth <=
        document.querySelector(selector).clientWidth,
      box,
    );
    // The box had the focus: it keeps its tab stop until the focus leaves.
    assert.equal(await page.evaluate(() => document.activeElement.dataset.box), 'lookup');
    await page.focus('#ids');
    await page.waitForSelector(`${box}:not([tabindex])`);
  });

  // Presses Enter on the arrow button `arrow` until it disables itself (at an end of the ids), and
  // returns where the focus is once Chromium has settled it (a frame later).
  async function focusAfterArrow(arrow) {
    const { page } = env;
    await page.focus(arrow);
    for (let i = 0; i < 3 && !(await page.$eval(arrow, (button) => button.disabled)); ++i) {
      await page.keyboard.press('Enter');
    }
    assert.ok(
      await page.$eval(arrow, (button) => button.disabled),
      `${arrow} is disabled at the end`,
    );
    await frames(page);
    return page.evaluate(() => ({
      tag: document.activeElement.tagName,
      checked: document.activeElement.getAttribute('aria-checked'),
    }));
  }

  test('the focus never falls to <body> when the button it is on disables itself', async () => {
    const { page } = env;
    await home();
    await page.fill('#ids', '2, 3, 1');
    await waitForLookupRows(page, [2, 3, 1]);
    for (const part of ['next', 'prev']) {
      // The token picker's arrows hand the focus to the token they reached.
      assert.deepEqual(
        await focusAfterArrow(`main button[data-part="${part}"]`),
        { tag: 'BUTTON', checked: 'true' },
        part,
      );
    }
  });

  // The focus on a segmented switch as it is painted: the ring outside the switch (its colour,
  // width, offset and contrast with the first opaque background behind the switch) and the ring
  // inside the focused segment (its colour's contrast with the segment's fill). WCAG's contrast.
  function focusRings(page, group, radio) {
    return page.evaluate(
      ([groupSelector, radioSelector]) => {
        const rgb = (css) =>
          css
            .match(/[\d.]+/g)
            .slice(0, 4)
            .map(Number);
        const luminance = ([r, g, b]) =>
          [r, g, b]
            .map((c) => c / 255)
            .map((s) => (s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4))
            .reduce((sum, s, i) => sum + s * [0.2126, 0.7152, 0.0722][i], 0);
        const contrast = (a, b) => {
          const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
          return (x + 0.05) / (y + 0.05);
        };
        const behind = (node) => {
          for (let n = node.parentElement; n; n = n.parentElement) {
            const color = rgb(getComputedStyle(n).backgroundColor);
            if (color.length === 3 || color[3] === 1) return color;
          }
          return [255, 255, 255];
        };
        const switchBox = document.querySelector(groupSelector);
        const input = switchBox.querySelector(radioSelector);
        const segment = input.nextElementSibling;
        const outer = getComputedStyle(switchBox);
        const inner = getComputedStyle(segment).boxShadow;
        return {
          focused: document.activeElement === input,
          checked: input.checked,
          outline: `${outer.outlineStyle} ${outer.outlineWidth}`,
          outside: parseFloat(outer.outlineOffset) >= 0,
          ring: contrast(rgb(outer.outlineColor), behind(switchBox)),
          inner: inner.includes('inset')
            ? contrast(rgb(inner), rgb(getComputedStyle(segment).backgroundColor))
            : 0,
        };
      },
      [group, radio],
    );
  }

  test('focus on the segmented switches at 1280, 720, 480 and 375 px: a ring outside, and one inside the segment, each 3:1', async () => {
    const { page } = env;
    const switches = [
      ['#results .picture-modes', 'input[value="product"]', 'input[value="lookup"]'],
      ['#ids-from', '#from-ids', '#from-text'],
    ];
    for (const [scheme, width] of SCHEMES.flatMap((s) =>
      [1280, 720, 480, 375].map((w) => [s, w]),
    )) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 812 });
      await page.goto(env.url);
      await waitForVerdict(page, 'bit-identical');
      for (const [group, checked, unchecked] of switches) {
        for (const radio of [checked, unchecked]) {
          // A key first: the focus that follows is shown as from the keyboard (:focus-visible).
          await page.keyboard.press('Shift');
          await page.focus(`${group} ${radio}`);
          const rings = await focusRings(page, group, radio);
          const where = `${scheme}, ${width} px, ${group} ${radio}`;
          assert.ok(rings.focused, where);
          assert.equal(rings.checked, radio === checked, where);
          assert.equal(rings.outline, 'solid 3px', where);
          assert.ok(rings.outside, `${where}: the ring is outside the switch`);
          assert.ok(rings.ring >= 3, `${where}: the outer ring's contrast ${rings.ring}`);
          assert.ok(rings.inner >= 3, `${where}: the inner ring's contrast ${rings.inner}`);
        }
      }
      if (width !== 1280) continue;
      await saveScreenshot(page.locator('#ids-from').locator('..'), `focus-ids-from-${scheme}.png`);
      await page.focus('#results .picture-modes input[value="product"]');
      await saveScreenshot(page.locator('#results .equation-bar'), `focus-modes-${scheme}.png`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  // The controls whose role and name some other control shares: ['button "Next token" ×2', ...].
  async function sharedNames() {
    const seen = new Map();
    for (const { role, name } of await controlNames(env.page)) {
      seen.set(`${role} "${name}"`, (seen.get(`${role} "${name}"`) ?? 0) + 1);
    }
    return [...seen]
      .filter(([, times]) => times > 1)
      .map(([control, times]) => `${control} ×${times}`);
  }
  test('every control has a name of its own', async () => {
    const { page } = env;
    await home();
    assert.deepEqual(await sharedNames(), []);
    const names = await controlNames(page);
    assert.ok(
      names.some(({ role, name }) => role === 'textbox' && name === 'padding_idx of the gradient'),
    );
    assert.ok(
      names.some(({ role, name }) => role === 'textbox' && name === 'padding_idx of the bags'),
    );
    assert.ok(
      names.some(({ role, name }) => role === 'combobox' && name === 'Dimension d to time'),
    );
  });

  // Its value is the index of a stop (6 of 0 to 9), which means nothing read out: aria-valuetext
  // says the V it picks, as the output beside it shows. (Chromium's DevTools accessibility tree
  // lists no aria-valuetext for any slider, so the attribute is what can be checked.)
  test("the benchmark's slider says the V it stands for", async () => {
    const { page } = env;
    await home();
    const slider = '#bench-vocab';
    const said = () =>
      page.$eval(slider, (input) => [
        input.getAttribute('aria-valuetext'),
        input.labels[0].textContent,
        document.getElementById('bench-vocab-value').textContent,
      ]);
    assert.deepEqual(await said(), ['V = 8,192', 'Largest vocabulary size V', 'V = 8,192']);
    await page.focus(slider);
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await said(), ['V = 16,384', 'Largest vocabulary size V', 'V = 16,384']);
    await page.keyboard.press('End');
    assert.deepEqual(await said(), ['V = 50,257', 'Largest vocabulary size V', 'V = 50,257']);
    await page.keyboard.press('Home');
    assert.equal((await said())[0], 'V = 4');
  });

  test("the element's headings stay out of the host page's outline", async () => {
    const { page } = env;
    await page.goto(`${env.url}reference.html`);
    await settle(page);
    await sectionsLaidOut(page);
    const headings = await page.evaluate(() => {
      const demos = [...document.querySelectorAll('embedding-demo')];
      return {
        inside: demos
          .flatMap((demo) => [...demo.shadowRoot.querySelectorAll('h1, h2, h3, h4, h5, h6')])
          .map((h) => h.outerHTML),
        demoted: demos.reduce(
          (sum, demo) => sum + demo.shadowRoot.querySelectorAll('p.view-heading').length,
          0,
        ),
      };
    });
    assert.deepEqual(headings.inside, []);
    assert.ok(headings.demoted > 10, `${headings.demoted} view headings`);
    // The outline a screen reader lists: the page's own headings, in order.
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    await cdp.detach();
    const outline = nodes
      .filter((node) => !node.ignored && node.role?.value === 'heading')
      .map((node) => node.name.value);
    assert.deepEqual(
      outline,
      await page.$$eval('h1, h2, h3, h4, h5, h6', (all) => all.map((h) => h.textContent)),
    );
  });

  test('while a newer result is on its way, the verdict and the views say they are busy', async () => {
    const { page } = env;
    await home();
    // Every state the verdict passes through, with what the verdict and the routes' tables said.
    await page.evaluate(() => {
      window.verdictSeen = [];
      const box = document.querySelector('#results .verdict');
      const routes = document
        .querySelector('#results [data-box="lookup"]')
        .closest('.busy, #results > div');
      new MutationObserver(() => {
        const word = box.querySelector('.verdict-word')?.textContent;
        if (word !== window.verdictSeen.at(-1)?.word) {
          window.verdictSeen.push({
            word,
            busy: box.getAttribute('aria-busy'),
            routes: routes.getAttribute('aria-busy'),
          });
        }
      }).observe(box, { childList: true, subtree: true });
    });
    // Gemma 3: its tokenizer loads, then a W of 262,145 rows is made in the compute worker.
    await page.click('label[for="from-text"]');
    await page.selectOption('#tokenizer', 'gemma3');
    await page.waitForFunction(() => document.getElementById('vocab').value === '262145', null, {
      timeout: 30_000,
    });
    await waitForVerdict(page, 'bit-identical', 30_000);
    const seen = await page.evaluate(() => window.verdictSeen);
    const words = seen.map(({ word }) => word);
    assert.ok(
      words.includes('tokenizing') &&
        words.includes('computing') &&
        words.at(-1) === 'bit-identical',
      JSON.stringify(seen),
    );
    for (const { word, busy, routes } of seen) {
      const waiting = word !== 'bit-identical';
      assert.deepEqual(
        { busy, routes },
        waiting ? { busy: 'true', routes: 'true' } : { busy: null, routes: null },
        word,
      );
    }
    await page.selectOption('#tokenizer', 'gpt2');
    await page.click('label[for="from-ids"]');
    await waitForLookupRows(page, [2, 3, 1], 30_000);
  });
});
