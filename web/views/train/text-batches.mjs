// The Train view's data typed as text: the text (with a head) or each line (without) tokenized
// in the tokenizer worker, one request after another on the view's channel (whose newest request
// wins), then V and d as model/train-text.mjs makes them.
import { FieldError } from '../../compute/plan.mjs';
import { linesError, shapeSentence, textShape, textUnits } from '../../model/train-text.mjs';

// form: the view's (form.mjs), told the shape and the progress; ready(): called once the lines
// of the newest text are tokenized (or refused), to update the view.
export function createTextBatches({ lab, tokenizers, form, ready }) {
  const channel = tokenizers.openChannel();
  let tokenized = null; // { key, lines: [{ text, ids, labels }] | null, error: FieldError | null }

  async function tokenizeLines(key, name, linesText, head) {
    const lines = textUnits(linesText, head);
    const wrong = linesError(lines, head);
    tokenized = { key, lines: null, error: wrong === null ? null : new FieldError('lines', wrong) };
    if (wrong !== null) return;
    const done = [];
    for (const [k, line] of lines.entries()) {
      const answer = await channel.tokenize(name, line, lab, (progress) => {
        if (tokenized.key === key) form.showShape(tokenizers.progressMessage(progress));
      });
      if (!answer || tokenized.key !== key) return; // other lines came meanwhile
      if (answer.error) {
        const where = lines.length > 1 ? `Line ${k + 1}: ` : '';
        tokenized.error = answer.textError
          ? new FieldError('lines', `${where}${answer.error}`)
          : new FieldError('tokenizer', answer.error);
        ready();
        return;
      }
      done.push({ text: line, ids: answer.ids, labels: answer.labels });
    }
    tokenized.lines = done;
    ready();
  }

  // The store's text: null when typed as ids; else { label, vocab, dim, lines } (the
  // tokenizer's, V and d as train-text.mjs makes them, the units tokenized), undefined while
  // the tokenizer works, or a FieldError thrown.
  function textBatches({ train, result }) {
    if (train.batchesFrom !== 'text') return null;
    const name = train.tokenizer ?? tokenizers.defaultName;
    const spec = tokenizers.catalog[name];
    if (!spec) {
      throw new FieldError(
        'tokenizer',
        `There is no tokenizer "${name}": pick one of ` +
          `${Object.values(tokenizers.catalog)
            .map((t) => t.label)
            .join(', ')}.`,
      );
    }
    const shape = textShape(spec, result.dim);
    if (shape.dim === 0) throw new FieldError('tokenizer', shapeSentence(spec, result.dim));
    const head = train.head === 'none' ? 'none' : 'head';
    const key = JSON.stringify([name, train.linesText, head]);
    if (tokenized?.key !== key) tokenizeLines(key, name, train.linesText, head);
    if (tokenized.error) throw tokenized.error;
    if (!tokenized.lines) return undefined;
    form.showShape(shapeSentence(spec, result.dim));
    return { label: spec.label, ...shape, lines: tokenized.lines };
  }

  // The ids of the text as last tokenized, with a head (one sequence), or null.
  const textIds = () => (tokenized?.lines?.length === 1 ? tokenized.lines[0].ids : null);
  return { textBatches, textIds };
}
