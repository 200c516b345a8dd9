// The views the element takes, as its documents list them: the registry's names
// (web/views/registry.mjs, VIEWS), in the same order, in the reference page's attribute table,
// the TypeScript declarations' EmbeddingDemoView, and the npm package's README; and each has a
// live example on the reference page. Read from the sources; no browser.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const read = (file) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const all = (text, pattern) => [...text.matchAll(pattern)].map((match) => match[1]);

// The registry's keys, in order: its modules import style sheets, which Node cannot load, so
// they are read from the source.
function registryViews() {
  const source = read('web/views/registry.mjs');
  const body = /export const VIEWS = Object\.freeze\(\{\n([\s\S]*?)\n\}\);/.exec(source);
  assert.ok(body, 'VIEWS in web/views/registry.mjs');
  return all(body[1], /^ {2}(\w+):/gm);
}

test('the registry, the reference, the types and the README list the same views', () => {
  const views = registryViews();
  assert.ok(views.length >= 11 && views.includes('equation'), views.join(', '));

  const row = /<a href="#view"><code>view<\/code><\/a><\/th><td>(.*?)<\/td>/.exec(
    read('web/reference.html'),
  );
  assert.ok(row, "the view row of reference.html's attribute table");
  assert.deepEqual(all(row[1], /<code>(\w+)<\/code>/g), views, 'reference.html');

  const type = /export type EmbeddingDemoView =([^;]*);/.exec(
    read('web/element/embedding-demo.d.ts'),
  );
  assert.ok(type, 'EmbeddingDemoView in embedding-demo.d.ts');
  assert.deepEqual(all(type[1], /'(\w+)'/g), views, 'embedding-demo.d.ts');

  const line = read('package/README.md')
    .split('\n')
    .find((text) => text.startsWith('| `view` |'));
  assert.ok(line, "the view row of package/README.md's attribute table");
  assert.deepEqual(all(line.split(' | ')[1], /`(\w+)`/g), views, 'package/README.md');
});

test('the reference shows each view live', () => {
  const shown = new Set(all(read('web/reference.html'), /<embedding-demo[^>]* view="(\w+)"/g));
  assert.deepEqual(
    registryViews().filter((view) => !shown.has(view)),
    [],
  );
});
