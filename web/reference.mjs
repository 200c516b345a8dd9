// The reference page shows each live example's markup above it, read from the element itself,
// so that the code and the example cannot disagree.
for (const example of document.querySelectorAll('.example')) {
  example.querySelector('pre.code code').textContent =
    example.querySelector('embedding-demo').outerHTML;
}
