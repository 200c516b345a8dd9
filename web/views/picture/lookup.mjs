// The picture's lookup mode, idx → W[idx] = out, and its Play: an arrow from idx[k] straight to
// row idx[k] of W, then that row copied into row k of out: d copies, no multiply-add, no
// one-hot. The arrow is labelled with the verdict on both routes (the core's grade).
import { count } from '../../model/format-number.mjs';
import { LOOKUP_STEPS } from '../../model/picture-play.mjs';
import { ease, ghostOf, pending } from './motion.mjs';

export const lookupMode = {
  label: 'Lookup',
  name: 'idx → W[idx] = out',
  counts({ ids, dim }) {
    const n = ids.length;
    return [
      ['useful', ['copies', ''], 'n·d', count(n * dim)],
      ['wasted', ['multiply-adds', ''], 'no one-hot', '0'],
    ];
  },
  player({ result, step, scene, at, colors }) {
    const { ids, dim } = result;
    const id = ids[step];
    const rowY = scene.vocabY.get(id);
    const tokenY = scene.tokenY.get(step);
    return {
      steps: LOOKUP_STEPS,
      // Step 0 draws the arrow to row idx[k] of W; step 1 carries that row to out.
      apply({ index, progress }) {
        for (const c of scene.cells) if (c.grid === 'out' && c.k === step) pending(c, colors);
        const copies = index === 0 ? 0 : Math.floor(progress * dim);
        if (index === 1) {
          const p = ease(progress);
          scene.ghosts.push(
            ghostOf(scene, 'weight', (c) => c.v === id, {
              x: at.weightX.at[0] + p * (at.outX.at[0] - at.weightX.at[0]),
              y: rowY + p * (tokenY - rowY),
              scale: 1,
              label: `W[${id}]`,
            }),
          );
        }
        return {
          arrow: index === 0 ? progress : 1,
          detail:
            `out[${step}] = W[idx[${step}]] = W[${id}]: ${count(copies)} of ${count(dim)} ` +
            'values copied, 0 multiply-adds',
        };
      },
    };
  },
};
