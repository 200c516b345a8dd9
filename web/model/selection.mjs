// The one token every view marks. `hovered` is the token under the pointer or the focus (a light
// highlight that leaves the step alone), null when there is none; views subscribe instead of
// being wired to each other pairwise.
export function createSelection() {
  const events = new EventTarget();
  let hovered = null;
  return {
    get hovered() { return hovered; },
    hover(k) {
      if (k === hovered) return;
      hovered = k;
      events.dispatchEvent(new Event('change'));
    },
    subscribe(listener) {
      events.addEventListener('change', () => listener(hovered));
    },
  };
}
