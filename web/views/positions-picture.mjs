// The positions view's picture: one row b of the batch as token rows + position rows = input
// rows (model/positions-scene.mjs), painted on a canvas like the first screen's picture
// (draw/picture-paint.mjs), with a slider over the batch's rows; below it, on demand, each
// tensor as PyTorch prints it (lab.formatTensor). A canvas and a few controls, not a table per
// tensor: the page holds no element per value.
import { element, writeAttribute, writeProperty } from '../draw/dom.mjs';
import { scrollRegion } from '../draw/scroll-region.mjs';
import { adoptStyleSheet } from '../draw/style-sheets.mjs';
import positionsCss from '../styles/positions.css';
import { createPalette, paint, textLook, valueColors } from '../draw/picture-paint.mjs';
import { count } from '../model/format-number.mjs';
import { positionsScene } from '../model/positions-scene.mjs';

// The printouts: [what is printed, the tensor (of the drawn data, for batch row b), the
// grad_fn PyTorch prints after it].
const PRINTED = [
  ['pos_embeddings', (d) => d.pos, 'EmbeddingBackward0'],
  [
    'F.one_hot(torch.arange(T), context_length).float() @ pos_embedding_layer.weight',
    (d) => d.product,
    'MmBackward0',
  ],
  ['token_embeddings[b]', (d, b) => rowOf(d.tokens, b, d.T), 'SelectBackward0'],
  ['input_embeddings[b]', (d, b) => rowOf(d.sum, b, d.T), 'SelectBackward0'],
];

// Row b of a (B·T × d) batch: its T × d rows.
const rowOf = (m, b, T) => ({
  rows: T,
  cols: m.cols,
  data: m.data.subarray(b * T * m.cols, (b + 1) * T * m.cols),
});

// container: where the picture goes; lab: the WebAssembly module. Returns draw(data) for
// { tokens, pos, product, sum (Matrices: B·T × d, T × d, T × d, B·T × d), ids (B·T), B, T }.
export function createPositionsPicture(container, lab) {
  adoptStyleSheet(container.getRootNode(), positionsCss);
  const figure = element('figure', 'positions-picture');
  const pick = element('div', 'positions-row');
  const slider = element('input', 'positions-slider');
  slider.type = 'range';
  slider.min = '0';
  slider.step = '1';
  slider.setAttribute('aria-label', 'Batch row b');
  const shown = element('output', 'positions-row-ids');
  pick.append(element('span', '', 'batch row '), element('var', '', 'b'), slider, shown);
  const frame = element('div', 'positions-frame');
  const canvas = element('canvas', 'positions-canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', 'token_embeddings[b] + pos_embeddings = input_embeddings[b]');
  frame.append(canvas);
  const printouts = element('details', 'printouts');
  printouts.append(element('summary', '', 'The tensors, as PyTorch prints them'));
  const printed = element('div', 'printouts-body');
  printouts.append(printed);
  figure.append(pick, frame, printouts);
  container.append(figure);

  let data = null;
  let b = 0;
  let width = 0;
  const colorsAndFonts = createPalette(figure, () => render());

  // The picture for batch row b at the frame's width: laid out, shaded, painted.
  function render() {
    if (!data || width === 0) return;
    const { tokens, pos, sum, ids, T } = data;
    const scene = positionsScene(
      {
        tokens: rowOf(tokens, b, T),
        pos,
        sum: rowOf(sum, b, T),
        ids: ids.slice(b * T, (b + 1) * T),
        b,
      },
      width,
      lab.formatElements,
    );
    const { colors, fonts } = colorsAndFonts();
    const font = `${scene.numberSize ?? 11}px ${fonts.mono}`;
    for (const c of scene.cells) {
      Object.assign(c, valueColors(colors, scene.scale, c.value), { text: c.number, font });
    }
    for (const t of scene.texts) [t.font, t.ink] = textLook(t, colors, fonts);
    Object.assign(scene, {
      ghosts: [],
      marks: [],
      dimmedInk: colors.muted,
      backdrop: colors.panel,
    });
    const ratio = devicePixelRatio || 1;
    canvas.width = Math.round(scene.width * ratio);
    canvas.height = Math.round(scene.height * ratio);
    canvas.style.width = `${scene.width}px`;
    canvas.style.height = `${scene.height}px`;
    paint(canvas, scene, ratio);
    canvas.scene = scene; // what it shows, for the e2e tests: text cannot be read back from pixels
    writeAttribute(
      canvas,
      'aria-label',
      `token_embeddings[${b}] + pos_embeddings = input_embeddings[${b}], ` +
        `each ${count(T)} × ${count(pos.cols)}: row t of each added to row t of the others`,
    );
  }

  // The printouts, drawn while open.
  function print() {
    if (!printouts.open || !data) return;
    printed.replaceChildren(
      ...PRINTED.flatMap(([what, tensor, gradFn]) => [
        element('p', '', `print(${what.replace('[b]', `[${b}]`)})`),
        element(
          'pre',
          'positions-printout',
          lab.formatTensor(tensor(data, b), { suffixes: [`grad_fn=<${gradFn}>`] }),
        ),
      ]),
    );
    for (const pre of printed.querySelectorAll('pre'))
      scrollRegion(pre, () => pre.previousElementSibling.textContent);
  }
  printouts.addEventListener('toggle', print);

  function select(row) {
    b = row;
    writeProperty(slider, 'value', String(b));
    const { ids, T } = data;
    const words = `${b}: ids ${ids.slice(b * T, (b + 1) * T).join(', ')}`;
    writeProperty(shown, 'textContent', ` = ${words}`);
    writeAttribute(slider, 'aria-valuetext', `row ${words}`);
    render();
    print();
  }
  slider.addEventListener('input', () => select(Number(slider.value)));

  new ResizeObserver(() => {
    if (frame.clientWidth === width) return;
    width = frame.clientWidth;
    render();
  }).observe(frame);

  return (next) => {
    data = next;
    writeAttribute(slider, 'max', String(next.B - 1));
    select(Math.min(b, next.B - 1));
  };
}
