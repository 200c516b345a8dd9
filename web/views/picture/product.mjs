// The picture's product mode, one_hot(idx) × W = out, and its Play: for the selected token k,
// each row of W slides to row k of out multiplied by its one-hot entry, so that the V − 1 rows a
// zero multiplies shrink away and row idx[k] arrives whole; row k of out shows the running sum
// of the rows added so far, and a counter ticks the multiply-adds by zero.
import { count, percent } from '../../model/format-number.mjs';
import { productSteps, runningSums, wastedAt } from '../../model/picture-play.mjs';
import { ease, ghostOf, pending, rowTexts, showValue, vectorOf } from './motion.mjs';

// "rows 0–2", "row 3": the rows of W a play has added so far.
const rowsText = (last) => (last === 0 ? 'row 0' : `rows 0–${count(last)}`);

export const productMode = {
  label: 'Product',
  name: 'one_hot(idx) × W = out',
  // The work of the whole batch: [class, [term, what a phone leaves out of it], formula, amount].
  counts({ ids, vocab, dim }) {
    const n = ids.length;
    const wasted = n * (vocab - 1) * dim;
    return [
      ['useful', ['useful', ' multiply-adds'], 'n·d', count(n * dim)],
      [
        'wasted',
        ['by zero', ' (dimmed)'],
        'n·(V−1)·d',
        `${count(wasted)} (${percent(wasted, n * vocab * dim)})`,
      ],
    ];
  },
  player({ lab, result, step, scene, at, slots, colors }) {
    const { ids, vocab, dim } = result;
    const id = ids[step];
    const steps = productSteps(slots.vocab, id);
    const sums = runningSums(result.weight, scene.shownDims, id, steps);
    const texts = rowTexts(lab, scene, sums);
    const stepOf = new Map(slots.vocab.map((v, r) => [v, r])); // a drawn row's step: its slot
    const tokenY = scene.tokenY.get(step);
    const template = slots.vocab.find((v) => v !== null); // a drawn row: where a run's ghost copies its cells
    return {
      steps: steps.length,
      apply({ index, progress }) {
        for (const c of scene.cells) {
          const done = stepOf.get(c.v) < index;
          if (c.grid === 'weight') c.dimmed = done && c.v !== id;
          else if (c.grid === 'onehot' && c.k === step) c.dimmed = done && !c.one;
          else if (c.grid === 'out' && c.k === step) {
            if (index === 0) pending(c, colors);
            else showValue(scene, c, sums[index - 1][c.column], texts[index - 1][c.column], colors);
          }
        }
        const s = steps[index];
        const p = ease(progress);
        const from = at.vocabY.at[s.slot];
        const entry = s.zeros === s.rows ? 0 : 1;
        scene.ghosts.push(
          ghostOf(scene, 'weight', (c) => c.v === (s.from === s.to ? s.from : template), {
            x: at.weightX.at[0] + p * (at.outX.at[0] - at.weightX.at[0]),
            y: from + p * (tokenY - from),
            scale: entry === 1 ? 1 : 1 - progress,
            label: s.from === s.to ? `×${entry}` : `×0 (${count(s.rows)} rows)`,
            blank: s.from !== s.to,
          }),
        );
        // The one-hot entry this step multiplies by, outlined.
        const multiplier = scene.cells.find(
          (c) => c.grid === 'onehot' && c.k === step && c.v === s.from,
        );
        if (multiplier) {
          scene.marks.push({
            x: multiplier.x,
            y: multiplier.y,
            width: multiplier.width,
            height: scene.cell,
            color: colors.token(step),
          });
        }
        const added = index > 0 ? steps[index - 1].to : null;
        return {
          detail:
            `${added === null ? 'no row' : rowsText(added)} of ${count(vocab)} added, ` +
            `${count(wastedAt(steps, dim, { index, progress }))} of ${count((vocab - 1) * dim)} ` +
            `multiply-adds by zero so far; out[${step}] = ` +
            `${added === null ? '[…]' : vectorOf(texts[index - 1], slots.dim)}`,
        };
      },
    };
  },
};
