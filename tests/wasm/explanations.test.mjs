// One input, one explanation: for each case of tests/fixtures/explanations.json the CLI
// (EMBEDLAB_CLI) and the module, through the very computation the page's views run
// (web/compute/view-compute.mjs), must give the same verdict and the same notes, in order; the
// page prints them as they come (views/backward.mjs, views/bag.mjs).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { viewResult } from '../../web/compute/view-compute.mjs';
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
