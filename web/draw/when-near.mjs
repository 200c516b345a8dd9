// Work that waits for its node to come near the viewport: each piece runs once its node is
// within NEAR of it, or, in document order, when the browser is idle, one piece at a time (the
// next waits for the one before to end, and for a task of its own). So what a reader cannot see
// yet (the page's sections below its first screen, the <embedding-demo> elements down a host
// page) never adds to the frames of what they can, and no task holds more than one piece.
const NEAR = '200px';
const IDLE_TIMEOUT_MS = 1000;

// Resolves in a task of its own, after the browser has had the chance to paint and take input.
export const nextTask = () =>
  globalThis.scheduler?.yield?.() ?? new Promise((resolve) => setTimeout(resolve, 0));

// Resolves after the next frame: what was built before it has been styled and laid out there, in
// a task of its own, not in the middle of whatever reads it next.
export const nextFrame = () =>
  new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

const waiting = []; // { node, start } of the work not begun, in document order
let running = null; // the work going on, or null
let idle = 0;

// Made on first use: a module that imports this one may be evaluated where no page is (Node).
let observer = null;
function watch(node) {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) if (entry.isIntersecting) begin(entry.target);
    },
    { rootMargin: NEAR },
  );
  observer.observe(node);
}

// Begins node's work, or the first waiting piece (node null), unless a piece runs: a node that
// comes near meanwhile is begun next.
function begin(node = null) {
  if (running) {
    if (node) running.near.add(node);
    return;
  }
  const k = node ? waiting.findIndex((entry) => entry.node === node) : 0;
  if (k < 0 || k >= waiting.length) return;
  const [entry] = waiting.splice(k, 1);
  observer.unobserve(entry.node);
  running = { near: new Set() };
  entry.start().finally(async () => {
    await nextTask();
    const { near } = running;
    running = null;
    const next = waiting.find((e) => near.has(e.node));
    if (next) begin(next.node);
    else whenIdle();
  });
}

function whenIdle() {
  if (idle || running || waiting.length === 0) return;
  idle = requestIdleCallback(
    () => {
      idle = 0;
      begin();
    },
    { timeout: IDLE_TIMEOUT_MS },
  );
}

// Runs work() (async) once node is near the viewport or the browser is idle; resolves to what it
// resolves to.
export function whenNear(node, work) {
  return new Promise((resolve, reject) => {
    const start = () => {
      const done = work();
      done.then(resolve, reject);
      return done.catch(() => {});
    };
    const after = waiting.findIndex(
      (entry) => node.compareDocumentPosition(entry.node) & Node.DOCUMENT_POSITION_FOLLOWING,
    );
    waiting.splice(after < 0 ? waiting.length : after, 0, { node, start });
    watch(node);
    whenIdle();
  });
}
