// The equation picture as the tests read it. Its grids are painted on a canvas, whose text
// cannot be read back from pixels: the view keeps what it painted (canvas.scene,
// views/picture/picture.mjs), and each cell comes with the pixel actually painted inside its top-left
// corner, clear of its number, so that a test checks the painting as well as the plan.
import { runTorch } from './torch-reference.mjs';

const DIMMED = 0.22; // the opacity of what the selected token multiplies by zero (a design choice)
export const PAGE_PICTURE = '#results .equation-figure';

// The picture in `root` (a selector, or an <embedding-demo> whose shadow root holds it):
// { cells: [{ grid, k, v, one, lit, dimmed, value (what it shows: null while a sum waits for its
//   first term), text, fill, stroke, ink, pixel, contrast }],
//   texts: [{ kind, text, x, y, current }], labels: [text], ghosts: [{ label, scale, x, y }],
//   marks, mode }. contrast: for a cell with a number, the contrast ratio (WCAG's) between its
// fill and the most contrasting pixel of its number, as painted over the page's background.
export function readPicture(page, root = PAGE_PICTURE) {
  return page.evaluate((selector) => {
    const host = document.querySelector(selector);
    const canvas = (host.shadowRoot ?? host).querySelector('.equation-canvas');
    // Read through a copy: reading the canvas itself again and again draws a console warning.
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d', { willReadFrequently: true });
    context.drawImage(canvas, 0, 0);
    const ratio = canvas.width / parseFloat(canvas.style.width);
    const pixel = (x, y) =>
      Array.from(context.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data);
    // What the canvas shows over: the first opaque background around it.
    let node = canvas;
    let background = [255, 255, 255];
    while (node) {
      const color =
        node instanceof Element &&
        getComputedStyle(node)
          .backgroundColor.match(/[\d.]+/g)
          ?.map(Number);
      if (color && (color.length === 3 || color[3] === 1)) {
        background = color.slice(0, 3);
        break;
      }
      node = node.parentElement ?? node.getRootNode().host;
    }
    const over = ([r, g, b, a]) =>
      [r, g, b].map((c, i) => (c * a + background[i] * (255 - a)) / 255);
    const luminance = (rgb) => {
      const [r, g, b] = rgb.map((c) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    // The band through a cell's middle where its number is painted.
    const numberContrast = (c) => {
      const fill = luminance(over(pixel(c.x + 3, c.y + 3)));
      const x0 = Math.round((c.x + 3) * ratio);
      const y0 = Math.round((c.y + scene.row / 2 - 4) * ratio);
      const band = context.getImageData(
        x0,
        y0,
        Math.round((c.width - 6) * ratio),
        Math.round(8 * ratio),
      ).data;
      let best = 1;
      for (let i = 0; i < band.length; i += 4) {
        best = Math.max(best, contrast(fill, luminance(over(band.slice(i, i + 4)))));
      }
      return best;
    };
    const scene = canvas.scene;
    return {
      mode: scene.mode,
      cell: scene.cell,
      cells: scene.cells.map((c) => ({
        grid: c.grid,
        k: c.k,
        v: c.v,
        one: Boolean(c.one),
        lit: Boolean(c.lit),
        dimmed: Boolean(c.dimmed),
        value: c.shown,
        text: c.text,
        fill: c.fill,
        stroke: c.stroke ?? null,
        ink: c.ink,
        x: c.x,
        y: c.y,
        pixel: pixel(c.x + 4, c.y + 4),
        contrast: c.text ? numberContrast(c) : null,
      })),
      texts: scene.texts.map((t) => ({
        kind: t.kind,
        text: t.text,
        x: t.x,
        y: t.y,
        align: t.align,
        current: t.current,
        font: t.font,
      })),
      labels: scene.texts.map((t) => t.text),
      ghosts: (scene.ghosts ?? []).map((g) => ({ label: g.label, scale: g.scale, x: g.x, y: g.y })),
      marks: (scene.marks ?? []).length,
    };
  }, root);
}

// What surrounds the canvas in `root`: the bar, the step's equation and caption, the line below, the counts, the slider's
// accessible name and value, the overlay's labels, the lookup's verdict and the backward arrows.
export function readFigure(page, root = PAGE_PICTURE) {
  return page.evaluate((selector) => {
    const host = document.querySelector(selector);
    const base = host.shadowRoot ?? host;
    const figure = base.querySelector('.equation-figure') ?? host;
    const frame = figure.querySelector('.equation-picture');
    const svg = figure.querySelector('.equation-svg');
    const verdict = svg.querySelector('.eq-verdict');
    const described =
      base.getElementById?.(frame.getAttribute('aria-describedby')) ??
      figure.querySelector(`#${frame.getAttribute('aria-describedby')}`);
    return {
      token: frame.getAttribute('aria-valuetext').split(':')[0], // "token k of n"
      detail: figure.querySelector('.picture-detail').textContent,
      equation: figure.querySelector('.picture-equation').textContent,
      caption: figure.querySelector('.picture-caption').textContent,
      counts: figure.querySelector('.equation-counts').textContent,
      play: figure.dataset.play,
      mode: figure.querySelector('.picture-mode input:checked').value,
      playText: figure.querySelector('.picture-play .play-text').textContent,
      name: frame.getAttribute('aria-label'),
      role: frame.getAttribute('role'),
      valuetext: frame.getAttribute('aria-valuetext'),
      description: described?.textContent ?? null,
      rowLabels: [...svg.querySelectorAll('.eq-rows text')]
        .filter((t) => getComputedStyle(t).display !== 'none')
        .map((t) => t.textContent),
      verdict: {
        text: verdict.textContent,
        state: verdict.dataset.state,
        shown: getComputedStyle(verdict).display !== 'none',
        colour: getComputedStyle(verdict).fill,
      },
      heads: [...svg.querySelectorAll('.eq-head')].filter(
        (h) => getComputedStyle(h).display !== 'none',
      ).length,
      backArrows: [...svg.querySelectorAll('.eq-back-arrow')]
        .filter((a) => getComputedStyle(a).display !== 'none')
        .map((a) => Number(a.dataset.position)),
      rowGlow: svg.querySelector('.eq-glow-row').style.transform,
      replays: svg.querySelectorAll('.eq-flow.replay').length,
    };
  }, root);
}

// Shows `mode` ('product', 'lookup' or 'backward') by clicking its toggle, and waits until the
// canvas shows it.
export async function setMode(page, mode, root = PAGE_PICTURE) {
  await page.locator(`${root} .picture-mode:has(input[value="${mode}"])`).click();
  await page.waitForFunction(
    ([selector, wanted]) => {
      const host = document.querySelector(selector);
      return (host.shadowRoot ?? host).querySelector('.equation-canvas').scene?.mode === wanted;
    },
    [root, mode],
  );
}

// The cells whose painted pixel is not their fill (at the opacity their dimming gives), as
// [index, expected, painted]; none when the canvas shows what the scene says.
export function misPainted(cells) {
  return cells.flatMap((c, i) => {
    const [r, g, b, a] = c.fill;
    const expected = [r, g, b, Math.round(255 * a * (c.dimmed ? DIMMED : 1))];
    // A pixel is stored premultiplied by its opacity, in whole units: read back, each colour
    // channel is off by up to 255 / alpha (<embedding-demo>'s zero colour is 8% opaque).
    const slack = 4 + Math.ceil(255 / Math.max(1, expected[3]));
    const off = expected.some((v, k) => Math.abs(v - c.pixel[k]) > (k === 3 ? 1 : slack));
    return off ? [[i, expected, c.pixel]] : [];
  });
}

// Resolves with read()'s next answer that differs from `before`, read once a frame: a canvas
// repaints on its own schedule after a colour scheme change.
export async function changed(page, read, before) {
  const was = JSON.stringify(before);
  for (let frames = 0; frames < 120; ++frames) {
    const now = await read();
    if (JSON.stringify(now) !== was) return now;
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          requestAnimationFrame(resolve);
        }),
    );
  }
  throw new Error('the picture was not repainted within 120 frames');
}

// G and dL/dW of the lookup of `ids` into a (vocab × dim) table as PyTorch computes them, with G
// drawn as the Backward view and the picture draw it: torch.manual_seed(0); torch.randn(n, d).
export function torchBackward(ids, vocab, dim) {
  return runTorch(
    `
import json, sys, torch
a = json.load(sys.stdin)
torch.manual_seed(0)
G = torch.randn(len(a['ids']), a['dim'])
embedding = torch.nn.Embedding(a['vocab'], a['dim'])
embedding(torch.tensor(a['ids'])).backward(G)
print(json.dumps({'G': G.tolist(), 'grad': embedding.weight.grad.tolist()}))
`,
    { ids, vocab, dim },
  );
}
