// One colour per token, the same wherever the token is marked: its chip, its rows of the one-hot,
// of out and of the tables, the row of W it looks up, its lines of the printout, its gradient
// rows. Token k (counted from 0) has hue k mod TOKEN_HUES, the CSS custom property --token-N
// (styles/palette.css, for the page and <embedding-demo>, light and dark).
export const TOKEN_HUES = 8;

export const tokenHue = (k) => k % TOKEN_HUES;

// The colour as CSS can use it: 'var(--token-3)'.
export const tokenColor = (k) => `var(--token-${tokenHue(k)})`;
