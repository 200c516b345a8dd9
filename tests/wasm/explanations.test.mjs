// One input, one explanation: for each case of tests/fixtures/explanations.json the CLI
// (EMBEDLAB_CLI) and the module, through the very computation the page's views run
// (web/compute/view-compute.mjs), must give the same verdict and the same notes, in order; the
// page prints them as they come (views/backward.mjs, views/bag.mjs). So must the cost of each
// route of the forward pass, positions and the tied head, and torch.equal of the two routes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { viewResult } from '../../web/compute/view-compute.mjs';
import { npyOf } from './cases.mjs';
import { importEmbedlab } from './harness.mjs';

const { cases } = JSON.parse(
  readFileSync(new URL('../fixtures/explanations.json', import.meta.url), 'utf8'),
);
const cli = process.env.EMBEDLAB_CLI;

function cliLines(c) {
  const args = [c.kind, '--ids', c.ids.join(','), '-V', c.vocab, '-d', c.dim, '--seed', c.seed];
  if (c.kind === 'backward') args.push('--grad-seed', c.gradSeed);
  else args.push('--offsets', c.offsets.join(','), '--mode', c.mode);
  if (c.paddingIdx !== null) args.push(`--padding-idx=${c.paddingIdx}`);
  return execFileSync(cli, args.map(String), { encoding: 'utf8' }).split('\n');
}

// The page's computation of the case: { comparison, notes }.
function pageResult(lab, c) {
  const table = lab.openSeededTable(c.seed, c.vocab, c.dim);
  try {
    const args = { ...c, padding: null };
    if (c.kind === 'bag') return viewResult(lab, table, 'bag', { ...args, weights: null });
    return viewResult(lab, table, 'backward', { ...args, seed: c.gradSeed });
  } finally {
    table.delete();
  }
}

// The verdict line as the CLI prints it: "# compared: headline. [defined text] sentence".
function verdictLine(compared, grade) {
  const defined = grade.defined ? `${grade.defined.text} ` : '';
  return `# ${compared}: ${grade.headline}. ${defined}${grade.sentence}`;
}

describe('the CLI and the page explain a result in the same words', () => {
  let lab;
  before(async () => {
    assert.ok(cli, 'EMBEDLAB_CLI names the CLI binary');
    lab = await (await importEmbedlab()).loadEmbedlab();
  });

  for (const c of cases) {
    test(`${c.kind} ${JSON.stringify(c.ids)}, V = ${c.vocab}, padding_idx = ${c.paddingIdx}`, () => {
      const lines = cliLines(c);
      const page = pageResult(lab, c);
      const notes = c.kind === 'bag' ? page.forward.notes : page.notes;
      assert.ok(notes.length > 0, 'the core gives notes');
      const compared =
        c.kind === 'bag' ? 'out vs M @ bag.weight' : 'embedding.weight.grad vs onehot.T @ G';
      if (page.comparison) {
        assert.ok(lines.includes(verdictLine(compared, page.comparison.grade)), lines.join('\n'));
      } else {
        assert.ok(!lines.some((line) => line.startsWith(`# ${compared}`)), 'max: no verdict');
      }
      const first = lines.indexOf(`# ${notes[0]}`);
      assert.ok(first >= 0, `the CLI prints "${notes[0]}"\n${lines.join('\n')}`);
      assert.deepEqual(
        lines.slice(first, first + notes.length),
        notes.map((note) => `# ${note}`),
      );
    });
  }

  test('the fixture reaches each explanation: a defined difference, padding, repeats, max', () => {
    const results = cases.map((c) => pageResult(lab, c));
    const grades = results.map((r) => r.comparison?.grade);
    assert.ok(
      grades.some((g) => g?.defined),
      'a padding_idx row PyTorch defines',
    );
    const notes = results.flatMap((r, i) => (cases[i].kind === 'bag' ? r.forward.notes : r.notes));
    for (const start of [
      'padding_idx = ',
      'Row ',
      "mode='max'",
      'The bags read',
      'The scatter-add did',
    ])
      assert.ok(
        notes.some((note) => note.startsWith(start)),
        start,
      );
  });
});

// What each route cost, and torch.equal of the two routes: the CLI's walk-throughs print the very
// sentences (and the very True or False) the module gives the page.
describe('the CLI and the module say what each route cost, and torch.equal, alike', () => {
  let lab;
  let dir;
  before(async () => {
    assert.ok(cli, 'EMBEDLAB_CLI names the CLI binary');
    lab = await (await importEmbedlab()).loadEmbedlab();
    dir = mkdtempSync(path.join(os.tmpdir(), 'embedlab-explanations-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (...args) => execFileSync(cli, args.map(String), { encoding: 'utf8' }).split('\n');
  // The line after ">>> code": what the step printed.
  const printed = (lines, code) => lines[lines.indexOf(`>>> ${code}`) + 1];
  const TORCH_EQUAL = 'torch.equal(embedding(idx), linear(onehot.float()))';

  // W as a .npy file and as the module's table; the CLI's lines and the module's product.
  function forward(rows, ids) {
    const W = { rows: rows.length, cols: rows[0].length, data: Float32Array.from(rows.flat()) };
    const file = path.join(dir, `w${rows.length}x${rows[0].length}-${ids.join('')}.npy`);
    writeFileSync(file, npyOf(W));
    const table = lab.openNpyTable(npyOf(W));
    try {
      return { lines: run('--ids', ids.join(','), '--weights', file), page: table.product(ids) };
    } finally {
      table.delete();
    }
  }

  // torch.equal as PyTorch answers it: a -0.0 the lookup copies equals the product's +0.0; a NaN
  // in W reaches every row of the product (0 · NaN), and NaN equals nothing.
  for (const [name, rows, ids, equal, identical] of [
    [
      'finite rows',
      [
        [1, 2],
        [3, 4],
        [5, 6],
      ],
      [2, 0, 2],
      'True',
      true,
    ],
    [
      'a -0.0 in W',
      [
        [1, -0],
        [3, 4],
      ],
      [0, 1],
      'True',
      false,
    ],
    [
      'a NaN in W',
      [
        [1, 2],
        [NaN, 4],
      ],
      [0, 1],
      'False',
      false,
    ],
  ]) {
    test(`forward, ${name}: the cost line, and torch.equal ${equal}`, () => {
      const { lines, page } = forward(rows, ids);
      assert.equal(page.notes.length, 1);
      assert.ok(lines.includes(`# ${page.notes[0]}`), lines.join('\n'));
      const [n, V, d] = [ids.length, rows.length, rows[0].length];
      assert.equal(
        page.notes[0],
        `The lookup copied n·d = ${n * d} floats; the one-hot product did n·V·d = ` +
          `${n * V * d} multiply-adds, ${n * (V - 1) * d} of them by zero.`,
      );
      assert.equal(printed(lines, TORCH_EQUAL), equal);
      assert.equal(page.comparison.torchEqual, equal === 'True');
      assert.equal(page.comparison.identical, identical);
    });
  }

  test('positions and the tied head: the same sentences, in the same order', () => {
    const batch = '1,2,3; 3,0,5';
    const positions = lab.openSeededPositions(4, 6, 3, 4);
    try {
      const setup = ['--ids', batch, '-V', 6, '-d', 3, '--context-length', 4, '--seed', 4];
      const embedded = positions.embed(batch).notes;
      // T = 3 of context_length 4, d = 3: 9 floats; 3·4·3 = 36 multiply-adds, 3·3·3 = 27 by zero.
      assert.deepEqual(embedded, [
        'The position lookup copied T·d = 9 floats; the one-hot product did ' +
          'T·context_length·d = 36 multiply-adds, 27 of them by zero.',
      ]);
      assert.ok(run('positions', ...setup).includes(`# ${embedded[0]}`));
      const head = positions.head(batch, { topK: 2 }).notes;
      // n = 6 positions (ids 1, 2, 3, 3, 0, 5: 5 distinct) into V = 6, d = 3: 18 floats;
      // 6·6·3 = 108 multiply-adds.
      assert.deepEqual(head, [
        'The input lookup read a row for each of the n = 6 ids, 5 distinct of the 6 rows of W, ' +
          'copying n·d = 18 floats.',
        'The output layer read all 6 rows of W: n·V·d = 108 multiply-adds, none wasted: every ' +
          'logit scores one next token.',
      ]);
      const lines = run('head', ...setup, '--top-k', 2);
      const first = lines.indexOf(`# ${head[0]}`);
      assert.ok(first >= 0, lines.join('\n'));
      assert.equal(lines[first + 1], `# ${head[1]}`);
    } finally {
      positions.delete();
    }
  });
});
