// Redraws a section of the page now when it is on screen (or nearly), else later: when it
// scrolls near the viewport or the browser is next idle, whichever comes first. A keystroke's
// frame then holds only the work the reader can see; sections off screen still catch up.
const NEAR = '200px';
const IDLE_TIMEOUT_MS = 1000;

// Returns request(): draw() runs now or later, once per request however many came before it.
export function deferredRedraw(section, draw) {
  let near = false;
  let due = false;
  let idle = 0;

  function flush() {
    if (idle) cancelIdleCallback(idle);
    idle = 0;
    if (!due) return;
    due = false;
    draw();
  }

  new IntersectionObserver((entries) => {
    near = entries[entries.length - 1].isIntersecting;
    if (near) flush();
  }, { rootMargin: NEAR }).observe(section);

  return function request() {
    due = true;
    if (near) flush();
    else if (!idle) idle = requestIdleCallback(flush, { timeout: IDLE_TIMEOUT_MS });
  };
}
