// What a token chip shows for the bytes a token stands for: its text with the invisible made
// visible (a space as '·', a newline as '↵', a tab as '⇥'), and every byte that is not part of a
// whole UTF-8 character within the token as <0xE2>, the way byte-fallback vocabularies name
// their byte tokens. An emoji cut across two tokens thus shows as <0xF0><0x9F> and <0x99><0x82>.
const SHOWN = new Map([[' ', '·'], ['\n', '↵'], ['\t', '⇥'], ['\r', '␍']]);
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const byteName = (byte) => `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`;

// The length in bytes (1 to 4) of the whole UTF-8 character that starts at bytes[at], or 0.
function characterLength(bytes, at) {
  for (let length = 1; length <= 4 && at + length <= bytes.length; ++length) {
    try {
      strict.decode(bytes.subarray(at, at + length));
      return length;
    } catch {
      // not a whole character yet: try one byte more
    }
  }
  return 0;
}

// A control character other than the whitespace above is shown as its byte: it has no glyph.
function visible(character) {
  if (SHOWN.has(character)) return SHOWN.get(character);
  const code = character.codePointAt(0);
  return code < 0x20 || code === 0x7f ? byteName(code) : character;
}

export function tokenLabel(bytes) {
  let label = '';
  for (let at = 0; at < bytes.length;) {
    const length = characterLength(bytes, at);
    label += length ? visible(strict.decode(bytes.subarray(at, at + length))) : byteName(bytes[at]);
    at += length || 1;
  }
  return label;
}
