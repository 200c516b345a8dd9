// The backward, bag, positions and head views' own inputs as the store keeps them
// (model/state.mjs's `views`), so that the address (url-state.mjs) reproduces them as it does the Train view's: for each view,
// its form's input name -> the text typed, holding only what differs from the form's default.
// In the address: backward.grad-seed=5&bag.offsets=0,2&bag.mode=sum. Pure: no DOM; which names
// a form has is the form's business (views/view-form.mjs), and it ignores any other.
export const VIEW_INPUTS = Object.freeze({
  backward: Object.freeze({}),
  bag: Object.freeze({}),
  positions: Object.freeze({}),
  head: Object.freeze({}),
});

const PARAM = new RegExp(`^(${Object.keys(VIEW_INPUTS).join('|')})\\.([a-z][a-z-]*)$`);

export const isViewParam = (param) => PARAM.test(param);

// The views' inputs in params (URLSearchParams), or null when it has none.
export function viewsFromParams(params) {
  let views = null;
  for (const [param, value] of params) {
    const match = PARAM.exec(param);
    if (!match) continue;
    const [, kind, name] = match;
    views ??= Object.fromEntries(Object.keys(VIEW_INPUTS).map((view) => [view, {}]));
    views[kind][name] = value;
  }
  return views;
}

// [param, value] pairs for the address.
export const viewParams = (views) =>
  Object.entries(views).flatMap(([kind, inputs]) =>
    Object.entries(inputs).map(([name, value]) => [`${kind}.${name}`, value]),
  );
