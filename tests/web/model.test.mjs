// web/model/'s pure modules in Node, no browser: every expected value is worked out by hand.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { oneHotCells, transposed } from '../../web/model/cells.mjs';
import { idsText, inputsText } from '../../web/model/describe.mjs';
import { frameHeight, layout, mostRowUnits, slotsFor } from '../../web/model/picture-layout.mjs';
import { bytesText, count, duration, percent, plural } from '../../web/model/format-number.mjs';
import { heldWhole, rowWindow, windowRows, WHOLE_FLOATS } from '../../web/model/row-window.mjs';
import { countShown, shownIndices } from '../../web/model/shown-indices.mjs';
import { createStore, initialState } from '../../web/model/state.mjs';
import { fitSentence, idPastTable, tokenizerFor } from '../../web/model/tokenizer-fit.mjs';
import { readUrlState, SECTIONS, urlFor } from '../../web/model/url-state.mjs';
import { TOKENIZERS } from '../../web/tokenizers/catalog.mjs';

const NBSP = '\u00a0';

describe('format-number', () => {
  test('bytes of a file read so far', () => {
    assert.equal(bytesText(1536, 3072), '1,536 of 3,072 bytes');
    assert.equal(bytesText(2_500_000, 5_000_000), '2.5 of 5.0 MB');
    assert.equal(bytesText(52_400_000, 310_000_000), '52 of 310 MB');
  });

  test('counts, plurals and shares', () => {
    assert.equal(count(1234567), '1,234,567');
    // As en-US's Intl.NumberFormat writes them.
    for (const [n, text] of [
      [0, '0'],
      [999, '999'],
      [1000, '1,000'],
      [-1234, '-1,234'],
      [50257, '50,257'],
      [2 ** 31, '2,147,483,648'],
      [12345678901234n, '12,345,678,901,234'],
      [1234.5, '1,234.5'],
      [0.12345, '0.123'],
      [2.0004, '2'],
    ])
      assert.equal(count(n), text, `count(${n})`);
    assert.equal(plural(1, 'row', 'rows'), '1 row');
    assert.equal(plural(2000, 'row', 'rows'), '2,000 rows');
    assert.equal(percent(45, 60), '75.0%');
    // 50256 of 50257 is 99.998%: one decimal would round it up to a false 100.0%.
    assert.equal(percent(50256, 50257), '99.998%');
    assert.equal(percent(1, 1), '100.0%');
  });

  test('a time in the largest unit that keeps it at 1 or more, to 3 digits', () => {
    const cases = [
      [0.0000652, '65.2 ns'],
      [0.00099996, '1 µs'],
      [0.0652, '65.2 µs'],
      [0.01, '10 µs'],
      [0.99996, '1 ms'],
      [1.23456, '1.23 ms'],
      [530.4, '530 ms'],
      [999.96, '1 s'],
      [2500, '2.5 s'],
      [1234567, '1,235 s'],
    ];
    for (const [ms, text] of cases) assert.equal(duration(ms), text.replace(' ', NBSP), `${ms} ms`);
  });
});

describe('shown-indices', () => {
  test('all indices up to the cap, else the edges, what must stay, and gaps', () => {
    assert.deepEqual(shownIndices(4, 16), [0, 1, 2, 3]);
    assert.deepEqual(shownIndices(20, 16), [0, 1, 2, null, 17, 18, 19]);
    assert.deepEqual(shownIndices(20, 16, [9, 3]), [0, 1, 2, 3, null, 9, null, 17, 18, 19]);
    assert.deepEqual(shownIndices(20, 16, [25, -1]), [0, 1, 2, null, 17, 18, 19]);
    assert.equal(countShown([0, 1, null, 9]), 3);
  });
});

describe('cells', () => {
  test('a one-hot drawn from the ids, its block peaks, and a transpose without a copy', () => {
    const onehot = oneHotCells([2, 0], 3);
    assert.deepEqual(
      [0, 1].map((i) => [0, 1, 2].map((j) => onehot.at(i, j))),
      [
        [0, 0, 1],
        [1, 0, 0],
      ],
    );
    assert.equal(onehot.peak(0, 1, 0, 2), 0); // row 0's 1 is in column 2
    assert.equal(onehot.peak(0, 2, 0, 1), 1); // row 1's is in column 0
    const t = transposed({ rows: 2, cols: 3, data: [1, 2, 3, 4, 5, 6] });
    assert.deepEqual([t.rows, t.cols, t.at(2, 1)], [3, 2, 6]);
  });
});

describe('describe', () => {
  test("ids summarised like PyTorch beyond 8, and a result's inputs in one line", () => {
    assert.equal(idsText([2, 3, 1]), '[2, 3, 1]');
    assert.equal(idsText([...Array(12).keys()]), '[0, 1, 2, …, 9, 10, 11]');
    assert.equal(inputsText({ ids: [2, 3, 1], vocab: 4, dim: 5 }), 'idx = [2, 3, 1], V = 4, d = 5');
  });
});

describe('picture-layout', () => {
  test("small shapes are drawn whole; big ones keep the ends and the selected token's neighbours", () => {
    assert.deepEqual(slotsFor({ ids: [2, 3, 1], vocab: 4, dim: 5 }, 0), {
      tokens: [0, 1, 2],
      vocab: [0, 1, 2, 3],
      dim: [0, 1, 2, 3, 4],
      dimCount: 5,
    });
    const ids = [5, 40, 7, 8, 9, 10, 11, 12, 99];
    const slots = slotsFor({ ids, vocab: 100, dim: 768 }, 4);
    assert.deepEqual(slots.tokens, [0, null, 3, 4, 5, null, 8]);
    // Rows of W: 0, 99 and the ids of the tokens drawn (5, 8, 9, 10, 99).
    assert.deepEqual(slots.vocab, [0, null, 5, null, 8, 9, 10, null, 99]);
    assert.deepEqual(slots.dim, [0, 1, 2, null, 766, 767]);
  });

  test('mostRowUnits bounds the rows drawn for every ids and token of a shape, and is reached', () => {
    const units = (slots) =>
      slots.filter((s) => s !== null).length + 0.5 * slots.filter((s) => s === null).length;
    const drawnRows = (ids, vocab, step) => {
      const slots = slotsFor({ ids, vocab, dim: 4 }, step);
      return { tokens: units(slots.tokens), vocab: units(slots.vocab) };
    };
    // Every list of n ids below V, every token selected: the most token rows and the most rows
    // of W, reached together (by distinct ids).
    for (let n = 1; n <= 4; ++n) {
      for (let vocab = 1; vocab <= 12; ++vocab) {
        const most = { tokens: 0, vocab: 0 };
        let together = 0;
        const ids = new Array(n).fill(0);
        for (let code = 0; code < vocab ** n; ++code) {
          for (let i = 0, c = code; i < n; ++i, c = Math.floor(c / vocab)) ids[i] = c % vocab;
          for (let step = 0; step < n; ++step) {
            const drawn = drawnRows(ids, vocab, step);
            most.tokens = Math.max(most.tokens, drawn.tokens);
            most.vocab = Math.max(most.vocab, drawn.vocab);
            together = Math.max(together, drawn.tokens + drawn.vocab);
          }
        }
        assert.deepEqual(most, mostRowUnits(n, vocab), `n = ${n}, V = ${vocab}`);
        assert.equal(together, most.tokens + most.vocab, `n = ${n}, V = ${vocab}: together`);
      }
    }
    // Past the token cap: tokens 0, 3, 4, 5 and 8 drawn with two gaps, their ids and rows 0 and
    // 99 all apart: 7 rows and 6 gaps.
    assert.deepEqual(drawnRows([10, 1, 2, 20, 30, 40, 5, 6, 50], 100, 4), {
      tokens: 5 + 2 * 0.5,
      vocab: 7 + 6 * 0.5,
    });
    assert.deepEqual(mostRowUnits(9, 100), { tokens: 6, vocab: 10 });
    assert.deepEqual(mostRowUnits(64, 4096), { tokens: 6, vocab: 10 });
    assert.deepEqual(mostRowUnits(64, 8), { tokens: 6, vocab: 8 }); // every row of W
    assert.deepEqual(mostRowUnits(64, 4), { tokens: 6, vocab: 4 }); // five tokens and two gaps
  });

  test("the frame keeps the most rows' room at the row height, within the picture's room", () => {
    // Side by side, 10 rows of 20 px between the 16 px of column indices and the 34 px of
    // names: 250 px.
    assert.equal(frameHeight({ height: 120, row: 20 }, 64, 4096, 300), 250);
    assert.equal(frameHeight({ height: 120, row: 20 }, 64, 4096, 190), 190);
    assert.equal(frameHeight({ height: 280, row: 20 }, 64, 4096, 190), 280); // never less than drawn
    assert.equal(frameHeight({ height: 178, row: 40 }, 3, 4, 300), 16 + 4 * 40 + 34); // every row drawn
    // Stacked, W's 4 rows under its column indices, then the 3 tokens' under theirs, then one
    // line of names: 16 + 80 + 16 + 60 + 20.
    assert.equal(frameHeight({ height: 100, row: 20, stacked: true }, 3, 4, 300), 192);
  });

  test('cells fit the width, between 9 and 56 px, rows the height, and the grids follow one another', () => {
    const slots = slotsFor({ ids: [2, 3, 1], vocab: 4, dim: 5 }, 0);
    assert.equal(layout(1200, 300, slots, [2, 3, 1]).cell, 56); // the largest cell
    assert.equal(layout(1200, 300, slots, [2, 3, 1]).row, 56); // as high as wide
    const wide = layout(1200, 200, slots, [2, 3, 1]);
    assert.equal(wide.cell, 56); // the width's bound only
    assert.equal(wide.row, 37); // the height's bound: (200 - 16 - 34) / 4 rows, floored
    assert.equal(wide.weightX.at[0], wide.onehotX.end + 26 + wide.vocabLabels);
    assert.equal(wide.outX.at[0], wide.weightX.end + 26);
    assert.equal(wide.width, wide.outX.end + 6); // and room for the halo of out's mark
    assert.equal(layout(100, 300, slots, [2, 3, 1]).cell, 9); // never below the smallest cell
    // 720 px: equal cells of (720 − 84.4) / 14 = 45.4 px hold W's numbers (42 px), not at their
    // whole size (50 px: 11 px digits); one-hot columns of 22 px leave (720 − 84.4 − 4 · 22) / 10
    // = 54.76 px to each value cell. Labels: 1 character, 6.2 + 8 px each side; two operators of
    // 26 px, 4 px.
    assert.deepEqual(
      [layout(720, 300, slots, [2, 3, 1]).cell, layout(720, 300, slots, [2, 3, 1]).onehotCell],
      [54, 22],
    );
    // Narrower, within the 192 px a phone's picture has: one-hot columns narrowed, then the
    // picture stacked, then fewer of d's columns, each with its number.
    const narrow = (width) => {
      const at = layout(width, 192, slots, [2, 3, 1], { largestCell: 50 });
      return [at.slots.dim, at.cell, at.onehotCell, at.operator, at.numbers, at.stacked];
    };
    // 600 px: side by side, one-hot columns of 22 px leave (600 − 84.4 − 88) / 10 = 42.76 px,
    // of 15 px (with operators of 16 px and labels padded by 5) (600 − 58.4 − 60) / 10 = 48.2:
    // numbers, not at their whole size (50 px). Stacked, W over the one-hot (11.2 + 60 + 8 px
    // left of it) and out: (600 − 79.2 − 14) / 5 = 101, at most 50, in rows of
    // (192 − 16 − 16 − 20) / 7 = 20 px.
    assert.deepEqual(narrow(600), [[0, 1, 2, 3, 4], 50, 15, 0, true, true]);
    // 480 px: side by side at most (480 − 58.4 − 60) / 10 = 36.2 px; stacked (480 − 79.2 − 14)
    // / 5 = 77 px, at most 50.
    assert.deepEqual(narrow(480), [[0, 1, 2, 3, 4], 50, 15, 0, true, true]);
    // A 375 px phone's 343: stacked, (343 − 79.2 − 14) / 5 = 49.96 px; with one-hot columns of
    // 12 px and labels padded by 4, (343 − 66.2 − 14) / 5 = 52.6, at most 50.
    assert.deepEqual(narrow(343), [[0, 1, 2, 3, 4], 50, 12, 0, true, true]);
    // A 320 px phone's 270: all five would be (270 − 66.2 − 14) / 5 = 37.96 px even with
    // one-hot columns of 12 px; columns 0, 1, …, 4 (3.5 cells) stacked: (270 − 79.2 − 14) / 3.5.
    assert.deepEqual(narrow(270), [[0, 1, null, 4], 50, 15, 0, true, true]);
    // 200 px: columns 0, …, 4 stacked, (200 − 66.2 − 14) / 2.5 = 47.9 px.
    assert.deepEqual(narrow(200), [[0, null, 4], 47, 12, 0, true, true]);
    // Too narrow even for one column: all of them, side by side, as bare colours.
    assert.deepEqual(narrow(100), [[0, 1, 2, 3, 4], 9, 9, 26, false, false]);
    // Rows too low for numbers: (90 − 50) / 4 = 10 px side by side, less stacked.
    assert.equal(layout(1200, 90, slots, [2, 3, 1]).numbers, false);
    assert.equal(layout(1200, 300, slots, [2, 3, 1], { largestCell: 20 }).cell, 20); // nor above the largest given
  });

  test("W's notes take their room beside it, and name its rows where it is stacked", () => {
    const slots = slotsFor({ ids: [2, 3, 1], vocab: 4, dim: 5 }, 0);
    const labels = ['[0] 2', '[1] 3', '[2] 1'];
    // "0 · W[0] = 0": 12 characters of 6.2 px, and 6 px.
    const side = layout(1200, 300, slots, labels, { notes: true });
    assert.deepEqual(side.notes, {
      level: 'full',
      width: 12 * 6.2 + 6,
      named: false,
      x: side.weightX.end + 4,
      align: 'left',
    });
    assert.equal(side.outX.at[0], side.weightX.end + side.notes.width + 26);
    // 332 px, a 375 px phone's picture: stacked, the notes in W's labels' place over the one-hot;
    // W and out start past the wider of the notes (80.4 px) and the token labels, the one-hot's 4
    // columns of 12 px and 8 px (35 + 48 + 8 = 91 px): (332 − 91 − 14) / 5 = 45.4 px, all five
    // columns with their numbers.
    const phone = layout(332, 192, slots, labels, { notes: true, largestCell: 50 });
    assert.deepEqual(
      [phone.stacked, phone.notes.named, phone.notes.align, phone.slots.dim, phone.cell],
      [true, true, 'right', [0, 1, 2, 3, 4], 45],
    );
    assert.equal(phone.weightX.at[0], 35 + 48 + 8);
    assert.equal(phone.notes.x, phone.weightX.at[0] - 6);
  });

  test('a picture set in from the left moves across by that much, and nothing else changes', () => {
    const slots = slotsFor({ ids: [2, 3, 1], vocab: 4, dim: 5 }, 0);
    const flush = layout(1200, 200, slots, [2, 3, 1]);
    const inset = layout(1200, 200, slots, [2, 3, 1], { largestCell: 56, left: 40 });
    // The token labels' column (one character of 6.2 px, and 8 px), then the one-hot.
    assert.equal(flush.onehotX.at[0], 6.2 + 8);
    const across = (at) =>
      [at.onehotX, at.weightX, at.outX].flatMap(({ at: xs, end }) => [...xs, end]);
    assert.deepEqual(
      across(inset),
      across(flush).map((x) => x + 40),
    );
    assert.equal(inset.width, flush.width + 40);
    for (const key of ['cell', 'height', 'middle', 'tokenLabels', 'vocabLabels'])
      assert.equal(inset[key], flush[key], key);
    assert.deepEqual([inset.tokenY, inset.vocabY], [flush.tokenY, flush.vocabY]);
  });
});

describe('state', () => {
  test('a set that changes nothing tells no one; a set tells which keys changed', () => {
    const store = createStore(initialState());
    const heard = [];
    store.subscribe((state, changed) => heard.push([...changed]));
    store.set({ step: 0, hovered: null });
    store.setInputs({ idsText: '2, 3, 1' });
    assert.deepEqual(heard, []);
    store.set({ step: 2, hovered: null });
    store.setInputs({ dimText: '8' });
    assert.deepEqual(heard, [['step'], ['inputs']]);
    assert.equal(store.get().inputs.dimText, '8');
    assert.equal(store.get().inputs.idsText, '2, 3, 1');
  });
});

describe('url-state', () => {
  test('the address gives the inputs it has, a linkable source, the token and the section', () => {
    assert.deepEqual(readUrlState('?ids=4,%207&dim=3&w=tf&k=1&view=bag'), {
      inputs: { idsText: '4, 7', dimText: '3', source: 'tf' },
      step: 1,
      view: 'bag',
    });
    // A file cannot be linked, nor a token that is not a count, nor a section the page lacks.
    assert.deepEqual(readUrlState('?w=file&k=-1&view=nowhere'), { inputs: {} });
  });

  test("the views' own inputs go into the address and come back, and no others", () => {
    const views = {
      backward: { 'grad-seed': '7' },
      bag: { offsets: '0, 1', mode: 'sum' },
      positions: { 'context-length': '5' },
      head: { 'top-k': '3', batch: '1,2; 3,4' },
    };
    const href = urlFor('http://host/page?bag.weights=1&x=1', { ...initialState(), views });
    const params = new URL(href).searchParams;
    assert.equal(params.get('backward.grad-seed'), '7');
    assert.equal(params.get('bag.offsets'), '0, 1');
    assert.equal(params.get('head.batch'), '1,2; 3,4');
    assert.equal(params.has('bag.weights'), false, 'a param the state no longer has goes');
    assert.equal(params.get('x'), '1');
    assert.deepEqual(readUrlState(new URL(href).search).views, views);
    // Another view's name, or a name that is not a form's, is not the views'.
    assert.equal(readUrlState('?train.lr=1&bag.=2&Bag.mode=sum').views, undefined);
  });

  test("the sections a link can open at are the page's panels, in the page's order", () => {
    const page = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
    // Every <section class="panel"> but the story, which the page opens at anyway.
    const panels = [...page.matchAll(/<section id="([^"]+)" class="panel"/g)].map((m) => m[1]);
    assert.deepEqual(SECTIONS, panels);
  });

  test("the store's state makes an address that reads back the same, keeping others' params", () => {
    const state = { ...initialState({ idsText: '0, 5, 5', source: 'tf' }), step: 2 };
    const href = urlFor('http://host/page?utm=x', state, 'step');
    assert.equal(new URL(href).searchParams.get('utm'), 'x');
    const back = readUrlState(new URL(href).search);
    assert.deepEqual(back, {
      inputs: { idsText: '0, 5, 5', vocabText: '', dimText: '5', seedText: '123', source: 'tf' },
      step: 2,
      view: 'step',
    });
    assert.equal(
      new URL(
        urlFor(href, { ...state, inputs: { ...state.inputs, source: 'file' } }),
      ).searchParams.has('w'),
      false,
    );
  });
});

describe('row-window', () => {
  test('a small matrix is held whole, a larger one by the rows its views draw', () => {
    assert.equal(heldWhole(4096, 64), true); // 262,144 floats: 1 MiB
    assert.equal(heldWhole(4097, 64), false);
    assert.equal(WHOLE_FLOATS, 262144);
    // The first and last 3 rows, and each id's once, ascending.
    assert.deepEqual(
      Array.from(windowRows(50257, [15496, 995, 15496, 1])),
      [0, 1, 2, 995, 15496, 50254, 50255, 50256],
    );
    assert.deepEqual(Array.from(windowRows(4, [2])), [0, 1, 2, 3]);
  });

  test('a window answers for its rows, and for no other', () => {
    // Rows 0, 7 and 9 of a (10, 2) matrix: [0, 1], [70, 71], [90, 91].
    const window = rowWindow({
      rows: 10,
      cols: 2,
      kept: Float64Array.from([0, 7, 9]),
      keptRows: { rows: 3, cols: 2, data: Float32Array.from([0, 1, 70, 71, 90, 91]) },
      heatmap: { rows: 2, cols: 1, data: Float32Array.from([71, 91]) },
    });
    assert.equal(window.at(7, 1), 71);
    assert.deepEqual(Array.from(window.row(9)), [90, 91]);
    assert.ok(Number.isNaN(window.at(3, 0)));
    assert.equal(window.row(3), null);
    assert.deepEqual([window.has(7), window.has(8)], [true, false]);
    assert.equal(window.held(0, 1), true);
    assert.equal(window.pixels.at(1, 0), 91);
    // Transposed (W.T): rows and columns trade places, and so do the questions.
    const t = transposed(window);
    assert.deepEqual(
      [t.rows, t.cols, t.at(1, 7), t.held(0, 8), t.pixels.at(0, 1)],
      [2, 10, 71, false, 91],
    );
    const whole = rowWindow({
      rows: 2,
      cols: 2,
      whole: { rows: 2, cols: 2, data: Float32Array.from([1, 2, 3, 4]) },
    });
    assert.deepEqual(
      [whole.at(1, 0), Array.from(whole.row(0)), whole.held, whole.data.length],
      [3, [1, 2], undefined, 4],
    );
  });
});

describe('tokenizer-fit', () => {
  // The tokenizers' vocabularies and their models' table rows, as the checkpoints ship them.
  const GPT2 = { label: 'GPT-2', vocabSize: 50257, tableRows: [50257] };
  const QWEN3 = { label: 'Qwen 3', vocabSize: 151669, tableRows: [151936] };
  const GEMMA3 = { label: 'Gemma 3', vocabSize: 262145, tableRows: [262144, 262208] };

  test("as many entries as rows, fewer (padding, the model's own or not) and more", () => {
    assert.equal(
      fitSentence(GPT2, 50257),
      "GPT-2's tokenizer has 50,257 entries, as many as the table's 50,257 rows: every id has its row.",
    );
    assert.equal(
      fitSentence(QWEN3, 151936),
      "Qwen 3's tokenizer has 151,669 entries for the table's 151,936 " +
        "rows: the last 267 rows are padding no token uses, as in Qwen 3's own checkpoints; every id has its row.",
    );
    assert.equal(
      fitSentence(GEMMA3, 262208),
      "Gemma 3's tokenizer has 262,145 entries for the table's 262,208 " +
        "rows: the last 63 rows are padding no token uses, as in Gemma 3's own checkpoints; every id has its row.",
    );
    assert.equal(
      fitSentence(GPT2, 50258),
      "GPT-2's tokenizer has 50,257 entries for the table's 50,258 rows: " +
        'its ids stop at 50,256, so the last row goes unused; every id has its row.',
    );
    assert.equal(
      fitSentence(GPT2, 128256),
      "GPT-2's tokenizer has 50,257 entries for the table's 128,256 rows: " +
        'its ids stop at 50,256, so the last 77,999 rows go unused; every id has its row.',
    );
    assert.equal(
      fitSentence({ ...QWEN3, tableRows: [151670] }, 151670),
      "Qwen 3's tokenizer has 151,669 " +
        "entries for the table's 151,670 rows: the last row is padding no token uses, as in Qwen 3's own " +
        'checkpoints; every id has its row.',
    );
    assert.equal(
      fitSentence(GEMMA3, 262144),
      "Gemma 3's tokenizer has 262,145 entries, one more than the " +
        "table's 262,144 rows: the token with id 262,144 has no row here.",
    );
    assert.equal(
      fitSentence(QWEN3, 128256),
      "Qwen 3's tokenizer has 151,669 entries, 23,413 more than the " +
        "table's 128,256 rows: a token with id 128,256 or above has no row here.",
    );
  });

  test('an id past the table names the tokenizer, the token, the rows and why', () => {
    assert.equal(
      idPastTable(GEMMA3, 262144, 6, 262144),
      "Gemma 3's tokenizer gave id 262,144 (token 7 of the " +
        "text), and the table has 262,144 rows (ids 0 to 262,143): Gemma 3's tokenizer has 262,145 entries, one " +
        "more than this table's rows.",
    );
    assert.equal(
      idPastTable(GPT2, 50256, 0, 1000),
      "GPT-2's tokenizer gave id 50,256 (token 1 of the text), " +
        "and the table has 1,000 rows (ids 0 to 999): GPT-2's tokenizer has 50,257 entries, 49,257 more than " +
        "this table's rows.",
    );
  });

  test('the tokenizer made for a table of V rows is offered, unless it is the one picked', () => {
    assert.equal(tokenizerFor(TOKENIZERS, 'gpt2', 151936), 'qwen3');
    assert.equal(tokenizerFor(TOKENIZERS, 'qwen3', 151936), null);
    assert.equal(tokenizerFor(TOKENIZERS, 'gemma3', 128256), 'llama3');
    assert.equal(tokenizerFor(TOKENIZERS, 'gpt2', 262144), 'gemma3');
    assert.equal(tokenizerFor(TOKENIZERS, 'llama3', 262208), 'gemma3');
    assert.equal(tokenizerFor(TOKENIZERS, 'qwen3', 50257), 'gpt2');
    assert.equal(tokenizerFor(TOKENIZERS, 'gpt2', 151669), null); // Qwen 3's vocabulary, not its tables
    assert.equal(tokenizerFor(TOKENIZERS, 'gpt2', 4), null);
  });
});
