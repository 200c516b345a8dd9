// The shadow roots' style sheets, parsed once per page and adopted by every <embedding-demo>:
// the page's styles/base.css (tables, verdict, step-through, printout), styles/palette.css (the
// colours of values, tokens and grades), styles/picture.css (the picture), styles/text-mode.css
// (the token chips) and element.css (the element's own chrome and layout), in that order, in the units of a shadow root (px for rem, whatever the host's root
// font size).
import pageCss from '../styles/base.css';
import paletteCss from '../styles/palette.css';
import pictureCss from '../styles/picture.css';
import { shadowStyleSheet } from '../draw/style-sheets.mjs';
import textModeCss from '../styles/text-mode.css';
import elementCss from './element.css';

export const elementStyleSheets = () =>
  [pageCss, paletteCss, pictureCss, textModeCss, elementCss].map(shadowStyleSheet);
