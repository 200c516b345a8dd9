// The picture's stepper: Prev, Play/Pause, Next, a scrubber over the steps and a speed, and
// the step's equation and caption in plain words below the picture; before the step that shows
// which row of W survives, a question: the learner predicts it, and the picture answers. Where
// it is in the steps is model/picture-stepper.mjs's; this module binds it to the controls, the
// keys and the animation frames. Keys anywhere in the figure: "." next, "," previous, "k" play or pause,
// Escape back to rest; on the stepper's buttons the arrow keys, Home and End too.
import { element, writeAttribute, writeProperty } from '../../draw/dom.mjs';
import { predictQuestion, predictReply } from '../../model/picture-play.mjs';
import * as stepper from '../../model/picture-stepper.mjs';

// A button with an icon and a word (a phone shows the icon alone), and its key on its corner
// (where a keyboard is likely: styles/picture.css), outside it, so that its name is its words;
// aria-keyshortcuts says the key to a screen reader.
function button(className, label, icon, word, key) {
  const node = element('button', className);
  node.type = 'button';
  node.setAttribute('aria-label', label);
  node.setAttribute('aria-keyshortcuts', key);
  const glyph = element('span', 'play-icon', icon);
  glyph.setAttribute('aria-hidden', 'true');
  node.append(glyph, element('span', 'play-text', word));
  const kbd = element('kbd', 'picture-key', key);
  kbd.setAttribute('aria-hidden', 'true');
  const keyed = element('span', 'picture-keyed');
  keyed.append(node, kbd);
  return { node, keyed };
}

// The controls, for the bar; the story (scrubber, speed, caption), for below the picture.
export function stepperParts(number) {
  const controls = element('div', 'picture-stepper');
  controls.setAttribute('role', 'group');
  controls.setAttribute('aria-label', 'Steps of the picture');
  const [prev, play, next] = [
    button('picture-prev', 'Prev step', '‹', 'Prev', ','),
    button('picture-play', 'Play the picture', '▶', 'Play', 'k'),
    button('picture-next', 'Next step', '›', 'Next', '.'),
  ];
  play.node.id = `picture-${number}-play`;
  const scrubber = element('input', 'picture-scrubber');
  scrubber.type = 'range';
  scrubber.min = '0';
  scrubber.setAttribute('aria-label', 'Step');
  const speed = element('select', 'picture-speed');
  speed.setAttribute('aria-label', 'Speed');
  for (const s of stepper.SPEEDS) {
    const option = element('option', '', `${s}×`);
    option.value = String(s);
    option.selected = s === 1;
    speed.append(option);
  }
  controls.append(prev.keyed, play.keyed, next.keyed);
  // Below the picture, while it is on a step (the picture at rest needs none of it): the
  // scrubber, the speed and the step in words.
  const story = element('div', 'picture-story');
  story.hidden = true;
  const scrub = element('div', 'picture-scrub');
  const escape = element('span', 'picture-escape');
  escape.append(element('kbd', 'picture-key', 'Esc'), ' back to rest');
  scrub.append(scrubber, speed, escape);
  const caption = element('p', 'picture-caption');
  caption.setAttribute('aria-live', 'polite');
  const counter = element('span', 'picture-step-count');
  const equation = element('strong', 'picture-equation');
  const words = element('span', 'picture-words');
  caption.append(counter, equation, words);
  // The question (with a button per row of W it offers) or, once answered, the reply.
  const predict = element('p', 'picture-predict');
  const question = element('span', 'predict-question');
  const choices = element('span', 'predict-choices');
  const reply = element('span', 'predict-reply');
  reply.setAttribute('aria-live', 'polite');
  predict.append(question, choices, reply);
  story.append(scrub, caption, predict);
  return {
    controls,
    story,
    prev: prev.node,
    play: play.node,
    next: next.node,
    scrubber,
    speed,
    counter,
    equation,
    words,
    predict: { box: predict, question, choices, reply },
  };
}

// parts: stepperParts(); figure: where data-play says where a play is ('' at rest, 'playing',
// 'paused' on a step, 'ended' after a play's last step). begin() makes the mode's player for
// what the picture shows now; show(player, index, moved) paints step `index`, its move
// `moved` of the way done (0 to 1); rest() paints the picture at rest. Returns { story(steps),
// stop() }: story() with each redraw's steps ({ equation, caption }), stop() before it.
export function createStepper(parts, figure, { begin, show, rest }) {
  let steps = [];
  let s = stepper.atRest(0);
  // The story's question, the rows the learner picked (wrong ones, then the right one) and
  // whether it was answered, kept while the redraws tell the same story (the same token, id and
  // rows); held: Play paused at the question, and goes on once it is answered.
  let asked = { key: '', predict: null, picked: [], answered: false, held: false };
  let player = null;
  let frame = { id: 0, last: null }; // the animation frame asked for, the time of the last one
  const reduced = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

  // Whether step `index` asks a question not answered yet.
  const asking = (index) => index !== null && Boolean(steps[index]?.predict) && !asked.answered;

  function render() {
    const playing = s.playing;
    const shown = s.index ?? steps.length - 1;
    const step = steps[shown];
    writeProperty(parts.counter, 'textContent', `Step ${shown + 1} of ${steps.length}: `);
    writeProperty(parts.equation, 'textContent', step?.equation ?? '');
    writeProperty(parts.words, 'textContent', step ? ` ${step.caption}` : '');
    writeAttribute(parts.scrubber, 'max', Math.max(0, steps.length - 1));
    writeProperty(parts.scrubber, 'value', String(shown));
    writeAttribute(parts.scrubber, 'aria-valuetext', `step ${shown + 1} of ${steps.length}`);
    renderPredict(step);
    // aria-disabled, not disabled: a button that keeps the focus at an end of the steps.
    writeAttribute(parts.prev, 'aria-disabled', steps.length < 2 || s.index === 0);
    writeAttribute(parts.next, 'aria-disabled', steps.length < 2 || s.index === steps.length - 1);
    const state = playing ? 'playing' : s.index === null ? '' : frame.ended ? 'ended' : 'paused';
    writeProperty(parts.story, 'hidden', s.index === null);
    if (figure.dataset.play !== state) figure.dataset.play = state;
    const [icon, text] = parts.play.children;
    writeProperty(icon, 'textContent', playing ? '❚❚' : '▶');
    writeProperty(text, 'textContent', playing ? 'Pause' : 'Play');
    // A name of its own: the Train view has a Play too.
    writeAttribute(parts.play, 'aria-label', playing ? 'Pause the picture' : 'Play the picture');
  }

  // The question on the steps that carry it, until it is answered right; the reply to each
  // pick. Unanswered, it goes once the row that survives is shown (a room kept empty there read
  // as a hole in the page).
  function renderPredict(step) {
    const { box, question, choices, reply } = parts.predict;
    const last = asked.picked.at(-1);
    writeProperty(box, 'hidden', !(asked.answered || (step?.predict && s.index !== null)));
    writeProperty(choices, 'hidden', asked.answered);
    writeProperty(question, 'hidden', asked.answered);
    writeProperty(
      reply,
      'textContent',
      last === undefined ? '' : predictReply(asked.predict, last),
    );
    for (const choice of choices.children) {
      const wrong = asked.picked.includes(Number(choice.dataset.row));
      writeAttribute(choice, 'aria-disabled', wrong);
      choice.classList.toggle('wrong', wrong);
    }
  }

  // A pick: right, the answer is shown (and a play held by the question goes on); wrong, the
  // reply says why, and the question stays for another try.
  function pick(row) {
    if (asked.answered || asked.picked.includes(row)) return;
    asked.picked = [...asked.picked, row];
    asked.answered = row === asked.predict.answer;
    if (asked.answered) {
      // The choices are gone: the focus goes on to Next, not to the page.
      parts.next.focus();
      if (asked.held) {
        asked.held = false;
        go(stepper.play);
        return;
      }
    }
    paint();
  }

  // A button per row of W the question offers, made when the story asks anew.
  function ask(predict) {
    const key = predict ? `${predict.k}:${predict.answer}:${predict.choices}` : '';
    if (key === asked.key) return;
    asked = { key, predict, picked: [], answered: false, held: false };
    if (!predict) return;
    parts.predict.question.textContent = `${predictQuestion(predict)} `;
    parts.predict.choices.replaceChildren(
      ...predict.choices.map((row) => {
        const choice = element('button', 'predict-choice', `W[${row}]`);
        choice.type = 'button';
        choice.dataset.row = String(row);
        choice.setAttribute('aria-label', `Predict W[${row}]`);
        choice.addEventListener('click', () => pick(row));
        return choice;
      }),
    );
  }

  function paint() {
    if (s.index === null) rest();
    else show(player, s.index, stepper.moved(s.progress, reduced()), asking(s.index));
    render();
  }

  function tick(now) {
    frame.id = 0;
    s = stepper.advance(s, frame.last === null ? 0 : now - frame.last);
    frame.last = now;
    frame.ended = stepper.ended(s);
    // Play waits at the question, once its step is in place, for the learner's answer.
    if (s.playing && asking(s.index) && stepper.moved(s.progress, reduced()) === 1) {
      s = stepper.pause(s);
      asked.held = true;
    }
    paint();
    if (s.playing) frame.id = requestAnimationFrame(tick);
  }

  // A learner's move: `change` of the stepper's state, from rest the mode's player made first.
  function go(change) {
    if (steps.length === 0) return;
    if (player === null) {
      player = begin();
      if (player === null) return;
    }
    cancelAnimationFrame(frame.id);
    s = change(s);
    if (!s.playing) asked.held = false;
    frame = { id: 0, last: null, ended: false };
    if (s.playing) frame.id = requestAnimationFrame(tick);
    paint();
  }

  parts.prev.addEventListener('click', () => go(stepper.prev));
  parts.next.addEventListener('click', () => go(stepper.next));
  parts.play.addEventListener('click', () => go(s.playing ? stepper.pause : stepper.play));
  parts.scrubber.addEventListener('input', () =>
    go((state) => stepper.seek(state, Number(parts.scrubber.value))),
  );
  parts.speed.addEventListener('change', () => {
    s = stepper.withSpeed(s, Number(parts.speed.value));
  });
  const keys = {
    '.': stepper.next,
    ',': stepper.prev,
    k: (state) => (state.playing ? stepper.pause(state) : stepper.play(state)),
  };
  const onButtons = {
    ArrowRight: stepper.next,
    ArrowLeft: stepper.prev,
    Home: (state) => stepper.seek(state, 0),
    End: (state) => stepper.seek(state, state.count - 1),
  };
  figure.addEventListener('keydown', (event) => {
    if (event.target.matches?.('input[type="range"], select')) return;
    const onButton = parts.controls.contains(event.target) && event.target.localName === 'button';
    const change = keys[event.key] ?? (onButton ? onButtons[event.key] : undefined);
    if (change) {
      event.preventDefault();
      go(change);
    } else if (event.key === 'Escape' && s.index !== null) {
      event.preventDefault();
      stop();
      paint();
    }
  });

  // Back to rest, painting nothing: a redraw follows. At rest already, it writes nothing.
  function stop() {
    cancelAnimationFrame(frame.id);
    frame = { id: 0, last: null, ended: false };
    player = null;
    s = stepper.rest(s);
    render();
  }

  return {
    stop,
    story(told) {
      steps = told;
      s = { ...s, count: told.length };
      ask(told.find((step) => step.predict)?.predict ?? null);
      render();
    },
  };
}
