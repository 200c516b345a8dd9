// The words and the update of next-token training through a head, the chapter's loop on one
// sequence's windows (window-drawing.mjs draws the rest): where the model and its batches come
// from, why the last step moved the rows it moved, and the picked row's update as the
// optimizer's rule with the step's numbers.
import { element } from '../../draw/dom.mjs';
import { count, plural, vectorText } from '../../model/format-number.mjs';
import { hyperparameters, updateLines } from '../../model/train-update.mjs';

const idList = (ids) => `[${Array.from(ids).join(', ')}]`;

// The loss as PyTorch prints it (4 decimals, or its scientific form).
export const lossText = (lab, loss) => lab.formatElements([loss])[0];

// h = tok(x) + pos(torch.arange(T)), as code.
export const hiddenCode = (p) =>
  p.positions ? `tok(x) + pos(torch.arange(${p.loader.maxLength}))` : 'tok(x)';

// The model, the loader and the loss, as code and words. info: the training's shapes.
export function headOrigin(p, info) {
  const { maxLength, stride, batchSize, shuffle } = p.loader;
  const tied = p.head === 'tied';
  const windows = info?.windows;
  const perEpoch = info?.batchesPerEpoch;
  const left = windows === undefined ? 0 : windows % batchSize;
  return [
    element(
      'code',
      '',
      `torch.manual_seed(${p.seed}); tok = nn.Embedding(${p.vocab}, ${p.dim}); ` +
        (p.positions ? `pos = nn.Embedding(${maxLength}, ${p.dim}); ` : '') +
        `head = nn.Linear(${p.dim}, ${p.vocab}, bias=False)` +
        (tied ? '; head.weight = tok.weight' : ''),
    ),
    p.text
      ? `: V is ${p.text.label}'s vocabulary, d as said under the text, the seed the page's. `
      : ": V, d and the seed are the page's. ",
    windows === undefined
      ? ''
      : `The loader cuts the ${plural(p.ids.length, 'token', 'tokens')} into ` +
        `${plural(windows, 'window', 'windows')} of max_length = ${maxLength} (stride ${stride}), ` +
        `each with its target, the same shifted by one, and takes ${plural(perEpoch, 'batch', 'batches')} ` +
        `of ${batchSize} an epoch${shuffle ? ', in a new order each epoch (shuffle=True)' : ''}` +
        `${left > 0 ? `, leaving ${plural(left, 'window', 'windows')} out (drop_last=True)` : ''}. `,
    'Each step: ',
    element(
      'code',
      '',
      `loss = F.cross_entropy(head(${hiddenCode(p)}).flatten(0, 1), y.flatten())`,
    ),
    ', as ',
    element(
      'code',
      '',
      `embedlab train --max-length ${maxLength} --head ${p.head}${p.positions ? ' --positions' : ''}`,
    ),
    ' trains it.',
  ];
}

// Why the last step moved the rows it moved, in words; before any step, what a step does.
// last: the last step ({ step, changedCount, changed }); inputs, targets: its ids.
export function whyText(lab, p, last, inputs, targets, info) {
  if (!last) {
    return p.head === 'tied'
      ? 'Tied: head.weight is tok.weight, one Parameter used at both ends. Step trains one ' +
          'batch and lights the rows it moves.'
      : 'Untied: the head has a weight of its own, drawn right after the tables. Step trains ' +
          'one batch and lights the rows it moves.';
  }
  const distinct = (ids) => [...new Set(Array.from(ids))].sort((a, b) => a - b);
  const ins = distinct(inputs);
  const moved = last.changedCount;
  if (p.head === 'tied') {
    const all =
      moved === p.vocab
        ? `So all ${count(p.vocab)} rows moved in step ${last.step}`
        : `So ${count(moved)} of the ${count(p.vocab)} rows moved in step ${last.step} (a row ` +
          'whose share is below half a float32 step of its weights keeps its bits)';
    return (
      'Tied: head.weight is tok.weight, so the loss reaches W twice, and autograd adds both ' +
      "gradients into the same tok.weight.grad: the lookup's, on the input rows " +
      `${idList(ins)} only, and the head's, which is dense: the softmax over all ` +
      `${count(p.vocab)} tokens gives every row a share at every position, and pulls each ` +
      `target's row, ${idList(distinct(targets))}, toward h. ${all}.`
    );
  }
  const outside = moved - last.changed.rows.filter((r) => ins.includes(r)).length;
  const intro =
    'Untied: the head has its own weight, and its dense gradient goes there; ' +
    "tok.weight.grad is the lookup's alone, nonzero on the input rows " +
    `${idList(ins)} only. `;
  if (outside <= 0)
    return `${intro}With torch.optim.${info.className} as set, only those rows moved.`;
  const carried = {
    weight_decay: 'weight decay pulls every row toward 0',
    momentum: "the momentum buffer still holds an earlier step's gradient for them",
    optimizer_state: `torch.optim.${info.className}'s running averages still hold earlier steps' gradients for them`,
  };
  // Why the optimizer moved rows with no gradient, by the core's causes of the rows in view.
  const names = new Set(
    last.changed.rows.flatMap((r, i) =>
      ins.includes(r) ? [] : [lab.rowCauses[last.changed.causes[i]].name],
    ),
  );
  const words = [...names].map((name) => carried[name]).filter(Boolean);
  const why = words.length > 0 ? words.join('; ') : 'weight decay or optimizer state';
  return (
    `${intro}${plural(outside, 'other row', 'other rows')} moved as well, with no gradient of ` +
    `${outside === 1 ? 'its' : 'their'} own: ${why}.`
  );
}

// The picked row's update in the last step, rule by rule. update: the session's (train-session.mjs).
export function drawUpdate(lab, { title, body }, p, update, info) {
  if (!update) {
    title.replaceChildren(
      'A row: ',
      element('code', '', `torch.optim.${info.className}`),
      "'s update",
    );
    body.replaceChildren(
      element('p', 'route-note', 'Step trains one batch; then a row’s update shows here.'),
    );
    return;
  }
  const r = update.row;
  title.replaceChildren(
    `Row ${r} in step ${update.step}: `,
    element('code', '', `torch.optim.${info.className}`),
    "'s update",
  );
  const lines = updateLines(
    info,
    hyperparameters(info, p.optimizer),
    { r, t: update.step, table: 'tok', ...update },
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
