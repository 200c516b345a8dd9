// A box whose content can be wider (or taller) than the box scrolls inside it; while it does, it
// must be reachable by keyboard, or a learner without a pointer could never see its far side.
// While its content overflows, such a box is a focusable, named region (tabindex="0",
// role="region", aria-label) marked data-scrolls, which the style sheet shows as shades at the
// edges with more beyond them; otherwise it is a plain box, out of the tab order. Checked after
// layout (a ResizeObserver), never by forcing one: the box and whatever it holds are watched.

const labels = new WeakMap(); // box -> label(): its accessible name while it scrolls
let resizes = null; // one ResizeObserver for every box
let insertions = null; // and one MutationObserver, for the content each box is given

function update(box) {
  const scrolls = box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
  // A box with the focus keeps it: taking its tabindex would drop the focus to the page.
  if (!scrolls && box.matches(':focus')) return;
  if (scrolls === (box.getAttribute('tabindex') === '0')) {
    if (scrolls) box.setAttribute('aria-label', labels.get(box)());
    return;
  }
  if (scrolls) {
    box.setAttribute('tabindex', '0');
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', labels.get(box)());
    box.dataset.scrolls = '';
  } else {
    box.removeAttribute('tabindex');
    box.removeAttribute('role');
    box.removeAttribute('aria-label');
    delete box.dataset.scrolls;
  }
}

// The registered box a resized node is or lies directly in.
const boxOf = (node) =>
  labels.has(node) ? node : labels.has(node.parentNode) ? node.parentNode : null;

function watchChildren(box) {
  for (const child of box.children) resizes.observe(child);
}

// box: an element with overflow: auto; label(): its name while it scrolls (what it shows).
export function scrollRegion(box, label) {
  resizes ??= new ResizeObserver((entries) => {
    const boxes = new Set(entries.map(({ target }) => boxOf(target)).filter(Boolean));
    for (const box of boxes) update(box);
  });
  insertions ??= new MutationObserver((records) => {
    for (const { target } of records) watchChildren(target);
  });
  labels.set(box, label);
  // A box that stopped scrolling while it had the focus leaves the tab order once left.
  box.addEventListener('focusout', () => update(box));
  resizes.observe(box);
  watchChildren(box);
  insertions.observe(box, { childList: true });
}

// Every table box (.table-box) under container, each named by the title of the item it is in.
export function tableRegions(container) {
  for (const box of container.querySelectorAll('.table-box')) {
    scrollRegion(box, () => box.parentElement.firstElementChild.textContent.trim());
  }
}
