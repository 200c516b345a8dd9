// The head view's check of the logits it prints: the core's GEMM against the same dot products
// added one at a time, left to right. It is not the lookup-vs-product verdict (two routes that
// must agree bit for bit): two orders of the same sums, which float32 may round apart in their
// last bits. So it has its own calm look (styles/base.css, .order-check) and its own words, from
// the core's grade of the comparison.
import { element } from './dom.mjs';
import { count } from '../model/format-number.mjs';

// comparison: lab.compare() of the two orders, with its grade.
export function showOrderCheck(box, comparison) {
  const { grade } = comparison;
  const all = count(comparison.elements);
  const same = count(comparison.bitIdentical);
  const sentence =
    comparison.bitIdentical === comparison.elements
      ? `All ${all} printed logits hold the same 32 bits in both orders.`
      : `${same} of ${all} printed logits hold the same 32 bits in both orders; the others ` +
        `differ by at most ${grade.maxAbsDiffText} (${grade.headline}).`;
  box.dataset.state = grade.state;
  box.replaceChildren(
    element('p', 'order-check-title', 'Summation order: the GEMM vs one product at a time'),
    element('p', 'order-check-sentence', sentence),
  );
}
