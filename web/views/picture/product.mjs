// The picture's product mode, one_hot(idx) × W = out, and its steps: for the selected token k,
// each drawn row r of W times its one-hot entry (0 · W[r] = 0, or 1 · W[k] = W[k]), outlined
// with the entry, added to the running sum in row k of out; a row on its way slides to out at
// full size (none with reduced motion). The last step is the picture at rest: only row idx[k]
// survived.
import { count, percent } from '../../model/format-number.mjs';
import { tokenRow } from '../../model/picture-names.mjs';
import { productStory, productSteps, runningSums } from '../../model/picture-play.mjs';
import { ease, ghostOf, markRow, pending, rowTexts, showValue, vectorOf } from './motion.mjs';

export const productMode = {
  label: 'Product',
  title: 'Two routes, one result', // the heading of the section that shows the picture
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
  story: (result, step, slots) =>
    productStory(result, step, productSteps(slots.vocab, result.ids[step])),
  player({ lab, result, step, scene, at, slots, wanted, colors }) {
    const id = result.ids[step];
    const steps = productSteps(slots.vocab, id);
    const sums = runningSums(result.weight, scene.shownDims, id, steps);
    const texts = rowTexts(lab, scene, sums);
    // The line below spells the columns slotsFor() picks, also where fewer are drawn.
    const wantedDims = wanted.dim.filter((j) => j !== null);
    const spelled = rowTexts(lab, scene, runningSums(result.weight, wantedDims, id, steps));
    const stepOf = new Map(slots.vocab.map((v, r) => [v, r])); // a drawn row's step: its slot
    const tokenY = scene.tokenY.get(step);
    const template = slots.vocab.find((v) => v !== null); // a drawn row: where a run's ghost copies its cells
    return {
      // Step `index` with its move `moved` of the way (0 to 1) done; the last step: at rest.
      apply(index, moved) {
        if (index >= steps.length) return null;
        const s = steps[index];
        const added = moved === 1 ? index : index - 1; // the last step whose row is in the sum
        for (const c of scene.cells) {
          const slot = stepOf.get(c.v);
          if (c.grid === 'weight') c.dimmed = slot < index && c.v !== id;
          else if (c.grid === 'onehot' && c.k === step) c.dimmed = slot < index && !c.one;
          else if (c.grid === 'out' && c.k === step) {
            if (added < 0) pending(c, colors);
            else showValue(scene, c, sums[added][c.column], texts[added][c.column], colors);
          }
        }
        // The notes of the rows multiplied so far stay; those not reached yet wait.
        for (const t of scene.texts) if (t.kind === 'note') t.hidden = t.slot > added;
        const entry = s.from <= id && id <= s.to ? 1 : 0;
        const rowOf = s.from === s.to ? s.from : template;
        // The row of W and its one-hot entry that this step multiplies, outlined.
        markRow(scene, 'weight', (c) => c.v === rowOf, colors.token(step));
        markRow(scene, 'onehot', (c) => c.k === step && c.v === rowOf, colors.token(step));
        if (moved < 1) {
          const p = ease(moved);
          const from = at.vocabY.at[s.slot];
          scene.ghosts.push(
            ghostOf(scene, 'weight', (c) => c.v === rowOf, {
              x: at.weightX.at[0] + p * (at.outX.at[0] - at.weightX.at[0]),
              y: from + p * (tokenY - from),
              scale: 1,
              label: `${entry} ·`,
              blank: entry === 0,
            }),
          );
        }
        return {
          detail: `${tokenRow('out', step, id)} so far = ${added < 0 ? '[…]' : vectorOf(spelled[added], wanted.dim)}`,
        };
      },
    };
  },
};
