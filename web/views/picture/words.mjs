// The picture's words: the selected token's way through it and its values in the line below
// it, and, for a screen reader, the slider's name and value and a description of the whole.
import { element, writeAttribute, writeProperty } from '../../draw/dom.mjs';
import { count } from '../../model/format-number.mjs';
import { tokenLabel, tokenRow, vocabRow } from '../../model/picture-names.mjs';
import { termsOf } from '../../model/picture-play.mjs';
import { vectorOf } from './motion.mjs';

// The selected token's way through the picture, named as model/picture-names.mjs names rows:
// "[1] ·cat → 3797 → W[3797] → out[1]" in Text mode, "idx[1] = 3797 → W[3797] → out[1]"
// otherwise; backward "G[1] · id 3797 → dW[3797]".
function pathOf(mode, { result, step, texts }) {
  const id = result.ids[step];
  const start = texts ? `${tokenLabel(step, texts[step])} → ${id}` : `idx[${step}] = ${id}`;
  return mode === 'backward'
    ? `${texts ? `${tokenLabel(step, texts[step])}: ` : ''}${tokenRow('G', step, id)} → ${vocabRow('dW', id)}`
    : `${start} → ${vocabRow('W', id)} → out[${step}]`;
}

// The line below the picture at rest: the token's way and the values it ends with, in the
// columns slotsFor() picks (a narrow picture draws fewer), in the notation of the values drawn.
// drawn: { scene, wanted (slotsFor()'s slots) }.
export function restingDetail(lab, mode, state, drawn) {
  const { result, step, grads } = state;
  const { scene, wanted } = drawn;
  const id = result.ids[step];
  const value =
    mode === 'backward' ? (j) => grads.rows.get(id)?.[j] ?? 0 : (j) => result.weight.at(id, j);
  const row = lab.formatElements(scene.notation, wanted.dim.filter((j) => j !== null).map(value));
  if (mode === 'backward') {
    return `${pathOf(mode, state)}: ${vocabRow('dW', id)} = ${termsOf(grads.positions.get(id))} = ${vectorOf(row, wanted.dim)}`;
  }
  return `${pathOf(mode, state)} = ${vectorOf(row, wanted.dim)}`;
}

// What stays the same while the token, the mode and the shape do: the slider's name and value,
// the description, the counts. modes: the modes by name ({ name, counts }).
export function createDescriber({ frame, description, counts }, modes) {
  let described = ''; // what was last written, as a key
  return (mode, state) => {
    const { result, step } = state;
    const { ids, vocab, dim } = result;
    const n = ids.length;
    const id = ids[step];
    const path = pathOf(mode, state);
    const key = [mode, n, vocab, dim, step, path].join('|');
    if (key === described) return;
    described = key;
    const token = `token ${count(step + 1)} of ${count(n)}`;
    writeAttribute(frame, 'aria-label', `Picture: ${modes[mode].name}`);
    writeAttribute(frame, 'aria-valuemax', n);
    writeAttribute(frame, 'aria-valuenow', step + 1);
    writeAttribute(frame, 'aria-valuetext', `${token}: ${path}`);
    const sentence = {
      product:
        `one_hot(idx), ${n} × ${vocab}, times W, ${vocab} × ${dim}, equals out, ${n} × ${dim}. ` +
        `${tokenRow('out', step, id)}: the 1 in column ${id} of one_hot's row [${step}] picks ` +
        `${vocabRow('W', id)}, which becomes out[${step}]; the other ${count(vocab - 1)} rows of W ` +
        'are multiplied by 0.',
      lookup:
        `idx, ${n} ids, names rows of W, ${vocab} × ${dim}, copied into out, ${n} × ${dim}. ` +
        `${tokenRow('out', step, id)}: ${vocabRow('W', id)} is copied into out[${step}].`,
      backward:
        `one_hot(idx) transposed, ${vocab} × ${n}, times G = dL/dout, ${n} × ${dim}, drawn with ` +
        `seed ${state.grads?.seed}, equals dW, ${vocab} × ${dim}: each row of G is added into ` +
        `the row of dW its id names. ${tokenRow('G', step, id)}: its column of one_hot(idx)ᵀ ` +
        `holds its 1 at id ${id}, so G[${step}] is added into ${vocabRow('dW', id)}.`,
    }[mode];
    writeProperty(description, 'textContent', sentence);
    const stat = ([className, [term, more], formula, amount]) => {
      const span = element('span', `equation-stat ${className}`);
      const strong = element('strong', '', term);
      if (more) strong.append(element('span', 'long-term', more));
      span.append(strong, ' ', element('span', 'nowrap', `${formula} = ${amount}`));
      return span;
    };
    counts.replaceChildren(...modes[mode].counts(result).map(stat));
  };
}
