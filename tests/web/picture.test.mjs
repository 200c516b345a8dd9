// The picture's pure modules in Node, no browser: which labels it draws where they crowd, what
// each mode's scene holds, and the stepper's steps, words, moves and running sums. Every expected
// value is worked out by hand.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { layout, slotsFor, thinLabels } from '../../web/model/picture-layout.mjs';
import {
  backwardSteps,
  backwardStory,
  lookupStory,
  predictQuestion,
  predictReply,
  productSteps,
  productStory,
  runningSums,
} from '../../web/model/picture-play.mjs';
import * as stepper from '../../web/model/picture-stepper.mjs';
import { rowLabel, sceneOf, tokenTexts } from '../../web/model/picture-scene.mjs';
import { positionsScene } from '../../web/model/positions-scene.mjs';
import { rowWindow } from '../../web/model/row-window.mjs';

// A stand-in for lab.formatElements: the values to 4 decimals (the notation is the core's,
// checked in the browser; here only which numbers are asked for matters).
const formatElements = (shown, values) => Array.from(values, (v) => v.toFixed(4));
const matrix = (rows, cols, f) => ({
  rows,
  cols,
  data: Float32Array.from({ length: rows * cols }, (_, i) => f(Math.floor(i / cols), i % cols)),
});

describe('thinLabels', () => {
  test('labels that fit are all drawn', () => {
    const spans = [0, 20, 40, 60].map((at) => ({ at, size: 10 }));
    assert.deepEqual(thinLabels(spans), ['label', 'label', 'label', 'label']);
  });

  test('crowded labels: the kept one and the ends first, an ellipsis for each run left out', () => {
    // Ten labels 10 px wide, 6 px apart: every other one overlaps its neighbours.
    const spans = Array.from({ length: 10 }, (_, i) => ({ at: i * 6, size: 10 }));
    const shown = thinLabels(spans, [4]);
    assert.equal(shown[4], 'label', 'the kept label is always drawn');
    assert.equal(shown[0], 'label');
    assert.equal(shown[9], 'label');
    // No two drawn labels overlap (with the 3 px pad), and no label touches an ellipsis.
    const drawn = shown.flatMap((s, i) =>
      s === 'none' ? [] : [[spans[i].at, s === 'label' ? 10 : 8]],
    );
    for (let a = 0; a < drawn.length; ++a) {
      for (let b = a + 1; b < drawn.length; ++b) {
        const gap = Math.abs(drawn[a][0] - drawn[b][0]) - (drawn[a][1] + drawn[b][1]) / 2;
        assert.ok(gap >= 3, `spans ${drawn[a]} and ${drawn[b]} overlap`);
      }
    }
    // Centres 6 px apart: a label needs 13 px from the next (half of each, and the pad), an
    // ellipsis 12: the kept label at 24 and the ends at 0 and 54 leave room for none, but for
    // an ellipsis in each run between them (at 12 and 36).
    assert.deepEqual(shown, [
      'label',
      'none',
      'ellipsis',
      'none',
      'label',
      'none',
      'ellipsis',
      'none',
      'none',
      'label',
    ]);
  });

  test('a kept label wins over the ends', () => {
    const spans = [
      { at: 0, size: 30 },
      { at: 10, size: 30 },
    ];
    assert.deepEqual(thinLabels(spans, [1]), ['none', 'label']);
  });
});

describe('Play', () => {
  test("the product's steps: one per drawn row of W, a skipped run as one", () => {
    // V = 100, rows 0, 5, 8 and 99 drawn; the token's id is 5.
    const steps = productSteps([0, null, 5, null, 8, null, 99], 5);
    assert.deepEqual(
      steps.map((s) => [s.from, s.to, s.rows, s.zeros]),
      [
        [0, 0, 1, 1],
        [1, 4, 4, 4],
        [5, 5, 1, 0],
        [6, 7, 2, 2],
        [8, 8, 1, 1],
        [9, 98, 90, 90],
        [99, 99, 1, 1],
      ],
    );
    assert.deepEqual(
      backwardSteps([0, 1, null, 6]).map((s) => [s.from, s.to]),
      [
        [0, 0],
        [1, 1],
        [2, 5],
        [6, 6],
      ],
    );
  });

  test("the product's story: each row times its entry in words, then only row k survived", () => {
    // ids [2, 3, 1], V = 4, d = 5, token 0 (id 2): rows 0 to 3 drawn, then the end.
    const result = { ids: [2, 3, 1], vocab: 4, dim: 5 };
    const story = productStory(result, 0, productSteps([0, 1, 2, 3], 2));
    assert.deepEqual(
      story.map((s) => s.equation),
      ['0 · W[0] = 0', '0 · W[1] = 0', '1 · W[2] = W[2]', '0 · W[3] = 0', 'out[0] = W[2]'],
    );
    // One numbering: out's row by its position and its id, W's row by its id.
    assert.equal(
      story[1].caption,
      'W[1] is multiplied by one_hot[0, 1] = 0: it adds nothing to out[0] · id 2.',
    );
    assert.equal(
      story[2].caption,
      'W[2] is multiplied by one_hot[0, 2] = 1: it is added to out[0] · id 2 whole.',
    );
    // (V − 1)·d = 3·5 = 15 for the token, n·(V − 1)·d = 3·3·5 = 45 for the batch.
    assert.equal(
      story[4].caption,
      "Only W[2] survived: out[0] · id 2 = W[2], the lookup's row. The other 3 rows of W cost " +
        '15 multiply-adds by zero for this token, n·(V−1)·d = 45 for all 3 tokens.',
    );
    // Each step names the row of W it multiplies.
    assert.deepEqual(
      story.map((s) => s.row),
      [0, 1, 2, 3, null],
    );
  });

  test('before the row that survives, the learner is asked which row of W out[k] will be', () => {
    // ids [2, 3, 1], token 0 (id 2): asked on the steps of rows 0 and 1, not from row 2 on.
    const story = productStory(
      { ids: [2, 3, 1], vocab: 4, dim: 5 },
      0,
      productSteps([0, 1, 2, 3], 2),
    );
    const asked = { k: 0, id: 2, answer: 2, choices: [0, 1, 2, 3] };
    assert.deepEqual(
      story.map((s) => s.predict ?? null),
      [asked, asked, null, null, null],
    );
    assert.equal(predictQuestion(asked), 'Predict: which row of W will out[0] · id 2 be?');
    assert.equal(
      predictReply(asked, 2),
      "W[2]: right. one_hot[0, 2] = 1 is the only 1 of out[0] · id 2's one-hot row, so W[2] " +
        'is the only row of W that survives.',
    );
    // A wrong pick says why, without the answer: the learner tries again.
    assert.equal(
      predictReply(asked, 1),
      'Not W[1]: one_hot[0, 1] = 0, so W[1] is multiplied by 0 and adds nothing to ' +
        "out[0] · id 2. Find the 1 in one_hot's row [0], and try again.",
    );
    // Picking the token's position for its id: the reply names the mix-up.
    assert.equal(
      predictReply(asked, 0),
      'Not W[0]: one_hot[0, 0] = 0, so W[0] is multiplied by 0 and adds nothing to ' +
        "out[0] · id 2. 0 is the token's position in idx, not its id: one_hot's columns, and " +
        "W's rows, are ids. Find the 1 in one_hot's row [0], and try again.",
    );
    // GPT-2's V, id 5: the rows the steps name are offered, not the runs left out.
    const large = productStory(
      { ids: [5], vocab: 50257, dim: 2 },
      0,
      productSteps([0, null, 5, null, 50256], 5),
    );
    assert.deepEqual(large[1].predict.choices, [0, 5, 50256]);
    assert.deepEqual(
      large.map((s) => s.predict !== undefined),
      [true, true, false, false, false, false],
    );
  });

  test('a large V: the rows left out are one step, summarised with their count', () => {
    // GPT-2's V = 50,257, one token with id 5: rows 0, 5 and 50,256 drawn.
    const result = { ids: [5], vocab: 50257, dim: 2 };
    const story = productStory(result, 0, productSteps([0, null, 5, null, 50256], 5));
    assert.deepEqual(
      story.map((s) => s.equation),
      [
        '0 · W[0] = 0',
        '0 · W[1…4] = 0',
        '1 · W[5] = W[5]',
        '0 · W[6…50255] = 0',
        '0 · W[50256] = 0',
        'out[0] = W[5]',
      ],
    );
    // Rows 6 to 50,255: 50,250 rows.
    assert.equal(
      story[3].caption,
      '… 50,250 more rows × 0 …: W[6] to W[50255] are each multiplied by 0 and add ' +
        'nothing to out[0] · id 5.',
    );
    // V − 1 = 50,256 rows, times d = 2: 100,512.
    assert.match(story[5].caption, /other 50,256 rows of W cost 100,512 multiply-adds by zero/);
  });

  test("the backward story: a repeated id's row of dW collects each of its tokens' rows of G", () => {
    // ids [2, 3, 2], V = 4, d = 5: G[0] into dW[2], G[1] into dW[3], G[2] into dW[2] again.
    const result = { ids: [2, 3, 2], vocab: 4, dim: 5 };
    const story = backwardStory(result, backwardSteps([0, 1, 2]));
    assert.deepEqual(
      story.map((s) => s.equation),
      ['dW[2] += G[0]', 'dW[3] += G[1]', 'dW[2] = G[0] + G[2]', 'dW = one_hot(idx)ᵀ @ G'],
    );
    assert.equal(
      story[1].caption,
      'G[1] · id 3: its column of one_hot(idx)ᵀ holds its 1 at id 3, so G[1] is added into dW[3].',
    );
    assert.equal(
      story[2].caption,
      'G[2] · id 2 again: its column of one_hot(idx)ᵀ holds its 1 at id 2, so G[2] is added ' +
        'into dW[2], which already holds G[0].',
    );
    // Each step names the token it adds, the line below the picture follows it.
    assert.deepEqual(
      story.map((s) => s.token),
      [0, 1, 2, null],
    );
    // 2 distinct ids of 4 rows; n·d = 15 additions; n·(V − 1)·d = 3·3·5 = 45.
    assert.equal(
      story[3].caption,
      'dW = one_hot(idx)ᵀ @ G: only the 2 rows the ids name are not zero, the other 2 stay 0. ' +
        'The scatter-add made n·d = 15 additions; the matmul spends n·(V−1)·d = 45 ' +
        'multiply-adds on zeros.',
    );
    const lookup = lookupStory({ ids: [2, 3, 1], dim: 5 }, 1);
    assert.deepEqual(
      lookup.map((s) => s.equation),
      ['idx[1] = 3', 'out[1] = W[3]'],
    );
    assert.equal(
      lookup[0].caption,
      'out[1] · id 3: the lookup goes straight to W[3], with no one-hot.',
    );
  });

  test('stepper: Next and Prev from rest, in place; the ends hold', () => {
    const rest = stepper.atRest(5);
    assert.deepEqual(stepper.next(rest), { ...rest, index: 0, progress: 1 });
    assert.equal(stepper.prev(rest).index, 4, 'from rest, Prev shows the last step');
    assert.equal(stepper.next(stepper.seek(rest, 4)).index, 4);
    assert.equal(stepper.prev(stepper.seek(rest, 0)).index, 0);
    assert.equal(stepper.seek(rest, 9).index, 4);
    assert.equal(stepper.rest(stepper.seek(rest, 2)).index, null);
  });

  test('stepper: Play moves through every step at its speed and stops, in place, at the last', () => {
    // STEP_MS = 2000 ms a step at 1×: 1 s in, half-way into step 0.
    let s = stepper.play(stepper.atRest(3));
    assert.deepEqual([s.index, s.progress, s.playing], [0, 0, true]);
    s = stepper.advance(s, 1000);
    assert.deepEqual([s.index, s.progress], [0, 0.5]);
    assert.equal(stepper.moved(s.progress, false), 1, 'the move takes the first half of a step');
    assert.equal(stepper.moved(0.25, false), 0.5);
    assert.equal(stepper.moved(0.25, true), 1, 'reduced motion: in place at once');
    s = stepper.advance(s, 2000);
    assert.deepEqual([s.index, s.progress], [1, 0.5]);
    s = stepper.pause(s);
    assert.deepEqual(stepper.advance(s, 5000), s, 'paused: time moves nothing');
    s = stepper.advance(stepper.play(s), 10000);
    assert.deepEqual([s.index, s.progress, s.playing], [2, 1, false]);
    assert.ok(stepper.ended(s));
    // At 2×, a step takes 1 s; Play at the end starts again from the first step.
    s = stepper.advance(stepper.play(stepper.withSpeed(s, 2)), 1500);
    assert.deepEqual([s.index, s.progress], [1, 0.5]);
  });

  test('the running sum is 0 until row idx[k] is added, then that row; NaN from 0 · Inf; +0 over −0', () => {
    // W (4 × 2): row 1 holds an Inf, row 2 (the id) a −0 and 2.5.
    const W = rowWindow({
      rows: 4,
      cols: 2,
      whole: { data: Float32Array.of(1, -1, Infinity, 3, -0, 2.5, 4, 5) },
    });
    const steps = productSteps([0, 1, 2, 3], 2);
    const sums = runningSums(W, [0, 1], 2, steps).map((row) => [...row]);
    assert.deepEqual(sums, [
      [0, 0],
      [NaN, 0],
      [NaN, 2.5],
      [NaN, 2.5],
    ]);
    assert.ok(Object.is(sums[0][1], 0), '0 + 0 · (−1) = +0: the sum starts at +0');
    // Without the Inf: a −0 weight picked by the 1 still sums to +0, as the product does.
    const finite = rowWindow({
      rows: 4,
      cols: 2,
      whole: { data: Float32Array.of(1, -1, 7, 3, -0, 2.5, 4, 5) },
    });
    const [last] = runningSums(finite, [0], 2, steps).slice(-1);
    assert.ok(Object.is(last[0], 0));
  });

  test('of a table held in part, the rows not on the page add nothing', () => {
    // Rows 0 and 2 held; row 1 (an Inf in the file, say) is not on the page.
    const W = rowWindow({
      rows: 4,
      cols: 2,
      kept: Float64Array.of(0, 2),
      keptRows: { data: Float32Array.of(1, -1, -0, 2.5) },
    });
    const sums = runningSums(W, [0, 1], 2, productSteps([0, 1, 2, 3], 2)).map((row) => [...row]);
    assert.deepEqual(sums, [
      [0, 0],
      [0, 0],
      [0, 2.5],
      [0, 2.5],
    ]);
  });
});

describe('picture scene', () => {
  const result = (ids, vocab, dim) => {
    const weight = matrix(vocab, dim, (v, j) => v + j / 10);
    const picked = matrix(ids.length, dim, (k, j) => weight.data[ids[k] * dim + j]);
    return {
      ids,
      vocab,
      dim,
      weight: rowWindow({ rows: vocab, cols: dim, whole: weight }),
      lookup: picked,
      product: picked,
    };
  };
  const sceneFor = (r, step, width, options = {}) => {
    const slots = slotsFor(r, step);
    const labels = Object.fromEntries(
      slots.tokens.filter((k) => k !== null).map((k) => [k, rowLabel(k, r.ids, options.texts)]),
    );
    const at = layout(width, 300, slots, labels, {
      transposed: options.mode === 'backward',
      notes: options.notes,
    });
    return sceneOf(r, slots, at, { mode: 'product', step, formatElements, ...options });
  };
  const grid = (scene, name) => scene.cells.filter((c) => c.grid === name);
  const texts = (scene, kind) => scene.texts.filter((t) => t.kind === kind).map((t) => t.text);

  test('product: the one-hot, W and out, "×" and "=", numbers where cells are wide', () => {
    const scene = sceneFor(result([2, 3, 1], 4, 5), 0, 1200);
    assert.equal(grid(scene, 'onehot').length, 12);
    assert.deepEqual(
      grid(scene, 'onehot')
        .filter((c) => c.one)
        .map((c) => [c.k, c.v]),
      [
        [0, 2],
        [1, 3],
        [2, 1],
      ],
    );
    assert.equal(grid(scene, 'weight').length, 20);
    assert.deepEqual(
      grid(scene, 'out')
        .filter((c) => c.k === 0)
        .map((c) => c.number),
      ['2.0000', '2.1000', '2.2000', '2.3000', '2.4000'],
    );
    assert.deepEqual(texts(scene, 'operator'), ['×', '=']);
    assert.deepEqual(texts(scene, 'name'), ['one_hot(idx)', 'W', 'out']);
    assert.deepEqual(texts(scene, 'shape'), ['3 × 4', '4 × 5', '3 × 5']);
  });

  test("W's notes: what the product does with each row, naming the rows where stacked", () => {
    const r = result([2, 3, 1], 4, 5);
    const side = sceneFor(r, 0, 1200, { notes: true });
    assert.deepEqual(texts(side, 'note'), [
      '0 · W[0] = 0',
      '0 · W[1] = 0',
      '1 · W[2]',
      '0 · W[3] = 0',
    ]);
    assert.deepEqual(
      side.texts.filter((t) => t.kind === 'note').map((t) => [t.one, t.bare]),
      [
        [false, null],
        [false, null],
        [true, null],
        [false, null],
      ],
    );
    // Stacked (a phone), the notes stand in W's labels' place: a note not reached yet shows
    // the row's bare name, and W has no labels of its own.
    const phone = sceneFor(r, 0, 332, { notes: true });
    assert.deepEqual(
      phone.texts.filter((t) => t.kind === 'note').map((t) => t.bare),
      ['W[0]', 'W[1]', 'W[2]', 'W[3]'],
    );
    const rowLabels = (scene) =>
      scene.texts.filter((t) => t.kind === 'label' && t.align === 'right').map((t) => t.text);
    assert.deepEqual(rowLabels(side), ['0', '1', '2', '3']);
    assert.deepEqual(rowLabels(phone), []);
    // The lookup keeps their room and draws none.
    assert.deepEqual(texts(sceneFor(r, 0, 1200, { notes: true, mode: 'lookup' }), 'note'), []);
  });

  test('lookup: idx instead of the one-hot, its ids as cells, out from the lookup', () => {
    const scene = sceneFor(result([2, 3, 1], 4, 5), 1, 1200, { mode: 'lookup' });
    assert.equal(grid(scene, 'onehot').length, 0);
    assert.deepEqual(
      grid(scene, 'idx').map((c) => c.number),
      ['2', '3', '1'],
    );
    assert.deepEqual(texts(scene, 'operator'), ['=']);
    assert.deepEqual(texts(scene, 'name'), ['idx', 'W', 'out']);
    assert.deepEqual(texts(scene, 'shape'), ['3', '4 × 5', '3 × 5']);
  });

  test('backward: one_hot(idx)ᵀ @ G = dW, each 1 in the row of dW its column adds into, rows no id names at 0', () => {
    const r = result([2, 3, 2], 4, 2);
    const G = matrix(3, 2, (k, j) => 10 * k + j);
    const rows = new Map([
      [2, Float32Array.of(20, 22)],
      [3, Float32Array.of(10, 11)],
    ]);
    const scene = sceneFor(r, 0, 1200, { mode: 'backward', grads: { G, rows, seed: 0 } });
    assert.deepEqual(
      grid(scene, 'grad').map((c) => [c.v, c.value]),
      [
        [0, 0],
        [0, 0],
        [1, 0],
        [1, 0],
        [2, 20],
        [2, 22],
        [3, 10],
        [3, 11],
      ],
    );
    assert.deepEqual(
      grid(scene, 'upstream').map((c) => c.value),
      [0, 1, 10, 11, 20, 21],
    );
    assert.deepEqual(texts(scene, 'name'), ['one_hot(idx)ᵀ', 'G = dL/dout', 'dW']);
    assert.deepEqual(texts(scene, 'shape'), ['4 × 3', '3 × 2, seed 0', '4 × 2']);
    assert.deepEqual(texts(scene, 'operator'), ['@', '=']);
    // one_hotᵀ: V = 4 rows, a column per token; the 1s at (2, 0), (2, 2) and (3, 1), each in
    // the row of dW it adds into, and the columns in token order, left of G, left of dW.
    const onehot = grid(scene, 'onehot');
    assert.equal(onehot.length, 12);
    assert.deepEqual(
      onehot.filter((c) => c.one).map((c) => [c.v, c.k]),
      [
        [2, 0],
        [2, 2],
        [3, 1],
      ],
    );
    const rowY = (v) => grid(scene, 'grad').find((c) => c.v === v).y;
    for (const c of onehot) assert.equal(c.y, rowY(c.v), `one_hotᵀ[${c.v}, ${c.k}] on dW's row`);
    const columnX = [0, 1, 2].map((k) => onehot.find((c) => c.k === k).x);
    assert.deepEqual(
      [...columnX].sort((a, b) => a - b),
      columnX,
    );
    const [g, dW] = ['upstream', 'grad'].map((name) => grid(scene, name)[0].x);
    assert.ok(columnX[2] < g && g < dW);
    // In a phone's column of 250 px, side by side G's two columns would be 30 px wide, too narrow
    // for numbers (the labels "[0] 2" 36 px, one-hot columns of 15 px, operators of 16 px:
    // (250 − 11.2 − 36 − 32 − 4 − 45) / 4): stacked, G on top with its short name and shape at
    // its top left, one_hotᵀ and dW under it, each named on one line.
    const narrow = sceneFor(r, 0, 250, { mode: 'backward', grads: { G, rows, seed: 0 } });
    assert.deepEqual(texts(narrow, 'name'), ['G', 'one_hot(idx)ᵀ', 'dW']);
    assert.deepEqual(texts(narrow, 'shape'), ['3 × 2', '4 × 3', '4 × 2']);
    assert.deepEqual(texts(narrow, 'operator'), []);
    const top = (name) => Math.min(...grid(narrow, name).map((c) => c.y));
    assert.ok(
      top('upstream') < top('onehot') && top('onehot') === top('grad'),
      'G over the others',
    );
    // G's rows are the tokens': row k of G level with token k's label.
    assert.deepEqual(
      [0, 1, 2].map((k) => grid(scene, 'upstream').find((c) => c.k === k).y),
      [0, 1, 2].map((k) => scene.tokenY.get(k)),
    );
  });

  test("GPT-2's one-hot header at a phone's width: the selected id always, ellipses for the rest", () => {
    const ids = [464, 3797, 3332];
    const r = result(ids, 50257, 8);
    for (const step of [0, 1, 2]) {
      const scene = sceneFor(r, step, 330);
      const header = scene.texts.filter(
        (t) => t.y === scene.texts[0].y && t.x < scene.cells.find((c) => c.grid === 'weight').x,
      );
      assert.ok(
        header.some((t) => t.text === String(ids[step])),
        `id ${ids[step]} is labelled at step ${step}`,
      );
      // 9 slots of 11 px for five labels of up to 31 px: some give way, marked where an
      // ellipsis fits (beside 3797, selected, the end's 50256 has no room even for one).
      if (step !== 1)
        assert.ok(
          header.some((t) => t.text === '…'),
          'a run left out is marked',
        );
      // No two drawn header labels overlap.
      const spans = header
        .map((t) => [t.x - (t.text.length * 6.2) / 2, t.x + (t.text.length * 6.2) / 2])
        .sort((a, b) => a[0] - b[0]);
      spans
        .slice(1)
        .forEach(([start], i) =>
          assert.ok(start >= spans[i][1], `labels ${i} and ${i + 1} overlap`),
        );
    }
    // Wide enough, every drawn id is labelled.
    const wide = sceneFor(r, 0, 1200);
    assert.deepEqual(
      wide.texts
        .filter((t) => t.kind === 'label' && t.align === 'center' && t.id !== undefined)
        .map((t) => t.text),
      ['0', '464', '3332', '3797', '50256'],
    );
  });

  test("Text mode: rows labelled with the tokens' texts, long ones cut with an ellipsis", () => {
    assert.deepEqual(
      tokenTexts({ ids: [464, 3797], labels: ['The', '·cat'] }, Float64Array.of(464, 3797)),
      ['The', '·cat'],
    );
    assert.equal(
      tokenTexts({ ids: [464, 3797], labels: ['The', '·cat'] }, [464, 3798]),
      null,
      'other ids: no texts',
    );
    assert.equal(tokenTexts(null, [464]), null);
    const scene = sceneFor(result([464, 3797], 50257, 8), 0, 1200, {
      texts: ['The', '·Supercalifragilistic'],
    });
    // Each row by its position and, in Text mode, its text.
    assert.deepEqual(
      scene.tokens.map((t) => t.label),
      ['[0] The', '[1] ·Supercal…'],
    );
    assert.equal(rowLabel(0, [464], null), '[0] 464');
  });
});

describe('positions picture', () => {
  // Batch row 0 of a (1, 2) batch, ids 5 and 7, d = 3: token rows, position rows, their sums.
  const data = {
    tokens: matrix(2, 3, (t, j) => 10 * t + j),
    pos: matrix(2, 3, (t, j) => -(t + j / 10)),
    sum: matrix(2, 3, (t, j) => 10 * t + j - (t + j / 10)),
    ids: [5, 7],
    b: 0,
  };
  const grid = (scene, name) => scene.cells.filter((c) => c.grid === name);
  const texts = (scene, kind) => scene.texts.filter((t) => t.kind === kind).map((t) => t.text);

  test('token rows + position rows = input rows, side by side where the numbers fit', () => {
    // Labels "[0, 1] 7" (8 characters) and "[1]" (3), each of 6.2 px and 8 px; two operators
    // of 26 px, 4 px at the right: (1200 − 57.6 − 26.6 − 52 − 4) / 9 = 117.8, at most 56 px.
    const scene = positionsScene(data, 1200, formatElements);
    assert.deepEqual([scene.stacked, scene.cell, scene.numbers], [false, 56, true]);
    assert.deepEqual(
      grid(scene, 'tokens').map((c) => [c.t, c.column, c.number]),
      [
        [0, 0, '0.0000'],
        [0, 1, '1.0000'],
        [0, 2, '2.0000'],
        [1, 0, '10.0000'],
        [1, 1, '11.0000'],
        [1, 2, '12.0000'],
      ],
    );
    // Row t of each grid level with row t of the others.
    for (const t of [0, 1]) {
      const ys = ['tokens', 'pos', 'sum'].map((name) => grid(scene, name).find((c) => c.t === t).y);
      assert.equal(new Set(ys).size, 1, `row ${t}`);
    }
    assert.deepEqual(texts(scene, 'operator'), ['+', '=']);
    assert.deepEqual(texts(scene, 'name'), [
      'token_embeddings[0]',
      'pos_embeddings',
      'input_embeddings[0]',
    ]);
    assert.deepEqual(
      texts(scene, 'label').filter((t) => t.startsWith('[')),
      ['[0, 0] 5', '[0, 1] 7', '[0]', '[1]'],
    );
    // One scale for the three: the largest |value| of all (12).
    assert.equal(scene.scale, 12);
  });

  test('stacked where side by side the numbers do not fit', () => {
    // 200 px: side by side the cells would be (200 − 140.2) / 9 = 6.6 px; one under another,
    // (200 − 57.6 − 4) / 3 = 46.1 px, the sum's rows labelled too.
    const scene = positionsScene(data, 200, formatElements);
    assert.deepEqual([scene.stacked, scene.cell, scene.numbers], [true, 46, true]);
    const top = (name) => Math.min(...grid(scene, name).map((c) => c.y));
    assert.ok(top('tokens') < top('pos') && top('pos') < top('sum'));
    assert.ok(scene.width <= 200, `${scene.width} px`);
    assert.deepEqual(
      texts(scene, 'label').filter(
        (t) => t.startsWith('[0, ') && !t.includes(' 5') && !t.includes(' 7'),
      ),
      ['[0, 0]', '[0, 1]'],
    );
  });
});
