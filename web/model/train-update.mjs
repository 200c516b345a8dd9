// One row's update in one step of next-token training, as torch.optim's rule with the step's
// numbers in it: each line a rule ("v ← 0.9·v + g") and the same with the row's values put in,
// ending in the value the core computed ("= [...]"). Pure: no DOM; the values come from the
// WebAssembly module's step (grad, state, weights) and are written by vec() (format-number.mjs's
// vectorText, or a stand-in). Nothing is computed here: every result shown is the core's.
//
// The rules are PyTorch 1.13's single-tensor ones: SGD (momentum, dampening, nesterov,
// weight_decay, maximize) and Adam and AdamW (amsgrad, maximize); for any other optimizer the
// lines give the gradient, each piece of its state and the row before and after, without a rule.

// A hyperparameter as Python writes it, a whole one without its ".0": 0.9, 1e-08, 2.5e-05, 1.
// Python writes a float in scientific notation below 1e-4 and from 1e16 on; its exponent has two
// digits at least.
export function pythonNumber(x) {
  const a = Math.abs(x);
  const text = a !== 0 && (a < 1e-4 || a >= 1e16) ? x.toExponential() : String(x);
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

// The optimizer's hyperparameters with PyTorch's defaults filled in: info is its entry in
// lab.optimizers ({ name, className, arguments: [{ name, default }] }), given the API's
// { name, ...those typed }.
export function hyperparameters(info, given) {
  const out = {};
  for (const a of info.arguments) out[a.name] = given[a.name] ?? a.default;
  return out;
}

// row: { r, t (the step, from 1), table (the module whose weight W is: 'embedding' unless given),
// before, after (W[r] around the step), grad (W.grad[r]),
// headGrad (tied: the head's share of grad[r]; else null), named (whether r is an input of the
// step), stateBefore, stateAfter ({ name: values of row r }, stateBefore {} at the first step) };
// info: lab.optimizers' entry; h: hyperparameters(). Returns [{ rule, numbers }].
export function updateLines(info, h, row, vec) {
  const { r, t } = row;
  const W = `W[${r}]`;
  const lines = [];
  const n = pythonNumber;
  const g = vec(row.grad);
  let origin;
  if (row.headGrad !== null)
    origin = row.named
      ? `the lookup's share plus the head's, ${vec(row.headGrad)}`
      : "all of it the head's: the lookup reaches only the input rows";
  else
    origin = row.named
      ? "the lookup's: the row is an input"
      : 'zero: the lookup reaches only the input rows';
  lines.push({
    rule: `g = ${row.table ?? 'embedding'}.weight.grad[${r}]`,
    numbers: `${g}: ${origin}`,
  });
  const before = vec(row.before);
  const after = vec(row.after);
  const state = (name) => row.stateAfter[name];
  const was = (name, zero) => (row.stateBefore[name] ? vec(row.stateBefore[name]) : zero);

  if (info.name === 'sgd') {
    const sign = h.maximize ? '+' : '−';
    if (h.weight_decay !== 0) {
      lines.push({
        rule: `g ← g + ${n(h.weight_decay)}·${W}`,
        numbers: `${g} + ${n(h.weight_decay)}·${before}`,
      });
    }
    let step = 'g';
    let stepNumbers = g;
    if (h.momentum !== 0) {
      const v = vec(state('momentum_buffer'));
      if (!row.stateBefore.momentum_buffer) {
        lines.push({ rule: 'v ← g (the first step: the buffer starts as g)', numbers: `v = ${v}` });
      } else {
        const keep = h.dampening === 0 ? '' : `(1 − ${n(h.dampening)})·`;
        lines.push({
          rule: `v ← ${n(h.momentum)}·v + ${keep}g`,
          numbers: `${n(h.momentum)}·${was('momentum_buffer')} + ${keep}${g} = ${v}`,
        });
      }
      step = h.nesterov ? `(g + ${n(h.momentum)}·v)` : 'v';
      stepNumbers = h.nesterov ? `(${g} + ${n(h.momentum)}·${v})` : v;
    }
    lines.push({
      rule: `${W} ← ${W} ${sign} ${n(h.lr)}·${step}`,
      numbers: `${before} ${sign} ${n(h.lr)}·${stepNumbers} = ${after}`,
    });
    return lines;
  }

  if (info.name === 'adam' || info.name === 'adamw') {
    if (h.maximize) lines.push({ rule: 'g ← −g (maximize)', numbers: `−${g}` });
    if (h.weight_decay !== 0) {
      lines.push(
        info.name === 'adamw'
          ? {
              rule: `${W} ← ${W}·(1 − ${n(h.lr)}·${n(h.weight_decay)}) (decoupled weight decay)`,
              numbers: `${before}·(1 − ${n(h.lr)}·${n(h.weight_decay)})`,
            }
          : {
              rule: `g ← g + ${n(h.weight_decay)}·${W}`,
              numbers: `${g} + ${n(h.weight_decay)}·${before}`,
            },
      );
    }
    const [b1, b2] = h.betas.map(n);
    const m = vec(state('exp_avg'));
    const v = vec(state('exp_avg_sq'));
    lines.push({
      rule: `m ← ${b1}·m + (1 − ${b1})·g`,
      numbers: `${b1}·${was('exp_avg', '0')} + (1 − ${b1})·${g} = ${m}`,
    });
    lines.push({
      rule: `v ← ${b2}·v + (1 − ${b2})·g²`,
      numbers: `${b2}·${was('exp_avg_sq', '0')} + (1 − ${b2})·${g}² = ${v}`,
    });
    let denominator = 'v';
    let denominatorNumbers = v;
    if (h.amsgrad) {
      const most = vec(state('max_exp_avg_sq'));
      lines.push({
        rule: 'v_max ← max(v_max, v)',
        numbers: `max(${was('max_exp_avg_sq', '0')}, ${v}) = ${most}`,
      });
      denominator = 'v_max';
      denominatorNumbers = most;
    }
    const eps = n(h.eps);
    lines.push({
      rule: `${W} ← ${W} − ${n(h.lr)}/(1 − ${b1}^${t})·m / (√${denominator}/√(1 − ${b2}^${t}) + ${eps})`,
      numbers:
        `${before} − ${n(h.lr)}/(1 − ${b1}^${t})·${m} / ` +
        `(√${denominatorNumbers}/√(1 − ${b2}^${t}) + ${eps}) = ${after}`,
    });
    return lines;
  }

  for (const [name, values] of Object.entries(row.stateAfter)) {
    lines.push({
      rule: `${name}[${r}]`,
      numbers: `${row.stateBefore[name] ? vec(row.stateBefore[name]) : 'none yet'} → ${vec(values)}`,
    });
  }
  lines.push({
    rule: `${W}: torch.optim.${info.className}'s rule is not written out here`,
    numbers: `${before} → ${after}`,
  });
  return lines;
}
