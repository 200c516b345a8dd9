// What the Train view draws of next-token training through a head (drawing.mjs draws the rest):
// where the model comes from, why the last step moved the rows it moved, in plain words, the
// loss step by step, W's rows as points moving step by step, and the picked row's update as the
// optimizer's rule with the step's numbers.
import { element } from '../../draw/dom.mjs';
import { drawLossCurve, drawRowPoints } from '../../draw/train-charts.mjs';
import { count, plural, vectorText } from '../../model/format-number.mjs';
import { hyperparameters, updateLines } from '../../model/train-update.mjs';

// Row r of a (V, d) matrix.
const rowOf = (m, r) => m.data.subarray(r * m.cols, (r + 1) * m.cols);
const idList = (ids) => `[${Array.from(ids).join(', ')}]`;

// The loss as PyTorch prints it (4 decimals, or its scientific form).
export const lossText = (lab, loss) => lab.formatElements([loss])[0];

export function headOrigin(p) {
  const tied = p.head === 'tied';
  return [
    element(
      'code',
      '',
      `torch.manual_seed(${p.seed}); embedding = nn.Embedding(${p.vocab}, ${p.dim}); ` +
        `head = nn.Linear(${p.dim}, ${p.vocab}, bias=False)` +
        (tied ? '; head.weight = embedding.weight' : ''),
    ),
    p.lines
      ? `: V is ${p.tokenizerLabel}'s vocabulary, d as said under the batches, the seed the page's. `
      : ": V, d and the seed are the page's. ",
    'Each batch is a sequence: its ids but the last are the inputs, its ids but the first the ' +
      'targets, and the loss is ',
    element('code', '', 'F.cross_entropy(head(embedding(seq[:-1])), seq[1:])'),
    ', the mean over its positions, as ',
    element('code', 'nowrap', `embedlab train --head ${p.head}`),
    ' trains it.',
  ];
}

// Why the last step moved the rows it moved, in words; before any step, what a step does.
export function whyText(lab, p, last, info) {
  if (!last) {
    return p.head === 'tied'
      ? 'Tied: head.weight is embedding.weight, one Parameter used at both ends. Step trains ' +
          'the first sequence and lights the rows it moves.'
      : 'Untied: the head has a weight of its own, drawn right after the table. Step trains ' +
          'the first sequence and lights the rows it moves.';
  }
  const inputs = [...new Set(Array.from(last.inputs))].sort((a, b) => a - b);
  const moved = last.changed.rows.length;
  if (p.head === 'tied') {
    const all =
      moved === p.vocab
        ? `So all ${count(p.vocab)} rows moved in step ${last.step}.`
        : `So ${count(moved)} of the ${count(p.vocab)} rows moved in step ${last.step}: a row ` +
          'whose share is below half a float32 step of its weights keeps its bits.';
    return (
      'Tied: head.weight is embedding.weight, so the loss reaches W twice, and autograd adds ' +
      `both gradients into the same embedding.weight.grad: the lookup's, on the input rows ` +
      `${idList(inputs)} only, and the head's, which is dense, because the softmax over all ` +
      `${count(p.vocab)} tokens gives every row a share at every position. ${all}`
    );
  }
  const outside = Array.from(last.changed.rows).filter((r) => !inputs.includes(r));
  const intro =
    'Untied: the head has its own weight, and its dense gradient goes there; ' +
    "embedding.weight.grad is the lookup's alone, nonzero on the input rows " +
    `${idList(inputs)} only. `;
  if (outside.length === 0)
    return `${intro}With torch.optim.${info.className} as set, only those rows moved.`;
  // Why the optimizer moved rows with no gradient, by the core's causes of the step.
  const carried = {
    weight_decay: 'weight decay pulls every row toward 0',
    momentum: "the momentum buffer still holds an earlier step's gradient for them",
    optimizer_state: `torch.optim.${info.className}'s running averages still hold earlier steps' gradients for them`,
  };
  const causes = new Set(
    Array.from(last.changed.rows).flatMap((r, i) =>
      inputs.includes(r) ? [] : [lab.rowCauses[last.changed.causes[i]].name],
    ),
  );
  return (
    `${intro}${plural(outside.length, 'other row', 'other rows')} moved as well, with no ` +
    `gradient of ${outside.length === 1 ? 'its' : 'their'} own: ` +
    `${[...causes].map((name) => carried[name]).join('; ')}.`
  );
}

// The loss chart, its values as text under it.
export function drawLoss(lab, { svg, list }, p, history) {
  const texts = history.map((s) => lossText(lab, s.loss));
  drawLossCurve(svg, { losses: history.map((s) => s.loss), texts, total: p.batches.length });
  list.replaceChildren(
    ...history.map((s, k) => {
      const item = element('li', '', `step ${s.step}: `);
      item.append(element('span', 'loss-text', texts[k]));
      item.dataset.loss = String(s.loss); // the whole float, as loss.item() gives it
      return item;
    }),
  );
  list.hidden = history.length === 0;
}

// W's rows as points: x = W[r, 0], y = W[r, 1], at every step taken.
export function drawPoints(lab, { svg, note }, p, run, rows, picked) {
  const last = run.history.at(-1) ?? null;
  drawRowPoints(svg, {
    weights: [run.training.weight, ...run.history.map((s) => s.embeddingWeight)],
    rows: rows.filter((r) => r !== null),
    dim: p.dim,
    changed: last?.changed ?? null,
    inputs: last?.inputs ?? null,
    causes: lab.rowCauses,
    picked,
  });
  note.textContent =
    p.dim === 2
      ? 'Each row r of W is the point (W[r, 0], W[r, 1]): d = 2, so that is all of it. '
      : p.dim === 1
        ? 'Each row r of W is the point W[r, 0] on a line: d = 1. '
        : `Each row r of W is the point (W[r, 0], W[r, 1]): a fixed projection onto its first ` +
          `two columns, the other ${plural(p.dim - 2, 'column', 'columns')} of its ${p.dim} ` +
          'left out, the same at every step. ';
  note.textContent +=
    "Its trail's small dots are where it stood before each step; the last step's input rows are " +
    'the larger dots, the rows it moved in the colour of why.';
}

// The picked row's update in the last step, rule by rule.
export function drawUpdate(lab, { title, body }, p, run, picked, info) {
  const history = run.history;
  const last = history.at(-1) ?? null;
  title.replaceChildren(
    last ? `Row ${picked} in step ${last.step}: ` : `Row ${picked}: `,
    element('code', '', `torch.optim.${info.className}`),
    "'s update",
  );
  if (!last) {
    body.replaceChildren(
      element(
        'p',
        'route-note',
        `Step trains the first sequence; then row ${picked}'s update shows here.`,
      ),
    );
    return;
  }
  const previous = history.at(-2) ?? null;
  const stateOf = (step) =>
    Object.fromEntries(
      (step?.state ?? []).map(({ name, values }) => [name, rowOf(values, picked)]),
    );
  const lines = updateLines(
    info,
    hyperparameters(info, p.options.optimizer),
    {
      r: picked,
      t: last.step,
      before: rowOf(previous ? previous.embeddingWeight : run.training.weight, picked),
      after: rowOf(last.embeddingWeight, picked),
      grad: rowOf(last.grad, picked),
      headGrad: p.head === 'tied' ? rowOf(last.headGrad, picked) : null,
      named: Array.from(last.inputs).includes(picked),
      stateBefore: stateOf(previous),
      stateAfter: stateOf(last),
    },
    (values) => vectorText(lab, values, 0, values.length),
  );
  const list = element('ol', 'train-update');
  list.append(
    ...lines.map(({ rule, numbers }) => {
      const item = element('li');
      item.append(element('code', 'update-rule', rule), element('code', 'update-numbers', numbers));
      return item;
    }),
  );
  body.replaceChildren(
    list,
    element(
      'p',
      'route-note',
      "Every number is the module's float32 value of this step, as PyTorch keeps it; pick another " +
        'row of W to see its update.',
    ),
  );
}
