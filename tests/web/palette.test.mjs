// The palette (web/styles/palette.css) keeps its two meanings apart for every viewer: values
// (a diverging scale, NaN apart) and tokens (and the Train view's causes, drawn from the
// tokens' inks) never look alike, nor two tokens, in normal colour vision or as a protanope,
// deuteranope or tritanope sees them; and text stays at WCAG's 4.5:1 where it sits on these
// fills. The colours are read from the CSS files themselves, light and dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { contrast, DICHROMACY, deltaE2000, lab, parseHex, simulate } from './color-vision.mjs';

const styles = new URL('../../web/styles/', import.meta.url);
// A style sheet's text without its comments.
const read = (name) => readFileSync(new URL(name, styles), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

// ΔE00 floors. About 1–2 is a difference seen between patches side by side; these ask for
// marks a cell apart to read as different at a glance. For scale: under the three
// simulations here, Okabe and Ito's palette (made for these viewers) keeps its closest pair at
// 10.9 and Tol's "bright" one at 8.6.
const APART = 8; // any two tokens (or two causes)
const UNLIKE_VALUES = 15; // a token or a cause and any colour of the values' scale
const TEXT = 4.5; // WCAG 2.x, normal-size text

// Custom properties as `--name: value;` declarations of a block.
function declarations(block) {
  return Object.fromEntries(
    [...block.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map(([, name, value]) => [
      name,
      value.trim(),
    ]),
  );
}

// palette.css's properties in one scheme ('light' or 'dark') as '#rrggbb': light-dark(a, b)
// gives a or b, var(--embedlab-x, v) its fallback v (no host page restyles it here), var(--p)
// the property p.
function paletteIn(scheme) {
  const raw = declarations(read('palette.css'));
  const resolve = (value) => {
    const hostable = value.match(/^var\(--embedlab-[\w-]+,\s*(.*)\)$/);
    if (hostable) return resolve(hostable[1]);
    const both = value.match(/^light-dark\((#[0-9a-f]+),\s*(#[0-9a-f]+)\)$/i);
    if (both) return both[scheme === 'light' ? 1 : 2];
    const other = value.match(/^var\((--[\w-]+)\)$/);
    if (other) return resolve(raw[other[1]]);
    if (/^#[0-9a-f]+$/i.test(value)) return value;
    throw new Error(`palette.css: cannot read the colour ${value}`);
  };
  const colors = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name !== '--selected-token') colors[name] = resolve(value);
  }
  return colors;
}

// base.css's text and panel colours: its :root block for light, its dark block for dark.
function pageIn(scheme) {
  const css = read('base.css');
  const light = declarations(css.match(/:root\s*\{([^}]*)\}/)[1]);
  const dark = declarations(
    css.match(/prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}/)[1],
  );
  return scheme === 'light' ? light : { ...light, ...dark };
}

const SCHEMES = ['light', 'dark'];
const VISIONS = ['normal', ...Object.keys(DICHROMACY)];
const seen = (vision, hex) =>
  lab(vision === 'normal' ? parseHex(hex) : simulate(vision, parseHex(hex)));

const pick = (colors, prefix) => Object.entries(colors).filter(([name]) => name.startsWith(prefix));

// The values' scale as the heatmap draws it (draw/heatmap.mjs): zero to each end in sRGB, in
// quarters, and NaN.
function valueScale(colors) {
  const zero = parseHex(colors['--eq-zero']);
  const hex = (rgb) =>
    `#${rgb
      .map((c) =>
        Math.round(c * 255)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
  const steps = [];
  for (const end of ['--eq-neg', '--eq-pos']) {
    const far = parseHex(colors[end]);
    for (const share of [0.25, 0.5, 0.75, 1]) {
      steps.push([`${end} at ${share * 100}%`, hex(zero.map((z, i) => z + share * (far[i] - z)))]);
    }
  }
  return [...steps, ['--eq-nan', colors['--eq-nan']]];
}

// The pairs of `marks` (or of marks and `others`) closer than `floor` for `vision`.
function tooClose(vision, marks, others, floor) {
  const close = [];
  marks.forEach(([a, x], i) => {
    const against = others ?? marks.slice(i + 1);
    for (const [b, y] of against) {
      const d = deltaE2000(seen(vision, x), seen(vision, y));
      if (d < floor) close.push(`${a} ${x} and ${b} ${y}: ΔE00 ${d.toFixed(1)}`);
    }
  });
  return close;
}

describe('the colour science', () => {
  test('CIEDE2000 gives Sharma, Wu and Dalal’s published differences', () => {
    // Pairs 1, 7, 17, 25 and 29 of their Table 1.
    const pairs = [
      [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
      [[50, 0, 0], [50, -1, 2], 2.3669],
      [[50, 2.5, 0], [73, 25, -18], 27.1492],
      [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
      [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373],
    ];
    for (const [a, b, expected] of pairs) {
      assert.equal(deltaE2000(a, b).toFixed(4), expected.toFixed(4));
      assert.equal(deltaE2000(b, a).toFixed(4), expected.toFixed(4));
    }
  });

  test('CIELAB and WCAG contrast at their fixed points', () => {
    // White is L* 100 with no hue (to the 4 decimals of the sRGB matrix).
    const [L, a, b] = lab([1, 1, 1]);
    assert.ok(Math.abs(L - 100) < 1e-3 && Math.hypot(a, b) < 0.02, `white is ${[L, a, b]}`);
    assert.equal(contrast(parseHex('#000'), parseHex('#fff')), 21);
    // WCAG's own example of the threshold: #767676 on white is 4.54:1.
    assert.equal(contrast(parseHex('#767676'), parseHex('#fff')).toFixed(2), '4.54');
  });

  test('each simulation keeps greys grey and merges its own confusion colours', () => {
    // Machado's rows each sum to 1: a grey is seen as itself.
    for (const kind of Object.keys(DICHROMACY)) {
      const grey = simulate(kind, [0.5, 0.5, 0.5]);
      for (const c of grey) assert.ok(Math.abs(c - 0.5) < 1e-3, `${kind} turns grey into ${grey}`);
    }
    // Red and green, far apart to a trichromat, close to a deuteranope and a protanope.
    const [red, green] = [parseHex('#d62728'), parseHex('#2ca02c')];
    assert.ok(deltaE2000(lab(red), lab(green)) > 60);
    for (const kind of ['protanopia', 'deuteranopia']) {
      const d = deltaE2000(lab(simulate(kind, red)), lab(simulate(kind, green)));
      assert.ok(d < 25, `${kind}: red and green stay ${d.toFixed(1)} apart`);
    }
  });
});

for (const scheme of SCHEMES) {
  describe(`the palette, ${scheme}`, () => {
    const colors = paletteIn(scheme);
    const page = pageIn(scheme);
    const tokens = pick(colors, '--token-');
    const causes = pick(colors, '--cause-');
    const values = valueScale(colors);

    test('it has eight tokens, five causes and both ends of the scale', () => {
      assert.equal(tokens.length, 8);
      assert.equal(causes.length, 5);
      for (const name of ['--eq-neg', '--eq-zero', '--eq-pos', '--eq-nan']) assert.ok(colors[name]);
    });

    for (const vision of VISIONS) {
      test(`${vision}: no token or cause looks like a value`, () => {
        assert.deepEqual(tooClose(vision, [...tokens, ...causes], values, UNLIKE_VALUES), []);
      });
      test(`${vision}: no two tokens look alike, nor two causes`, () => {
        assert.deepEqual(tooClose(vision, tokens, null, APART), []);
        assert.deepEqual(tooClose(vision, causes, null, APART), []);
      });
    }

    // Where text sits on these fills, as the picture, the heatmap and the tables draw it.
    test('text on the fills reads at 4.5:1', () => {
      const low = [];
      const check = (where, ink, fill) => {
        const ratio = contrast(parseHex(ink), parseHex(fill));
        if (ratio < TEXT) low.push(`${where}: ${ink} on ${fill} is ${ratio.toFixed(2)}:1`);
      };
      // A value's number on its cell, anywhere on the scale; NaN's on its own fill.
      for (const [name, fill] of values.slice(0, -1)) check(name, page['--text'], fill);
      check('zero', page['--text'], colors['--eq-zero']);
      check('a zero of the one-hot', page['--muted'], colors['--eq-zero']);
      check('NaN', page['--text'], colors['--eq-nan']);
      for (const [name, ink] of [...tokens, ...causes]) {
        check(`the lit 1 of ${name}`, colors['--accent-text'], ink);
        check(`another token's 1, ${name} on zero`, ink, colors['--eq-zero']);
        check(`a label or glyph in ${name}`, ink, page['--panel']);
      }
      assert.deepEqual(low, []);
    });
  });
}
