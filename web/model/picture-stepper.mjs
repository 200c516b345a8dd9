// The picture's stepper (views/picture/stepper.mjs): where a learner is in a mode's steps, and
// how Prev, Next, the scrubber, Play, Pause and time move it. Pure: no DOM and no clock; the view
// passes the milliseconds of each animation frame, and whether motion is reduced.
//   index     the step shown (0 to count − 1), or null at rest (the picture's end state)
//   progress  how far into the step's move (0 to 1; 1 once the step is in place)
//   playing   whether time moves it on; speed multiplies time
// A step lasts STEP_MS / speed while playing: its move takes the first MOVE_SHARE of that, the
// rest is time to read it. With reduced motion the same steps come, in place at once.
export const STEP_MS = 2000;
export const MOVE_SHARE = 0.5;
export const SPEEDS = [0.5, 1, 2];

export const atRest = (count, speed = 1) => ({
  count,
  index: null,
  progress: 1,
  playing: false,
  speed,
});

const clampIndex = (s, index) => Math.max(0, Math.min(s.count - 1, index));
const placed = (s, index) => ({ ...s, index: clampIndex(s, index), progress: 1, playing: false });

// The next step, in place; from rest, the first.
export const next = (s) => placed(s, s.index === null ? 0 : s.index + 1);
// The step before, in place; from rest, the last (the one that tells the end).
export const prev = (s) => placed(s, s.index === null ? s.count - 1 : s.index - 1);
export const seek = (s, index) => placed(s, index);
export const rest = (s) => atRest(s.count, s.speed);
export const withSpeed = (s, speed) => ({ ...s, speed });

// Play: from where a pause left it, else from the first step (at rest, or at the last step).
export function play(s) {
  if (s.index !== null && s.index < s.count - 1) return { ...s, playing: true };
  return { ...s, index: 0, progress: 0, playing: true };
}
export const pause = (s) => ({ ...s, playing: false });

// Whether a play has run through its last step.
export const ended = (s) => !s.playing && s.index === s.count - 1 && s.progress === 1;

// `ms` later: a playing stepper moves through its steps and stops at the last one, in place.
export function advance(s, ms) {
  if (!s.playing || s.index === null) return s;
  let { index, progress } = s;
  progress += (ms * s.speed) / STEP_MS;
  while (progress >= 1 && index < s.count - 1) {
    progress -= 1;
    index += 1;
  }
  if (progress >= 1) return { ...s, index, progress: 1, playing: false };
  return { ...s, index, progress };
}

// How far a step's move has gone at `progress` (0 to 1); reduced motion: always there.
export const moved = (progress, reduced) => (reduced ? 1 : Math.min(1, progress / MOVE_SHARE));
