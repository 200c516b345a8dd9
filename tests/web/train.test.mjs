// The Train view's pure modules in Node: Python's float literals, torch.equal, the training in the
// address and back, the script's code around what the core prints (a stand-in lab whose
// printing is visible), the runs: the training without a head following the store's steps and
// Play's timer (a stand-in lab that records what it is asked, timers that fire when the test
// says), the training with a head following them through a stand-in of the page's session, the
// plane the rows are drawn in, and the head view's default batch as GPT-2's tokenizer cuts the
// text. Every expected value is worked out by hand or comes from the tokenizer's package.
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
  textUnits,
} from '../../web/model/train-text.mjs';
import { readUrlState, urlFor } from '../../web/model/url-state.mjs';
import { scriptText } from '../../web/views/copy-script.mjs';
import { createPlayer, createRun } from '../../web/views/train/run.mjs';
import { createWindowRun, thinned, TRAIL_MAX } from '../../web/views/train/window-run.mjs';
import { principalPlane, project } from '../../web/model/train-projection.mjs';
import { epochMeans } from '../../web/draw/train-charts.mjs';
import { share } from '../../web/draw/train-predictions.mjs';
import { TRAIN_TEXT, TRAIN_TEXT_BATCH } from '../../web/model/train-inputs.mjs';
import { encode } from 'gpt-tokenizer/encoding/r50k_base';

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
      head: 'none',
      batchesFrom: 'ids',
      batchesText: '0; 1, 1',
      optimizer: 'adam',
      hyper: { lr: '0.05', betas: '0.5, 0.9', amsgrad: true },
      sparse: true,
      paddingIdxText: '-1',
      steps: 2,
    };
    const params = trainParams(train);
    assert.deepEqual(params, [
      ['head', 'none'],
      ['batches', '0; 1, 1'],
      ['batches_from', 'ids'],
      ['padding_idx', '-1'],
      ['sparse', 'True'],
      ['opt', 'adam'],
      ['opt.lr', '0.05'],
      ['opt.betas', '0.5, 0.9'],
      ['opt.amsgrad', 'True'],
      ['steps', '2'],
    ]);
    assert.deepEqual(trainFromParams(new URLSearchParams(params)), train);
    // The loader's fields, and flags whose default is True written as False.
    const loader = {
      ...TRAIN_INPUTS,
      linesText: 'the cat\nthe dog',
      tokenizer: 'gpt2',
      maxLengthText: '3',
      strideText: '1',
      batchSizeText: '4',
      shuffle: false,
      positions: false,
    };
    assert.deepEqual(trainParams(loader), [
      ['batch_lines', 'the cat\nthe dog'],
      ['batch_tokenizer', 'gpt2'],
      ['max_length', '3'],
      ['stride', '1'],
      ['batch_size', '4'],
      ['shuffle', 'False'],
      ['positions', 'False'],
    ]);
    assert.equal(
      new URLSearchParams(trainParams(loader)).toString(),
      'batch_lines=the+cat%0Athe+dog&batch_tokenizer=gpt2&max_length=3&stride=1&batch_size=4' +
        '&shuffle=False&positions=False',
    );
    assert.deepEqual(trainFromParams(new URLSearchParams(trainParams(loader))), loader);
    // PyTorch's own lr for AdamW (none typed) differs from the page's 0.1: the address says so.
    const own = { ...TRAIN_INPUTS, hyper: {} };
    assert.deepEqual(trainParams(own), [['opt', 'adamw']]);
    assert.deepEqual(trainFromParams(new URLSearchParams(trainParams(own))), own);
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
    assert.equal(linesError(['the cat', 'the dog'], 'none'), null);
    assert.equal(
      linesError(['the cat', '  ', 'the dog'], 'none'),
      'Line 2 is empty: each line is one batch, so give it at least one word, or delete the line.',
    );
    assert.match(linesError([''], 'none'), /^The text is empty/);
  });

  test('with a head, the whole text is one sequence', () => {
    assert.deepEqual(textUnits('the cat\nthe dog\n', 'tied'), ['the cat\nthe dog\n']);
    assert.deepEqual(textUnits('the cat\nthe dog\n', 'none'), ['the cat', 'the dog']);
    assert.equal(
      linesError([' \n '], 'tied'),
      'The text is empty: type a text to train on, or switch to ids.',
    );
  });

  test("the head view's default batch is the default text in GPT-2's ids, cut as the Train view cuts it", () => {
    const ids = encode(TRAIN_TEXT);
    assert.equal(ids.length, 31);
    const windows = [];
    for (let i = 0; i < ids.length - 4; i += 4) windows.push(ids.slice(i, i + 4).join(','));
    assert.equal(TRAIN_TEXT_BATCH, windows.join('; '));
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
    };
    return { lab, calls, run: createRun(lab, (error) => error instanceof Refused) };
  }
  const plan = (batches, lr = 'sgd') => ({
    head: 'none',
    seed: 1,
    vocab: 10,
    dim: 2,
    batches,
    options: { optimizer: { name: lr } },
    key: JSON.stringify(['none', 1, 10, 2, lr]),
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
    formatElements: (values) => values.map((x) => x.toFixed(4)),
    optimizerCode: (o, params) => `torch.optim.X(${params}, ${o.name})`,
  };
  const setup = {
    head: 'tied',
    seed: 3,
    vocab: 5,
    dim: 2,
    optimizer: { name: 'adamw' },
    ids: Float64Array.from([1, 2, 3, 4, 0, 1]),
    loader: { maxLength: 2, stride: 1, batchSize: 2, shuffle: true },
    positions: true,
    text: null,
    tokenizerLabel: null,
  };
  const steps = [
    {
      step: 1,
      x: [
        [3, 4],
        [1, 2],
      ],
      loss: 1.5,
      changedCount: 5,
    },
    {
      step: 2,
      x: [
        [2, 3],
        [4, 0],
      ],
      loss: 0.25,
      changedCount: 4,
    },
  ];

  test("tied, with positions: the chapter's program, then one loop that prints each step's line", () => {
    const script = trainScript(lab, setup, steps);
    assert.deepEqual(script[0].code.slice(4, 15), [
      'V, d = 5, 2',
      'torch.manual_seed(3)',
      'tok = nn.Embedding(V, d)',
      'pos = nn.Embedding(2, d)',
      'head = nn.Linear(d, V, bias=False)  # drawn tied or not, as GPTModel draws it',
      'head.weight = tok.weight  # tied: one Parameter, used at both ends',
      'ids = [1, 2, 3, 4, 0, 1]',
      'dataset = [(torch.tensor(ids[i:i + 2]), torch.tensor(ids[i + 1:i + 3])) for i in range(0, len(ids) - 2, 1)]',
      'loader = torch.utils.data.DataLoader(dataset, batch_size=2, shuffle=True, drop_last=True)',
      'opt = torch.optim.X([tok.weight, pos.weight], adamw)',
      'batches = (batch for epoch in range(10**6) for batch in loader)',
    ]);
    assert.equal(script.length, 2);
    assert.deepEqual(script[1].code.slice(0, 3), [
      'for step in range(1, 3):',
      '    x, y = next(batches)',
      '    loss = F.cross_entropy(head(tok(x) + pos(torch.arange(2))).flatten(0, 1), y.flatten())',
    ]);
    assert.equal(
      script[1].printed,
      'step 1: x = [[3, 4], [1, 2]], loss tensor(1.5000, grad_fn=<NllLossBackward0>), rows changed: 5\n' +
        'step 2: x = [[2, 3], [4, 0]], loss tensor(0.2500, grad_fn=<NllLossBackward0>), rows changed: 4',
    );
    assert.equal(trainScript(lab, setup, []).length, 1, 'no step, no loop');
  });

  test('untied, without positions: the head is its own, the optimizer takes it, h is tok(x)', () => {
    const script = trainScript(lab, { ...setup, head: 'untied', positions: false }, steps);
    const code = script[0].code;
    assert.ok(!code.some((line) => line.startsWith('head.weight =') || line.startsWith('pos =')));
    assert.ok(code.includes('opt = torch.optim.X([tok.weight, head.weight], adamw)'));
    assert.match(script[1].code[2], /head\(tok\(x\)\)\.flatten/);
  });
});

describe('train window run', () => {
  // A stand-in of the page's session: each request's steps, a step per request, recorded.
  function standIn({ fail = null } = {}) {
    const requests = [];
    let taken = 0;
    let key = null;
    const info = { windows: 3, batchesPerEpoch: 1, watched: [1, 2], weight: 'W0' };
    const computeTraining = async (request) => {
      requests.push(request);
      if (fail) throw fail;
      if (request.key !== key || request.steps < taken) {
        key = request.key;
        taken = 0;
      }
      const steps = [];
      if (taken < request.steps) {
        taken += 1;
        steps.push({ step: taken, epoch: taken, loss: 1 / taken });
      }
      return {
        key: request.key,
        taken,
        info: request.since === 0 ? info : null,
        steps,
        weight: `W${taken}`,
        whole: request.whole ? { token: 'T' } : null,
      };
    };
    return { requests, computeTraining };
  }
  const plan = (key) => ({
    key,
    head: 'tied',
    seed: 1,
    vocab: 5,
    dim: 2,
    ids: [1, 2, 1, 2],
    optimizer: { name: 'adamw' },
    positions: true,
    loader: { maxLength: 2, stride: 1, batchSize: 1, shuffle: false },
  });
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

  test('follows the steps asked for, a request a slice, and keeps every step and the trail', async () => {
    const { requests, computeTraining } = standIn();
    const heard = [];
    const run = createWindowRun({
      computeTraining,
      nextFrame: async () => {},
      onUpdate: (c) => heard.push(c.log.length),
      onError: (e) => assert.fail(e),
    });
    run.follow(plan('a'), 2);
    await settled();
    await settled();
    await settled();
    assert.deepEqual(heard, [1, 2]);
    assert.deepEqual(
      requests.map((r) => [r.steps, r.since, r.whole]),
      [
        [2, 0, false],
        [2, 1, false],
      ],
    );
    assert.deepEqual(
      run.current.trail.map((t) => [t.step, t.weight]),
      [
        [0, 'W0'],
        [1, 'W1'],
        [2, 'W2'],
      ],
    );
    assert.deepEqual(
      run.current.log.map((s) => s.step),
      [1, 2],
    );
    // The whole tables, once asked for, come with the next reply.
    run.askWhole();
    await settled();
    assert.equal(requests.at(-1).whole, true);
    assert.deepEqual(run.current.last.whole, { token: 'T' });
    // Fewer steps than taken: from the start again.
    run.follow(plan('a'), 0);
    await settled();
    assert.equal(run.current.log.length, 0);
    assert.equal(requests.at(-1).since, 0);
  });

  test('Play goes on until paused; new inputs while a reply is on its way drop that reply', async () => {
    const { requests, computeTraining } = standIn();
    let frames = 0;
    let run;
    run = createWindowRun({
      computeTraining,
      nextFrame: async () => {
        frames += 1;
        if (frames === 3) run.pause();
      },
      onUpdate: () => {},
      onError: (e) => assert.fail(e),
    });
    run.follow(plan('a'), 0);
    await settled();
    run.play();
    for (let k = 0; k < 8; ++k) await settled();
    assert.equal(run.playing, false);
    assert.equal(run.current.log.length, 3);
    assert.ok(requests.slice(1, 4).every((r) => r.steps === Number.MAX_SAFE_INTEGER));
    // A reply for 'a' that arrives after 'b' was asked for is dropped.
    run.follow(plan('a'), 4);
    run.follow(plan('b'), 1);
    for (let k = 0; k < 4; ++k) await settled();
    assert.equal(run.current.key, 'b');
    assert.equal(run.current.log.length, 1);
  });

  test("the core's refusal ends the training and is handed on", async () => {
    const refusal = new Error('max_length too long');
    const { computeTraining } = standIn({ fail: refusal });
    const errors = [];
    const run = createWindowRun({
      computeTraining,
      nextFrame: async () => {},
      onUpdate: () => assert.fail('no reply'),
      onError: (e) => errors.push(e),
    });
    run.follow(plan('a'), 3);
    await settled();
    assert.deepEqual(errors, [refusal]);
    assert.equal(run.current.failed, refusal);
    run.play();
    assert.equal(run.playing, false, 'a failed training does not play');
  });

  test('a full trail loses every other place, the first and the newest kept', () => {
    const trail = Array.from({ length: TRAIL_MAX + 1 }, (_, k) => k);
    const kept = thinned(trail);
    assert.equal(kept[0], 0);
    assert.equal(kept.at(-1), TRAIL_MAX);
    assert.equal(kept.length, TRAIL_MAX / 2 + 1);
    assert.equal(thinned([1, 2, 3]).length, 3);
  });
});

describe('train charts and plane', () => {
  test("each epoch's mean over its steps", () => {
    assert.deepEqual(epochMeans([4, 2, 3, 1, 1], [1, 1, 2, 2, 3]), [
      { epoch: 1, first: 1, last: 2, mean: 3 },
      { epoch: 2, first: 3, last: 4, mean: 2 },
      { epoch: 3, first: 5, last: 5, mean: 1 },
    ]);
  });

  test('a probability as a share of 100', () => {
    assert.deepEqual([0.9981, 0.5432, 0.0456, 0.0004].map(share), ['100%', '54%', '4.6%', '<0.1%']);
  });

  test("the plane: the rows' two principal axes at step 0, fixed, and where each row falls", () => {
    // Four rows of d = 3 spread 8:2:0 along x, y, z around their mean (1, 1, 1).
    const rows = {
      rows: 4,
      cols: 3,
      data: Float32Array.from([-1, 1, 1, 3, 1, 1, 1, 2, 1, 1, 0, 1]),
    };
    const plane = principalPlane(rows);
    assert.deepEqual(plane.mean, [1, 1, 1]);
    const round = (v) => v.map((x) => Math.round(x * 1e6) / 1e6 + 0);
    assert.deepEqual(round(plane.axes[0]), [1, 0, 0]);
    assert.deepEqual(round(plane.axes[1]), [0, 1, 0]);
    assert.deepEqual(round(plane.shares), [0.8, 0.2]);
    assert.deepEqual(round(project(plane, rows, 1)), [2, 0]);
    assert.deepEqual(round(project(plane, rows, 3)), [0, -1]);
    // A later table in the same plane: the row moved by (0.5, 0, 3) shows only (0.5, 0).
    const later = { rows: 1, cols: 3, data: Float32Array.from([3.5, 1, 4]) };
    assert.deepEqual(round(project(plane, later, 0)), [2.5, 0]);
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
