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
