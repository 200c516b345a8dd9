// The views that load when first built, not with the first screen (views/registry.mjs): one file
// of the split bundles (scripts/build-site.mjs), fetched once for all of them.
export { backwardView } from './backward.mjs';
export { bagView } from './bag.mjs';
export { benchmarkView } from '../benchmark/panel.mjs';
export { headView } from './head.mjs';
export { positionsView } from './positions.mjs';
export { printoutView } from './printout.mjs';
export { stepView } from './step.mjs';
export { trainView } from './train/view.mjs';
