// What an author's page does with the package: the element, and the API beside it. Every
// consumer of tests/package/consumers.test.mjs bundles (or imports) this file as it is.
import 'embedlab/element';
import { loadEmbedlab } from 'embedlab';

loadEmbedlab().then((lab) => {
  const table = lab.openSeededTable(123, 4, 5);
  const rows = table.lookup(lab.parseIds('tensor([2, 3, 1])'));
  table.delete();
  document.getElementById('api').textContent = lab.formatTensor(rows, {
    suffixes: ['grad_fn=<EmbeddingBackward0>'],
  });
});
