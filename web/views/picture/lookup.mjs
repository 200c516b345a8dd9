// The picture's lookup mode, idx → W[idx] = out, and its two steps: an arrow from idx[k]
// straight to row idx[k] of W, then that row copied into row k of out: d copies, no
// multiply-add, no one-hot. The arrow is labelled with the verdict on both routes (the core's
// grade). Once the row is in place, the picture is at rest.
import { count } from '../../model/format-number.mjs';
import { tokenRow, vocabRow } from '../../model/picture-names.mjs';
import { lookupStory } from '../../model/picture-play.mjs';
import { ease, ghostOf, markRow, pending } from './motion.mjs';

export const lookupMode = {
  label: 'Lookup',
  title: 'Two routes, one result', // the heading of the section that shows the picture
  name: 'idx → W[idx] = out',
  counts({ ids, dim }) {
    const n = ids.length;
    return [
      ['useful', ['copies', ''], 'n·d', count(n * dim)],
      ['wasted', ['multiply-adds', ''], 'no one-hot', '0'],
    ];
  },
  story: (result, step) => lookupStory(result, step),
  player({ result, step, scene, at, colors }) {
    const id = result.ids[step];
    const rowY = scene.vocabY.get(id);
    const tokenY = scene.tokenY.get(step);
    return {
      // Step 0 draws the arrow to row idx[k] of W; step 1 carries that row to out.
      apply(index, moved) {
        if (index === 1 && moved === 1) return null;
        for (const c of scene.cells) if (c.grid === 'out' && c.k === step) pending(c, colors);
        markRow(scene, 'weight', (c) => c.v === id, colors.token(step));
        if (index === 1) {
          const p = ease(moved);
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
          arrow: index === 0 ? moved : 1,
          detail: `${tokenRow('out', step, id)} = ${vocabRow('W', id)}: […]`,
        };
      },
    };
  },
};
