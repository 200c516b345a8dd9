// Redraws that touch only what changed. A view that draws many times a second (the Train view
// while Play plays) builds its new content apart, then morphChildren() carries it over: where a
// node keeps its kind and its children's count, its attributes and text are written only where
// they differ (writeAttribute's reason: Chromium styles and lays out what is written, even its
// old value), and only a node whose shape changed is replaced. The page then restyles and lays
// out the few cells that changed, not the whole view; a focused button stays focused.
import { writeAttribute } from './dom.mjs';

function morphNode(target, source) {
  if (target.nodeType === Node.TEXT_NODE) {
    if (target.data !== source.data) target.data = source.data;
    return;
  }
  for (const { name } of [...target.attributes])
    if (!source.hasAttribute(name)) target.removeAttribute(name);
  for (const { name, value } of source.attributes) writeAttribute(target, name, value);
  morphChildren(target, source);
}

// Makes target's children those of source (an element built apart, whose children may move).
export function morphChildren(target, source) {
  const wanted = [...source.childNodes];
  const had = [...target.childNodes];
  if (had.length !== wanted.length) {
    target.replaceChildren(...wanted);
    return;
  }
  wanted.forEach((node, i) => {
    const old = had[i];
    if (old.nodeType !== node.nodeType || old.nodeName !== node.nodeName) old.replaceWith(node);
    else morphNode(old, node);
  });
}
