// The page's colours for what is painted on a canvas (the heatmaps, the equation picture): CSS
// custom properties resolved to [r, g, b], their mixes, and a way to hear of a new colour scheme,
// since a canvas does not restyle itself as SVG and HTML do.

// A resolved CSS colour as [r, g, b, a] (r, g, b in 0–255, a in 0–1). A computed colour is
// mostly rgb() or rgba(), read from its text; another syntax (color-mix() computes to color() or
// oklab()) is drawn on a pixel and read back, which costs milliseconds: remembered.
const RGB = /^rgba?\((\d+(?:\.\d+)?), (\d+(?:\.\d+)?), (\d+(?:\.\d+)?)(?:, ([\d.]+))?\)$/;
const rgbas = new Map();
let pixel = null;
function rgbaOf(color) {
  const rgb = RGB.exec(color);
  if (rgb) return [+rgb[1], +rgb[2], +rgb[3], rgb[4] === undefined ? 1 : +rgb[4]];
  if (!rgbas.has(color)) {
    pixel ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    pixel.clearRect(0, 0, 1, 1);
    pixel.fillStyle = color;
    pixel.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = pixel.getImageData(0, 0, 1, 1).data;
    rgbas.set(color, [r, g, b, a / 255]);
  }
  return rgbas.get(color);
}

// names: { key: custom property } (styles/palette.css). Returns { key: [r, g, b, a] } as they
// resolve inside `node` now: through an element's computed colour, so that light-dark(),
// currentColor and color-mix() in the properties (<embedding-demo>'s palette) resolve as CSS
// does; a property that is not set reads as the text colour. A probe per colour, all placed
// before the first is read: one style pass. Read once, and again on a new colour scheme.
export function readColors(node, names) {
  const probes = Object.entries(names).map(([key, property]) => {
    const probe = document.createElement('span');
    probe.hidden = true;
    probe.style.color = `var(${property})`;
    return [key, probe];
  });
  node.append(...probes.map(([, probe]) => probe));
  const colors = Object.fromEntries(
    probes.map(([key, probe]) => [key, rgbaOf(getComputedStyle(probe).color)]),
  );
  for (const [, probe] of probes) probe.remove();
  return colors;
}

// The canvases to repaint on a theme change, held weakly: a heatmap or a picture that the page
// has replaced (a box turned back into a table, another view of <embedding-demo>) goes with its
// node, and with it the matrices it drew.
const watched = new Set(); // WeakRef(node)
const callbacks = new WeakMap(); // node -> callback
let observer = null; // one for every page-wide source of a theme change

function themeChanged() {
  for (const ref of watched) {
    const node = ref.deref();
    if (node) callbacks.get(node)();
    else watched.delete(ref);
  }
}

// callback() when the colours `node` resolves may have changed: a new colour scheme (light and
// dark mode set other custom properties); a page that switches its own theme, which it does on
// <html> or <body> (a class, an attribute, a style); or new --embedlab-* properties on the
// <embedding-demo> around it (its style or class). Call it once `node` is in its document.
export function onThemeChange(node, callback) {
  if (!observer) {
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', themeChanged);
    observer = new MutationObserver(themeChanged);
    for (const root of [document.documentElement, document.body])
      observer.observe(root, { attributes: true });
  }
  for (let root = node.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
    observer.observe(root.host, { attributes: true, attributeFilter: ['style', 'class'] });
  }
  callbacks.set(node, callback);
  watched.add(new WeakRef(node));
}

// Mixing in Oklab, as CSS color-mix(in oklab, …) does: halfway between two colours looks
// halfway to the eye. The matrices are Björn Ottosson's definition of Oklab.
const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const fromLinear = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

function oklab([r, g, b]) {
  const [lr, lg, lb] = [r, g, b].map((c) => toLinear(c / 255));
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

function rgbFromOklab([L, a, b]) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  return linear.map((c) => Math.round(255 * Math.min(1, Math.max(0, fromLinear(c)))));
}

// `share` (0 to 1) of colour `to` over colour `from`, both [r, g, b, a]; as CSS, the colours are
// weighted by their opacity.
export function mix(from, to, share) {
  const alpha = from[3] + share * (to[3] - from[3]);
  if (alpha === 0) return [0, 0, 0, 0];
  const a = oklab(from).map((v) => v * from[3]);
  const b = oklab(to).map((v) => v * to[3]);
  return [...rgbFromOklab(a.map((v, i) => (v + share * (b[i] - v)) / alpha)), alpha];
}

export const cssColor = ([r, g, b, a]) => `rgba(${r}, ${g}, ${b}, ${a})`;
