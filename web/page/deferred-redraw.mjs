// Redraws a section of the page now when it is on screen (or nearly), else later: when it
// scrolls near the viewport, or once the learner has stopped typing and the browser is idle.
// A keystroke's frame then holds only the work the reader can see, and no catch-up of an unseen
// section runs between two keystrokes. Until it has caught up, the section is aria-busy.
const NEAR = '200px';
const QUIET_MS = 250;
const IDLE_TIMEOUT_MS = 1000;

// Returns request(now = false): draw() runs now (when near, or asked to) or later, once however
// many requests came before it.
export function deferredRedraw(section, draw) {
  let near = false;
  let due = false;
  let quiet = 0;
  let idle = 0;

  function stopWaiting() {
    clearTimeout(quiet);
    cancelIdleCallback(idle);
    quiet = idle = 0;
  }

  function flush() {
    stopWaiting();
    if (!due) return;
    due = false;
    section.removeAttribute('aria-busy');
    draw();
  }

  new IntersectionObserver(
    (entries) => {
      near = entries[entries.length - 1].isIntersecting;
      if (near) flush();
    },
    { rootMargin: NEAR },
  ).observe(section);

  return function request(now = false) {
    due = true;
    if (near || now) {
      flush();
      return;
    }
    if (!section.hasAttribute('aria-busy')) section.setAttribute('aria-busy', 'true');
    stopWaiting();
    quiet = setTimeout(() => {
      quiet = 0;
      idle = requestIdleCallback(flush, { timeout: IDLE_TIMEOUT_MS });
    }, QUIET_MS);
  };
}
