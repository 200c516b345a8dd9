// Painting the picture's scene (model/picture-scene.mjs) on its canvas: each cell's fill, opacity
// and number for the selected token, resolved against the page's colours (the custom properties
// of styles/palette.css; the text's and panel's of styles/base.css or element.css), then
// painted. A frame of Play adds `ghosts` (rows on their way, drawn scaled) and `marks`
// (outlined cells) to the scene.
import { cssColor, mix, onThemeChange, readColors } from './theme-colors.mjs';
import { TOKEN_HUES, tokenHue } from '../model/token-colors.mjs';

export const DIMMED = 0.22; // the opacity of what the selected token multiplies by zero
const OUTLINE = 1.5; // px: the outline of another token's 1

// What the canvas paints with: the palette's custom properties (styles/palette.css) and the
// page's text and panel colours.
const COLORS = {
  neg: '--eq-neg',
  zero: '--eq-zero',
  pos: '--eq-pos',
  nan: '--eq-nan',
  accentText: '--accent-text',
  text: '--text',
  muted: '--muted',
  panel: '--panel',
  ...Object.fromEntries(
    Array.from({ length: TOKEN_HUES }, (_, h) => [`token${h}`, `--token-${h}`]),
  ),
};

// The colours as `node` resolves them now (a style pass: read once, and on a theme change),
// with each token's colour, and a value's colour on the diverging scale:
// `share` of the end `side` ('neg' or 'pos') over the zero colour, in whole per cent (100
// steps look continuous), each mixed once.
export function readPalette(node) {
  const colors = readColors(node, COLORS);
  const steps = { neg: [], pos: [] };
  const tokens = Array.from({ length: TOKEN_HUES }, (_, h) => colors[`token${h}`]);
  return {
    ...colors,
    token: (k) => tokens[tokenHue(k)],
    step(side, share) {
      const percent = Math.round(share * 100);
      steps[side][percent] ??= mix(colors.zero, colors[side], percent / 100);
      return steps[side][percent];
    },
  };
}

// The page's colours and fonts for a canvas in `node`, read at the first paint (getComputedStyle
// forces a style pass), again after a theme change, which calls onChange. Returns () =>
// { colors (readPalette()'s), fonts: { mono, sans } }.
export function createPalette(node, onChange) {
  let palette = null;
  return () => {
    if (palette) return palette;
    if (palette === null)
      onThemeChange(node, () => {
        palette = undefined;
        onChange();
      });
    const style = getComputedStyle(node);
    palette = {
      colors: readPalette(node),
      fonts: {
        mono: style.getPropertyValue('--mono').trim() || 'monospace',
        sans: 'system-ui, sans-serif',
      },
    };
    return palette;
  };
}

// A value's fill and number colour on the scale whose ends are ±scale: the text colour on
// every step, which the palette's tints are made to carry.
export function valueColors(colors, scale, value) {
  if (Number.isNaN(value)) return { fill: colors.nan, ink: colors.text };
  const share = Math.min(1, Math.abs(value) / scale);
  return { fill: colors.step(value < 0 ? 'neg' : 'pos', share), ink: colors.text };
}

// Each cell's fill, outline (stroke), ink, font, text and dimming, and each text's font and ink,
// for the token `step` (whose id is `id`): what paint() draws, and what the e2e tests read back
// (canvas.scene). What the selected token multiplies by zero is dimmed: its zeros and the rows
// of W they multiply; in backward mode, the rows of dW no token adds to. The numbers stay
// whole on dimmed cells, in the muted colour (paint() picks it, so that a frame of Play can
// dim and undim a cell by its flag alone). asking: a question waits for the learner's answer
// (which row of W survives), so nothing marks that row yet: the token's 1 is drawn as another
// token's, and neither its column nor W's row is labelled as the selected one's.
export function shade(scene, step, id, colors, fonts, { asking = false } = {}) {
  const { cell } = scene;
  // Whole px: each new size is a font the canvas looks up and rasterises glyphs for.
  // A digit as wide as its column leaves, and half as tall as its row: clear of the cell's
  // corner, where the tests read its fill.
  const digitSize = Math.min((scene.onehotCell - 2) / 0.61, scene.row / 2);
  const digitFont = `${Math.floor(Math.min(12, Math.max(8, digitSize)))}px ${fonts.mono}`;
  const idxFont = `${Math.round(Math.min(11, Math.max(8, cell / 4.6)))}px ${fonts.mono}`;
  const valueFont = `${scene.numberSize ?? 11}px ${fonts.mono}`;
  const selected = colors.token(step);
  scene.ghosts = [];
  scene.marks = [];
  scene.asking = asking;
  // What a frame of Play draws its ghosts' labels and blank cells with.
  scene.ghostFont = `700 11px ${fonts.mono}`;
  scene.ghostInk = colors.text;
  scene.zero = colors.zero;
  scene.backdrop = colors.panel; // under a row on its way, so that it hides what it passes over
  scene.dimmedInk = colors.muted; // a dimmed cell's number: whole, in the muted colour
  for (const c of scene.cells) {
    c.text = c.number;
    if (c.grid === 'onehot') {
      const mine = c.k === step;
      c.lit = mine && c.one && !asking;
      c.dimmed = mine && !c.one && !asking;
      // A token never fills a cell as a value would: the selected token's 1 is filled in its
      // colour, another token's 1 is outlined and written in its own.
      c.fill = c.lit ? selected : colors.zero;
      c.stroke = c.one && !c.lit ? colors.token(c.k) : null;
      c.ink = c.lit ? colors.accentText : c.one ? colors.token(c.k) : colors.muted;
      c.font = c.one ? `700 ${digitFont}` : digitFont;
    } else if (c.grid === 'idx') {
      c.stroke = null;
      c.lit = c.k === step;
      c.dimmed = false;
      c.fill = c.lit ? selected : colors.zero;
      c.ink = c.lit ? colors.accentText : colors.text;
      c.font = `700 ${idxFont}`;
    } else {
      c.stroke = null;
      c.shown = c.value; // what the cell shows: a frame of Play shows a sum on its way instead
      c.dimmed = (c.grid === 'weight' && c.v !== id) || (c.grid === 'grad' && !scene.hits.has(c.v));
      Object.assign(c, valueColors(colors, scene.scale, c.value));
      c.font = valueFont;
    }
  }
  for (const t of scene.texts) {
    t.current =
      ((t.id !== undefined && t.id === id) || (t.k !== undefined && t.k === step)) &&
      !(asking && t.id !== undefined);
    // A frame of Play hides the notes of the rows it has not reached, or shows their bare names.
    t.hidden = false;
    t.bareFont = `10px ${fonts.mono}`;
    t.bareInk = colors.muted;
    [t.font, t.ink] = textLook(t, colors, fonts, {
      strong: t.kind === 'note' ? t.one : t.current,
      ink: selected,
      operatorSize: scene.operatorSize,
    });
  }
}

// A text's font and ink by its kind (label, gap, operator, name, shape, note); `strong`: a label
// or note of the selected token, bold in its ink `ink`.
export function textLook({ kind }, colors, fonts, { strong = false, ink, operatorSize = 26 } = {}) {
  const weight = strong ? '700 ' : '';
  return {
    label: [`${weight}10px ${fonts.mono}`, strong ? ink : colors.muted],
    gap: [`13px ${fonts.mono}`, colors.muted],
    operator: [`700 ${operatorSize}px ${fonts.mono}`, colors.muted],
    name: [`700 12px ${fonts.mono}`, colors.text],
    shape: [`11px ${fonts.sans}`, colors.muted],
    note: [`${weight}10px ${fonts.mono}`, strong ? ink : colors.muted],
  }[kind];
}

// The canvas's fill colour, font and opacity, each set only when it changes: a canvas parses
// a colour or a font again each time one is set.
function pen(context) {
  let color = '';
  let font = '';
  let opacity = 1;
  context.globalAlpha = 1;
  const fill = (value) => {
    const css = cssColor(value);
    if (css !== color) context.fillStyle = color = css;
  };
  return {
    fill,
    alpha(value) {
      if (value !== opacity) context.globalAlpha = opacity = value;
    },
    write(content, x, y, textFont, ink) {
      if (textFont !== font) context.font = font = textFont;
      fill(ink);
      context.fillText(content, x, y);
    },
  };
}

// items in runs of equal key(item), each run in the items' order.
function inRuns(items, key) {
  const runs = new Map();
  for (const item of items) {
    const k = key(item);
    if (runs.has(k)) runs.get(k).push(item);
    else runs.set(k, [item]);
  }
  return [...runs.values()].flat();
}

// ratio: device pixels per CSS px of the canvas's buffer.
export function paint(canvas, scene, ratio) {
  const context = canvas.getContext('2d');
  const at = (scale, x, y) =>
    context.setTransform(ratio * scale, 0, 0, ratio * scale, ratio * x, ratio * y);
  at(1, 0, 0);
  context.clearRect(0, 0, canvas.width / ratio, canvas.height / ratio);
  const { row } = scene; // a row's height
  const { alpha, fill, write } = pen(context);
  const ink = (c) => (c.dimmed && c.grid !== 'onehot' ? scene.dimmedInk : c.ink);
  const box = (c, x, y) => {
    alpha(c.dimmed ? DIMMED : 1);
    fill(c.fill);
    context.beginPath();
    context.roundRect(x + 1, y + 1, c.width - 2, row - 2, 2);
    context.fill();
    if (c.stroke) {
      // Inside the box's edge, clear of its middle (where tests read its fill and number).
      context.strokeStyle = cssColor(c.stroke);
      context.lineWidth = OUTLINE;
      context.beginPath();
      context.roundRect(
        x + 1 + OUTLINE / 2,
        y + 1 + OUTLINE / 2,
        c.width - 2 - OUTLINE,
        row - 2 - OUTLINE,
        2,
      );
      context.stroke();
    }
  };
  const number = (c, x, y) => {
    alpha(1);
    write(c.text, x + c.width / 2, y + row / 2, c.font, ink(c));
  };
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  // Boxes and numbers never overlap, so each is drawn in runs of one colour and font.
  for (const c of inRuns(scene.cells, (c) => `${c.dimmed} ${cssColor(c.fill)}`)) box(c, c.x, c.y);
  const numbered = scene.cells.filter((c) => c.text);
  for (const c of inRuns(numbered, (c) => `${c.font} ${cssColor(ink(c))}`)) number(c, c.x, c.y);
  alpha(1);
  const texts = scene.texts.flatMap((t) => {
    if (!t.hidden) return [t];
    return t.bare ? [{ ...t, text: t.bare, font: t.bareFont, ink: t.bareInk }] : [];
  });
  for (const t of inRuns(texts, (t) => `${t.font} ${cssColor(t.ink)}`)) {
    context.textAlign = t.align;
    context.textBaseline = t.kind === 'operator' ? 'middle' : 'alphabetic';
    write(t.text, t.x, t.y, t.font, t.ink);
  }
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  // A ghost: a row of cells at (x, y), scaled about its middle, with its label before it.
  for (const ghost of scene.ghosts) {
    at(
      ghost.scale,
      ghost.x + ((1 - ghost.scale) * ghost.width) / 2,
      ghost.y + ((1 - ghost.scale) * row) / 2,
    );
    alpha(1);
    fill(scene.backdrop);
    const labelRoom = ghost.label ? ghost.label.length * 7 + 6 : 2; // 11 px bold monospace
    context.fillRect(-labelRoom, -2, ghost.width + labelRoom + 2, row + 4);
    for (const c of ghost.cells) {
      box(c, c.dx, 0);
      if (c.text) number(c, c.dx, 0);
    }
    if (ghost.label) {
      context.textAlign = 'right';
      write(ghost.label, -4, row / 2, ghost.labelFont, ghost.labelInk);
      context.textAlign = 'center';
    }
  }
  at(1, 0, 0);
  for (const m of scene.marks) {
    context.strokeStyle = cssColor(m.color);
    context.lineWidth = 2.5;
    context.beginPath();
    context.roundRect(m.x, m.y, m.width, m.height, 3);
    context.stroke();
  }
}
