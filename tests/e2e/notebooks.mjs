// The seed notebooks are ground truth: what PyTorch printed in them is read at test time.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const seedsDir = process.env.EMBEDLAB_SEEDS_DIR ||
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/seeds');

// The notebook whose file name starts with `number`, e.g. '002'.
export function notebook(number) {
  const name = readdirSync(seedsDir).find((file) => file.startsWith(`${number}_`));
  if (!name) throw new Error(`no notebook ${number}_* in ${seedsDir}`);
  return readFileSync(path.join(seedsDir, name), 'utf8');
}

// The first block PyTorch printed after the cell marker (e.g. 'In [5]:'), from
// "Parameter containing:" or "tensor(" to the matching ")".
export function printedAfter(text, cell) {
  const at = text.indexOf(cell);
  if (at < 0) throw new Error(`no cell ${cell}`);
  const start = text.slice(at).search(/^(Parameter containing:\n)?tensor\(/m);
  if (start < 0) throw new Error(`nothing printed after ${cell}`);
  const open = text.indexOf('(', at + start);
  let depth = 0;
  for (let i = open; i < text.length; ++i) {
    if (text[i] === '(') ++depth;
    if (text[i] === ')' && --depth === 0) return text.slice(at + start, i + 1);
  }
  throw new Error(`unbalanced block after ${cell}`);
}

// A printed 2-D tensor's entries as strings, row by row: [['0.6957', '-1.8061', ...], ...].
export function entriesOf(block) {
  const body = block.slice(block.indexOf('[[') + 1, block.lastIndexOf(']]') + 1);
  return [...body.matchAll(/\[([^\]]*)\]/g)].map((row) => row[1].split(',').map((s) => s.trim()));
}
