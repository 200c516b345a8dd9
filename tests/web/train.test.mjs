// The Train view's pure modules in Node: Python's float literals, torch.equal, the training in the
// address and back, the script's code around what the core prints (a stand-in lab whose
// printing is visible), and the run: the training following the store's steps and Play's timer
// (a stand-in lab that records what it is asked, timers that fire when the test says). Every
// expected value is worked out by hand.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { initialState } from '../../web/model/state.mjs';
import {
  pythonFloat,
  pythonPair,
  trainFromParams,
  trainParams,
  TRAIN_INPUTS,
  trainRows,
} from '../../web/model/train-inputs.mjs';
import { changedLine, trainScript } from '../../web/model/train-script.mjs';
import { hyperparameters, pythonNumber, updateLines } from '../../web/model/train-update.mjs';
import {
  batchLines,
  idsTextOf,
  linesError,
  shapeSentence,
  textShape,
} from '../../web/model/train-text.mjs';
import { readUrlState, urlFor } from '../../web/model/url-state.mjs';
import { scriptText } from '../../web/views/copy-script.mjs';
import { createPlayer, createRun } from '../../web/views/train/run.mjs';

describe('train-inputs', () => {
  test('floats as Python reads them, and nothing else', () => {
    assert.equal(pythonFloat(' 0.1 '), 0.1);
    assert.equal(pythonFloat('1e-08'), 1e-8);
    assert.equal(pythonFloat('.5'), 0.5);
    assert.equal(pythonFloat('3.'), 3);
    assert.equal(pythonFloat('-2E3'), -2000);
    assert.equal(pythonFloat('inf'), Infinity);
    assert.equal(pythonFloat('-Infinity'), -Infinity);
    assert.ok(Number.isNaN(pythonFloat('NaN')));
    for (const text of ['', '0x10', '1e', '1,5', 'Infinityx', '--1', '1 2', '.'])
      assert.equal(pythonFloat(text), null, text);
    assert.deepEqual(pythonPair('0.9, 0.999'), [0.9, 0.999]);
    assert.deepEqual(pythonPair('(0.5,0.9)'), [0.5, 0.9]);
    for (const text of ['0.9', '0.9, 0.99, 0.999', '0.9, x', ''])
      assert.equal(pythonPair(text), null, text);
  });

  test('every row of a small table; of a large one, the rows kept and a gap for each run between', () => {
    assert.deepEqual(trainRows(6, 16, [9]), [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(trainRows(4096, 16, [3, 1, 2, 1, 0]), [0, 1, 2, 3, null]);
    assert.deepEqual(trainRows(100, 16, [99, 50, 7, -1, 100]), [null, 7, null, 50, null, 99]);
    assert.deepEqual(trainRows(100, 16, []), [null]);
  });

  test('only what differs from the defaults goes into the address, and reads back', () => {
    assert.deepEqual(trainParams(TRAIN_INPUTS), []);
    assert.equal(trainFromParams(new URLSearchParams('ids=1')), null);
    const train = {
      ...TRAIN_INPUTS,
      batchesText: '0; 1, 1',
      optimizer: 'adam',
      hyper: { lr: '0.05', betas: '0.5, 0.9', amsgrad: true },
      sparse: true,
      paddingIdxText: '-1',
      steps: 2,
    };
    const params = trainParams(train);
    assert.deepEqual(params, [
      ['batches', '0; 1, 1'],
      ['padding_idx', '-1'],
      ['opt', 'adam'],
      ['opt.lr', '0.05'],
      ['opt.betas', '0.5, 0.9'],
      ['opt.amsgrad', 'True'],
      ['sparse', 'True'],
      ['steps', '2'],
    ]);
    assert.deepEqual(trainFromParams(new URLSearchParams(params)), train);
    const text = {
      ...TRAIN_INPUTS,
      hyper: {},
      batchesFrom: 'text',
      linesText: 'the cat\nthe dog',
      tokenizer: 'gpt2',
    };
    assert.deepEqual(trainParams(text), [
      ['batches_from', 'text'],
      ['batch_lines', 'the cat\nthe dog'],
      ['batch_tokenizer', 'gpt2'],
    ]);
    assert.equal(
      new URLSearchParams(trainParams(text)).toString(),
      'batches_from=text&batch_lines=the+cat%0Athe+dog&batch_tokenizer=gpt2',
    );
    assert.deepEqual(trainFromParams(new URLSearchParams(trainParams(text))), text);
    // Steps that are not a count are left out, as the page's token is.
    assert.equal(trainFromParams(new URLSearchParams('steps=-2&opt=sgd')).steps, 0);
  });

  test("the page's address carries the training, and drops it when back to the defaults", () => {
    const state = {
      ...initialState(),
      train: { ...TRAIN_INPUTS, optimizer: 'sgd', hyper: { momentum: '0.9' }, steps: 1 },
    };
    const href = urlFor('http://host/page?utm=x&steps=9', state);
    const url = new URL(href);
    assert.equal(url.searchParams.get('utm'), 'x');
    assert.equal(url.searchParams.get('opt.momentum'), '0.9');
    assert.equal(url.searchParams.get('steps'), '1');
    assert.deepEqual(readUrlState(url.search).train, state.train);
    const plain = new URL(urlFor(href, initialState()));
    assert.deepEqual(
      [...plain.searchParams.keys()],
      ['utm', 'ids', 'vocab', 'dim', 'seed', 'w', 'k'],
    );
    assert.equal(readUrlState('?view=train').view, 'train');
  });
});

describe('train-text', () => {
  const gpt2 = { label: 'GPT-2', vocabSize: 50257 };

  test('one batch per line; a last empty line is no batch, any other empty line is named', () => {
    assert.deepEqual(batchLines('the cat\r\nthe dog\n'), ['the cat', 'the dog']);
    assert.deepEqual(batchLines('a'), ['a']);
    assert.deepEqual(batchLines('\n'), ['']);
    assert.equal(linesError(['the cat', 'the dog']), null);
    assert.equal(
      linesError(['the cat', '  ', 'the dog']),
      'Line 2 is empty: each line is one batch, so give it at least one word, or delete the line.',
    );
    assert.match(linesError(['']), /^The text is empty/);
  });

  test("V is the vocabulary; d the page's, or as large as V × d ≤ 262,144 allows", () => {
    // 262,144 / 50,257 = 5.2; / 128,256 = 2.04; 262,145 rows leave not even d = 1.
    assert.deepEqual(textShape(gpt2, 8), { vocab: 50257, dim: 5 });
    assert.deepEqual(textShape(gpt2, 3), { vocab: 50257, dim: 3 });
    assert.deepEqual(textShape({ vocabSize: 128256 }, 64), { vocab: 128256, dim: 2 });
    assert.deepEqual(textShape({ vocabSize: 262145 }, 4), { vocab: 262145, dim: 0 });
    assert.equal(
      shapeSentence(gpt2, 8),
      "GPT-2's vocabulary has 50,257 rows, one for every id it can give: " +
        "trained with d = 5 (the page's is 8) so that V × d = 251,285 stays within 262,144.",
    );
    assert.equal(
      shapeSentence(gpt2, 3),
      "GPT-2's vocabulary has 50,257 rows, one for every id it can give: " +
        "trained as V = 50,257, with the page's d = 3.",
    );
    assert.match(
      shapeSentence({ label: 'Gemma 3', vocabSize: 262145 }, 4),
      /^Gemma 3's vocabulary has 262,145 rows, .*: more than the 262,144 values of W this page trains .* even with d = 1\./,
    );
  });

  test("the lines' ids as the ids field types them", () => {
    assert.equal(idsTextOf([{ ids: [1169, 3797] }, { ids: [7] }]), '1169, 3797; 7');
  });
});

describe('train-script', () => {
  // A stand-in for the module: its printing shows what it was handed.
  const lab = {
    formatTensor: (m, style) => `${style ? 'P' : 'T'}(${Array.from(m.data).join(',')})`,
    optimizerCode: (o, params) => `torch.optim.X(${params}, ${o.name})`,
  };
  const matrix = (values) => ({ rows: 1, cols: values.length, data: Float32Array.from(values) });
  const setup = {
    head: 'none',
    seed: 7,
    vocab: 4,
    dim: 2,
    paddingIdx: 1,
    sparse: true,
    optimizer: { name: 'sgd' },
    weight: matrix([1, 2]),
    linearRefusal: null,
  };
  const steps = [
    {
      step: 1,
      batch: Float64Array.from([3, 3]),
      upstream: matrix([5]),
      embeddingWeight: matrix([6]),
      changed: { rows: Float64Array.from([3]), causes: Uint8Array.from([0]) },
      torchEqual: true,
    },
  ];

  test("the set-up, then each step's code with what it prints", () => {
    const script = trainScript(lab, setup, steps);
    const code = script[0].code;
    assert.deepEqual(code.slice(4, 12), [
      'V, d = 4, 2',
      'linear = nn.Linear(V, d, bias=False)',
      'torch.manual_seed(7)',
      'embedding = nn.Embedding(V, d, padding_idx=1, sparse=True)',
      'with torch.no_grad():',
      '    linear.weight.copy_(embedding.weight.T)',
      'opt_e = torch.optim.X(embedding.parameters(), sgd)',
      'opt_l = torch.optim.X(linear.parameters(), sgd)',
    ]);
    assert.deepEqual(
      script.slice(1).map((s) => s.printed),
      ['P(1,2)', 'T(5)', 'P(6)\nstep 1 changed rows [3]', 'True'],
    );
    assert.deepEqual(script[2].code, [
      'idx = torch.tensor([3, 3])',
      'G = torch.randn(2, d)',
      'print(G)',
    ]);
    assert.equal(changedLine(2, [0, 5]), 'step 2 changed rows [0, 5]');
    assert.ok(
      scriptText(script).endsWith('print(torch.equal(embedding.weight, linear.weight.T))\n'),
    );
  });

  test("batches typed as text: PyTorch gets the ids, each batch's text is a comment", () => {
    const script = trainScript(lab, { ...setup, lines: ['the "cat"\r'] }, steps);
    assert.deepEqual(script[2].code, [
      '# batch 1: "the \\"cat\\"\\r"',
      'idx = torch.tensor([3, 3])',
      'G = torch.randn(2, d)',
      'print(G)',
    ]);
  });

  test('where the Linear route cannot follow, the script says why and steps the embedding only', () => {
    const script = trainScript(
      lab,
      { ...setup, linearRefusal: 'SparseAdam does not support dense gradients' },
      steps,
    );
    assert.equal(
      script[0].code[11],
      '# the Linear route cannot follow: torch.optim.X(linear.parameters(), sgd) ' +
        'refuses its dense gradient: SparseAdam does not support dense gradients',
    );
    assert.equal(script.length, 4);
    assert.doesNotMatch(scriptText(script), /opt_l\./);
  });
});

describe('train run', () => {
  class Refused extends Error {}
  // A stand-in lab whose trainings count their steps and refuse id 9; calls lists what it did.
  function standIn() {
    const calls = [];
    let made = 0;
    const lab = {
      seededTraining(seed, vocab, dim, options) {
        const name = `t${++made}`;
        calls.push(`open ${name} ${seed} ${vocab}x${dim} ${options.optimizer.name}`);
        let steps = 0;
        return {
          step(batch) {
            if (batch.includes(9)) throw new Refused(`id 9 of ${name}`);
            const weight = { rows: 1, cols: 1, data: Float32Array.from([++steps]) };
            calls.push(`${name} step ${steps} [${batch}]`);
            // The module's verdict says whether torch.equal holds (the core's compare()).
            const verdict = { torchEqual: steps !== 2 };
            return { step: steps, batch, embeddingWeight: weight, linearWeight: weight, verdict };
          },
          delete: () => calls.push(`delete ${name}`),
        };
      },
      // Its steps carry what a next-token step carries, the batch aside.
      seededNextTokenTraining(seed, vocab, dim, { head, optimizer }) {
        const name = `n${++made}`;
        calls.push(`open ${name} ${seed} ${vocab}x${dim} ${head} ${optimizer.name}`);
        let steps = 0;
        return {
          step: (sequence) => ({
            step: ++steps,
            inputs: sequence.slice(0, -1),
            loss: 1 / steps,
            grad: 'g',
            headGrad: 'h',
            state: 's',
            headWeight: 'H',
            embeddingWeight: 'W',
          }),
          delete: () => calls.push(`delete ${name}`),
        };
      },
    };
    return { lab, calls, run: createRun(lab, (error) => error instanceof Refused) };
  }
  const plan = (batches, lr = 'sgd', head = 'none') => ({
    head,
    seed: 1,
    vocab: 10,
    dim: 2,
    batches,
    options: { optimizer: { name: lr } },
    key: JSON.stringify([head, 1, 10, 2, lr]),
  });

  test('steps as far as asked, going on where it stands; fewer steps or new inputs start again', () => {
    const { run, calls } = standIn();
    const p = plan([[1], [2], [3]]);
    assert.equal(run.follow(p, 0), false);
    assert.equal(run.follow(p, 2), true);
    assert.equal(run.follow(p, 2), false);
    assert.equal(run.follow(p, 7), true, 'no more steps than batches');
    assert.deepEqual(calls.splice(0), [
      'open t1 1 10x2 sgd',
      't1 step 1 [1]',
      't1 step 2 [2]',
      't1 step 3 [3]',
    ]);
    assert.equal(run.current.history.length, 3);
    assert.deepEqual(
      run.current.history.map((s) => s.torchEqual),
      [true, false, true],
      "the verdict's",
    );
    assert.equal(run.canStep(p, 3), false);
    run.follow(p, 1);
    run.follow(plan([[1], [5]]), 2);
    run.follow(plan([[4], [5]]), 2);
    run.follow(plan([[4], [5]], 'adam'), 1);
    assert.deepEqual(calls, [
      'delete t1',
      'open t2 1 10x2 sgd',
      't2 step 1 [1]',
      // the batch taken is the same: the training goes on
      't2 step 2 [5]',
      // a batch taken is another: the training starts again
      'delete t2',
      'open t3 1 10x2 sgd',
      't3 step 1 [4]',
      't3 step 2 [5]',
      'delete t3',
      'open t4 1 10x2 adam',
      't4 step 1 [4]',
    ]);
  });

  test('with a head, next-token training; of its steps before the last two, only what the view draws stays', () => {
    const { run, calls } = standIn();
    const p = plan(
      [
        [1, 2],
        [2, 3],
        [3, 4],
      ],
      'adam',
      'tied',
    );
    run.follow(p, 3);
    assert.deepEqual(calls, ['open n1 1 10x2 tied adam']);
    const history = run.current.history;
    assert.deepEqual(
      history.map((s) => [s.batch, s.loss, s.embeddingWeight, 'grad' in s, 'state' in s]),
      [
        [[1, 2], 1, 'W', false, false],
        [[2, 3], 1 / 2, 'W', true, true],
        [[3, 4], 1 / 3, 'W', true, true],
      ],
    );
    assert.equal(history[0].headWeight, undefined);
    assert.equal(history[0].torchEqual, false, 'no Linear route beside');
    run.follow(
      plan(
        [
          [1, 2],
          [2, 3],
          [3, 4],
        ],
        'adam',
        'untied',
      ),
      1,
    );
    assert.deepEqual(calls.slice(1), ['delete n1', 'open n2 1 10x2 untied adam']);
  });

  test("a batch the core refuses ends the training there; any other error is the page's bug", () => {
    const { run } = standIn();
    const p = plan([[1], [9], [3]]);
    assert.equal(run.follow(p, 3), true);
    assert.equal(run.current.history.length, 1);
    assert.match(run.current.failed.message, /^id 9 of t1$/);
    assert.equal(run.canStep(p, 1), false);
    const broken = createRun(
      {
        seededTraining: () => ({
          step: () => {
            throw new TypeError('a bug');
          },
        }),
      },
      (error) => error instanceof Refused,
    );
    assert.throws(() => broken.follow(p, 1), TypeError);
  });

  // Timers that fire only when the test says: fire() runs the earliest, as the event loop would.
  function manualTimers() {
    const queue = new Map();
    let next = 0;
    return {
      setTimeout(fn, ms) {
        queue.set(++next, { fn, ms });
        return next;
      },
      clearTimeout: (id) => queue.delete(id),
      pending: () => [...queue.values()].map(({ ms }) => ms),
      fire() {
        const [id, { fn }] = queue.entries().next().value;
        queue.delete(id);
        fn();
      },
    };
  }

  test('Play: the first step at once, the next an interval later, until advance() says no', () => {
    const timers = manualTimers();
    const heard = [];
    let steps = 0;
    const player = createPlayer({
      timers,
      interval: 900,
      advance: () => (steps < 2 ? (++steps, true) : false),
      onChange: (playing) => heard.push(playing),
    });
    player.start();
    player.start(); // already playing: nothing more
    assert.deepEqual([player.playing, heard, timers.pending()], [true, [true], [0]]);
    timers.fire();
    assert.deepEqual([steps, timers.pending()], [1, [900]]);
    timers.fire();
    timers.fire();
    assert.deepEqual(
      [steps, player.playing, heard, timers.pending()],
      [2, false, [true, false], []],
    );
  });

  test('Play: stop() clears the timer; a stop() inside advance() (the step failed) ends it', () => {
    const timers = manualTimers();
    const heard = [];
    const player = createPlayer({
      timers,
      advance: () => {
        player.stop();
        return true;
      },
      onChange: (playing) => heard.push(playing),
    });
    player.stop(); // not playing: nothing to hear
    player.start();
    timers.fire();
    assert.deepEqual([player.playing, heard, timers.pending()], [false, [true, false], []]);
    player.start();
    player.stop();
    assert.deepEqual(
      [player.playing, heard.slice(2), timers.pending()],
      [false, [true, false], []],
    );
  });
});

describe('train-script with a head', () => {
  const lab = {
    formatTensor: (m) => `P(${Array.from(m.data).join(',')})`,
    formatElements: (values) => values.map((x) => x.toFixed(4)),
    optimizerCode: (o, params) => `torch.optim.X(${params}, ${o.name})`,
  };
  const matrix = (values) => ({ rows: 1, cols: values.length, data: Float32Array.from(values) });
  const setup = {
    seed: 3,
    vocab: 5,
    dim: 2,
    optimizer: { name: 'sgd' },
    weight: matrix([1, 2]),
    lines: null,
  };
  const steps = [
    {
      step: 1,
      batch: Float64Array.from([4, 0, 1]),
      loss: 1.5,
      embeddingWeight: matrix([6]),
      changed: { rows: Float64Array.from([0, 4]), causes: Uint8Array.from([0, 0]) },
    },
  ];

  test('tied: the head takes W itself, one optimizer over the embedding; each step prints its loss', () => {
    const script = trainScript(lab, { ...setup, head: 'tied' }, steps);
    assert.deepEqual(script[0].code.slice(4, 10), [
      'V, d = 5, 2',
      'torch.manual_seed(3)',
      'embedding = nn.Embedding(V, d)',
      'head = nn.Linear(d, V, bias=False)',
      'head.weight = embedding.weight  # tied: one Parameter, used at both ends',
      'opt = torch.optim.X(embedding.parameters(), sgd)',
    ]);
    assert.deepEqual(script[2].code, [
      'seq = torch.tensor([4, 0, 1])',
      'before = embedding.weight.detach().clone()',
      'opt.zero_grad()',
      'loss = F.cross_entropy(head(embedding(seq[:-1])), seq[1:])',
      'print(loss)',
    ]);
    assert.deepEqual(
      script.slice(1).map((s) => s.printed),
      ['P(1,2)', 'tensor(1.5000, grad_fn=<NllLossBackward0>)', 'P(6)\nstep 1 changed rows [0, 4]'],
    );
    assert.equal(script[3].code[0], 'loss.backward(); opt.step()');
  });

  test('untied: the head is drawn right after the table, and the optimizer takes both', () => {
    const code = trainScript(lab, { ...setup, head: 'untied' }, steps)[0].code;
    assert.deepEqual(code.slice(7, 9), [
      'head = nn.Linear(d, V, bias=False)',
      'opt = torch.optim.X(list(embedding.parameters()) + list(head.parameters()), sgd)',
    ]);
    assert.ok(!code.some((line) => line.startsWith('head.weight =')));
  });

  test('the head goes into the address as typed, and reads back', () => {
    const train = { ...TRAIN_INPUTS, hyper: {}, head: 'tied' };
    assert.deepEqual(trainParams(train), [['head', 'tied']]);
    assert.deepEqual(trainFromParams(new URLSearchParams('head=untied')), {
      ...TRAIN_INPUTS,
      hyper: {},
      head: 'untied',
    });
  });
});

describe('train-update', () => {
  const vec = (values) => `[${Array.from(values).join(', ')}]`;
  const f = (...values) => Float32Array.from(values);
  const sgd = {
    name: 'sgd',
    className: 'SGD',
    arguments: [
      { name: 'lr', default: 0.1 },
      { name: 'momentum', default: 0 },
      { name: 'dampening', default: 0 },
      { name: 'weight_decay', default: 0 },
      { name: 'nesterov', default: false },
      { name: 'maximize', default: false },
    ],
  };
  const adam = {
    name: 'adam',
    className: 'Adam',
    arguments: [
      { name: 'lr', default: 0.001 },
      { name: 'betas', default: [0.9, 0.999] },
      { name: 'eps', default: 1e-8 },
      { name: 'weight_decay', default: 0 },
      { name: 'amsgrad', default: false },
      { name: 'maximize', default: false },
    ],
  };
  // Values a step could have had: they are only written into the lines, never computed with.
  const row = {
    r: 2,
    t: 2,
    before: f(1, 2),
    after: f(0.5, 1.5),
    grad: f(0.25, -0.5),
    headGrad: null,
    named: true,
    stateBefore: {},
    stateAfter: {},
  };

  test('numbers as Python writes them; the defaults under what was typed', () => {
    assert.deepEqual([0.9, 1e-8, 0.001, 1, 2.5e-5].map(pythonNumber), [
      '0.9',
      '1e-08',
      '0.001',
      '1',
      '2.5e-05',
    ]);
    assert.deepEqual(hyperparameters(adam, { name: 'adam', lr: 0.5 }), {
      lr: 0.5,
      betas: [0.9, 0.999],
      eps: 1e-8,
      weight_decay: 0,
      amsgrad: false,
      maximize: false,
    });
  });

  test("plain SGD: g, where it comes from, and W[r] −= lr·g; tied, the head's share of g", () => {
    const h = hyperparameters(sgd, { lr: 0.5 });
    assert.deepEqual(updateLines(sgd, h, row, vec), [
      {
        rule: 'g = embedding.weight.grad[2]',
        numbers: "[0.25, -0.5]: the lookup's: the row is an input",
      },
      { rule: 'W[2] ← W[2] − 0.5·g', numbers: '[1, 2] − 0.5·[0.25, -0.5] = [0.5, 1.5]' },
    ]);
    const tied = updateLines(sgd, h, { ...row, headGrad: f(0.125, 0), named: false }, vec);
    assert.equal(
      tied[0].numbers,
      "[0.25, -0.5]: all of it the head's: the lookup reaches only the input rows",
    );
    const both = updateLines(sgd, h, { ...row, headGrad: f(0.125, 0) }, vec);
    assert.equal(both[0].numbers, "[0.25, -0.5]: the lookup's share plus the head's, [0.125, 0]");
    const untouched = updateLines(sgd, h, { ...row, named: false }, vec);
    assert.equal(
      untouched[0].numbers,
      '[0.25, -0.5]: zero: the lookup reaches only the input rows',
    );
  });

  test('SGD with momentum: the buffer starts as g, then v ← μ·v + g; nesterov and weight decay', () => {
    const h = hyperparameters(sgd, { lr: 0.5, momentum: 0.9 });
    const first = updateLines(
      sgd,
      h,
      { ...row, t: 1, stateAfter: { momentum_buffer: f(0.25, -0.5) } },
      vec,
    );
    assert.deepEqual(first.slice(1), [
      { rule: 'v ← g (the first step: the buffer starts as g)', numbers: 'v = [0.25, -0.5]' },
      { rule: 'W[2] ← W[2] − 0.5·v', numbers: '[1, 2] − 0.5·[0.25, -0.5] = [0.5, 1.5]' },
    ]);
    const later = {
      ...row,
      stateBefore: { momentum_buffer: f(1, 1) },
      stateAfter: { momentum_buffer: f(1.15, 0.4) },
    };
    assert.deepEqual(updateLines(sgd, h, later, vec).slice(1), [
      {
        rule: 'v ← 0.9·v + g',
        numbers: '0.9·[1, 1] + [0.25, -0.5] = [1.149999976158142, 0.4000000059604645]',
      },
      {
        rule: 'W[2] ← W[2] − 0.5·v',
        numbers: '[1, 2] − 0.5·[1.149999976158142, 0.4000000059604645] = [0.5, 1.5]',
      },
    ]);
    const nesterov = hyperparameters(sgd, {
      lr: 0.5,
      momentum: 0.9,
      dampening: 0,
      nesterov: true,
      weight_decay: 0.01,
    });
    const lines = updateLines(
      sgd,
      nesterov,
      { ...later, stateAfter: { momentum_buffer: f(2, 2) } },
      vec,
    );
    assert.deepEqual(
      lines.map((l) => l.rule),
      [
        'g = embedding.weight.grad[2]',
        'g ← g + 0.01·W[2]',
        'v ← 0.9·v + g',
        'W[2] ← W[2] − 0.5·(g + 0.9·v)',
      ],
    );
    assert.equal(lines[3].numbers, '[1, 2] − 0.5·([0.25, -0.5] + 0.9·[2, 2]) = [0.5, 1.5]');
  });

  test("Adam: m and v from 0 at the first step, the bias corrections at step t; AdamW's decay", () => {
    const h = hyperparameters(adam, { lr: 0.05 });
    const lines = updateLines(
      adam,
      h,
      { ...row, t: 1, stateAfter: { exp_avg: f(3, 4), exp_avg_sq: f(5, 6) } },
      vec,
    );
    assert.deepEqual(lines.slice(1), [
      { rule: 'm ← 0.9·m + (1 − 0.9)·g', numbers: '0.9·0 + (1 − 0.9)·[0.25, -0.5] = [3, 4]' },
      {
        rule: 'v ← 0.999·v + (1 − 0.999)·g²',
        numbers: '0.999·0 + (1 − 0.999)·[0.25, -0.5]² = [5, 6]',
      },
      {
        rule: 'W[2] ← W[2] − 0.05/(1 − 0.9^1)·m / (√v/√(1 − 0.999^1) + 1e-08)',
        numbers: '[1, 2] − 0.05/(1 − 0.9^1)·[3, 4] / (√[5, 6]/√(1 − 0.999^1) + 1e-08) = [0.5, 1.5]',
      },
    ]);
    const adamw = { ...adam, name: 'adamw', className: 'AdamW' };
    const decayed = updateLines(
      adamw,
      hyperparameters(adamw, { weight_decay: 0.01 }),
      { ...row, stateAfter: { exp_avg: f(3, 4), exp_avg_sq: f(5, 6) } },
      vec,
    );
    assert.deepEqual(decayed[1], {
      rule: 'W[2] ← W[2]·(1 − 0.001·0.01) (decoupled weight decay)',
      numbers: '[1, 2]·(1 − 0.001·0.01)',
    });
  });

  test('another optimizer: its state and the row, before and after, without a rule', () => {
    const adagrad = { name: 'adagrad', className: 'Adagrad', arguments: [] };
    const lines = updateLines(
      adagrad,
      {},
      { ...row, stateBefore: { sum: f(1, 1) }, stateAfter: { sum: f(2, 2) } },
      vec,
    );
    assert.deepEqual(lines.slice(1), [
      { rule: 'sum[2]', numbers: '[1, 1] → [2, 2]' },
      {
        rule: "W[2]: torch.optim.Adagrad's rule is not written out here",
        numbers: '[1, 2] → [0.5, 1.5]',
      },
    ]);
  });
});
