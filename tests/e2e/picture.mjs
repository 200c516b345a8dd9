// The equation picture as the tests read it. Its grids are painted on a canvas, whose text
// cannot be read back from pixels: the view keeps what it painted (canvas.scene,
// equation-view.mjs), and each cell comes with the pixel actually painted inside its top-left
// corner, clear of its number, so that a test checks the painting as well as the plan.

const DIMMED = 0.22;  // the opacity of what the selected token multiplies by zero (a design choice)

// The picture in `root` (a selector, or an <embedding-demo> whose shadow root holds it):
// { cells: [{ grid, one, lit, dimmed, text, fill, pixel }], labels: [text] }.
export function readPicture(page, root = '#results .equation-figure') {
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
    const pixel = (x, y) => Array.from(context.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data);
    const { cells, texts } = canvas.scene;
    return {
      cells: cells.map((c) => ({ grid: c.grid, one: Boolean(c.one), lit: Boolean(c.lit), dimmed: c.dimmed,
        text: c.text, fill: c.fill, pixel: pixel(c.x + 4, c.y + 4) })),
      labels: texts.map((t) => t.text),
    };
  }, root);
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
    await page.evaluate(() => new Promise((resolve) => { requestAnimationFrame(resolve); }));
  }
  throw new Error('the picture was not repainted within 120 frames');
}
