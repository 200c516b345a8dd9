// What a token chip shows for the bytes a token stands for: its text with the invisible made
// visible (a space as '·', a newline as '↵', a tab as '⇥'), and every byte that is not part of a
// whole UTF-8 character within the token as <0xE2>, the way byte-fallback vocabularies name
// their byte tokens. An emoji cut across two tokens thus shows as <0xF0><0x9F> and <0x99><0x82>.
// Characters with no glyph (a zero-width joiner, a variation selector, a bidi mark, a no-break
// space) show by name, <ZWJ>, or as <U+2061>: a token of nothing else would be a blank chip. One
// that acts on the characters around it inside the token (the joiner of a family emoji, the
// selector after ❤) stays as it is, so that they draw as one.
const SHOWN = new Map([
  [' ', '·'],
  ['\n', '↵'],
  ['\t', '⇥'],
  ['\r', '␍'],
]);
const SHOWN_NAMES = new Map([
  ['·', 'a space'],
  ['↵', 'a newline'],
  ['⇥', 'a tab'],
  ['␍', 'a carriage return'],
]);

// What the marks in these labels stand for, in a sentence, or '' where there are none: a
// learner reads "·world" as a token that starts with a space.
export function marksLegend(labels) {
  const used = [...SHOWN_NAMES].filter(([mark]) => labels.some((label) => label.includes(mark)));
  if (used.length === 0) return '';
  const named = used.map(([mark, name]) => `${mark} is ${name}`).join(', ');
  return `In the chips, ${named}: it belongs to the token.`;
}
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const byteName = (byte) => `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`;

// Without a glyph: default-ignorable code points (format characters, variation selectors,
// fillers) and the spaces other than ' '.
const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{White_Space}]$/u;
// Spaces: shown by name wherever they are.
const SPACE = /^\p{White_Space}$/u;
// What modifies the character before it alone: variation selectors and tags.
// A class of lone combining characters is meant: each is tested on its own.
// eslint-disable-next-line no-misleading-character-class
const MODIFIER = /^[\uFE00-\uFE0F\u{E0020}-\u{E007F}\u{E0100}-\u{E01EF}]$/u;
const NAMES = new Map([
  ['\u00A0', 'NBSP'],
  ['\u00AD', 'SHY'],
  ['\u200B', 'ZWSP'],
  ['\u200C', 'ZWNJ'],
  ['\u200D', 'ZWJ'],
  ['\u200E', 'LRM'],
  ['\u200F', 'RLM'],
  ['\u2060', 'WJ'],
  ['\uFE0E', 'VS15'],
  ['\uFE0F', 'VS16'],
  ['\uFEFF', 'BOM'],
]);

function invisibleName(character) {
  const code = character.codePointAt(0).toString(16).toUpperCase().padStart(4, '0');
  return `<${NAMES.get(character) ?? `U+${code}`}>`;
}

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
const isControl = (character) => {
  const code = character.codePointAt(0);
  return code < 0x20 || code === 0x7f;
};

// A character drawn as itself: not a byte, a space, a control or an invisible one.
const drawn = (part) =>
  typeof part === 'string' && !SHOWN.has(part) && !isControl(part) && !INVISIBLE.test(part);

// parts: the token's whole characters (strings) and stray bytes (numbers); part i as shown.
function visible(parts, i) {
  const part = parts[i];
  if (typeof part === 'number') return byteName(part);
  if (SHOWN.has(part)) return SHOWN.get(part);
  if (isControl(part)) return byteName(part.codePointAt(0));
  if (!INVISIBLE.test(part)) return part;
  const attached =
    !SPACE.test(part) && drawn(parts[i - 1]) && (MODIFIER.test(part) || drawn(parts[i + 1]));
  return attached ? part : invisibleName(part);
}

export function tokenLabel(bytes) {
  const parts = [];
  for (let at = 0; at < bytes.length;) {
    const length = characterLength(bytes, at);
    parts.push(length ? strict.decode(bytes.subarray(at, at + length)) : bytes[at]);
    at += length || 1;
  }
  return parts.map((part, i) => visible(parts, i)).join('');
}
