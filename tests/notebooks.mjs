// The notebooks are ground truth: what PyTorch printed in them (kept verbatim in
// tests/fixtures/notebooks/) is read at test time.
import { readFileSync } from 'node:fs';

// The notebook `number`, e.g. '002': its code cells and what they printed.
export function notebook(number) {
  return readFileSync(new URL(`./fixtures/notebooks/${number}.txt`, import.meta.url), 'utf8');
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
