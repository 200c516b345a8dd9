// What the Python package takes from the element it renders, held to the element's sources: the
// views show() accepts (embedlab.VIEWS) and those it names as the page's (embedlab.PAGE_VIEWS)
// are, together, the registry's views (web/views/registry.mjs); and the core's rows drawn and
// sizes, which show() sends for a large table, are the page's row window (web/model/row-window.mjs).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import {
  HEATMAP_PIXELS,
  WHOLE_FLOATS,
  heldWhole,
  windowRows,
} from '../../web/model/row-window.mjs';
import { notebookVenv } from './paths.mjs';

// The installed package's answers to `code`, which prints JSON.
function python(code) {
  const out = execFileSync(path.join(notebookVenv, 'bin', 'python'), ['-c', code], {
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

// The registry's keys: its modules import style sheets, which Node cannot load, so they are read
// from the source.
function registryViews() {
  const source = readFileSync(new URL('../../web/views/registry.mjs', import.meta.url), 'utf8');
  const body = /export const VIEWS = Object\.freeze\(\{\n([\s\S]*?)\n\}\);/.exec(source);
  assert.ok(body, 'VIEWS in web/views/registry.mjs');
  return [...body[1].matchAll(/^ {2}(\w+):/gm)].map((match) => match[1]);
}

test("show()'s views and the page's are the element's views", () => {
  const { shown, page } = python(
    'import json, embedlab; print(json.dumps({"shown": embedlab.VIEWS, ' +
      '"page": list(embedlab.PAGE_VIEWS)}))',
  );
  assert.deepEqual(
    shown.filter((view) => page.includes(view)),
    [],
  );
  assert.deepEqual([...shown, ...page].sort(), registryViews().sort());
});

test("the core's row window is the page's", () => {
  const cases = [
    [50257, [2, 3, 1]],
    [50257, [40000, 7, 40000]],
    [4, [1]],
    [1, [0]],
  ];
  const core = python(
    'import json, numpy as np, _embedlab; print(json.dumps({"views": _embedlab.views, ' +
      `"rows": [_embedlab.drawn_rows(v, np.array(ids, np.int64)).tolist() for v, ids in ${JSON.stringify(cases)}], ` +
      '"whole": [_embedlab.views_hold_whole(r, c) for r, c in [(512, 512), (512, 513), (50257, 256)]]}))',
  );
  assert.equal(core.views.whole_values, WHOLE_FLOATS);
  assert.deepEqual(
    { rows: core.views.heatmap_rows, cols: core.views.heatmap_cols },
    { ...HEATMAP_PIXELS },
  );
  cases.forEach(([vocab, ids], k) =>
    assert.deepEqual(core.rows[k], Array.from(windowRows(vocab, ids)), `V = ${vocab}, ${ids}`),
  );
  assert.deepEqual(
    core.whole,
    [
      [512, 512],
      [512, 513],
      [50257, 256],
    ].map(([rows, cols]) => heldWhole(rows, cols)),
  );
});
