// The shadow roots' style sheets, parsed once per page and adopted by every <embedding-demo>:
// the page's style.css (tables, verdict, step-through, printout), text-mode.css (the token
// chips) and element.css (the element's palette and layout), in that order.
import pageCss from '../style.css';
import { styleSheet } from '../style-sheets.mjs';
import textModeCss from '../text-mode.css';
import elementCss from './element.css';

export const elementStyleSheets = () => [pageCss, textModeCss, elementCss].map(styleSheet);
