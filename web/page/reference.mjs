// The reference page shows each live example's markup above it, read from the element itself,
// so that the code and the example cannot disagree.
const escaped = (value) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

function markup(element) {
  const attributes = [...element.attributes].map(({ name, value }) =>
    value === '' ? ` ${name}` : ` ${name}="${escaped(value)}"`,
  );
  const tag = element.localName;
  return `<${tag}${attributes.join('')}></${tag}>`;
}

for (const example of document.querySelectorAll('.example')) {
  example.querySelector('pre.code code').textContent = markup(
    example.querySelector('embedding-demo'),
  );
}

// The sections below the first screen start skipped by layout (article.css): the page's first
// layout is its first screen's. Each is then laid out for good, one per idle period (in the frame
// after it), so that soon after the page settles the outline of its headings and the scroll
// regions inside its examples are whole, for assistive technology as for the eye.
const skipped = [...document.querySelectorAll('.article > section')];
function layOut() {
  skipped.shift().dataset.laidOut = '';
  if (skipped.length > 0) requestIdleCallback(layOut);
}
if (skipped.length > 0) requestIdleCallback(layOut);
