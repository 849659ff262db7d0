// The embedded dashboard's messages to the page that frames it, `affiliate-kit:ready` once and
// `affiliate-kit:resize` whenever its height changes, and `affiliate-kit:refused` (with the reason) when
// the token opened nothing, served after the pages' enhancement script (its copy button) as one
// file (the CSP allows no inline script). They go to each configured embedding origin
// by name, never to '*': the browser delivers one only when the framing page is of that origin.
export const EMBED_SCRIPT = `'use strict';
(function () {
  var origins = (document.documentElement.getAttribute('data-parent-origins') || '').split(' ').filter(Boolean);
  function tell(message) {
    if (window.parent === window) return;
    origins.forEach(function (origin) { window.parent.postMessage(message, origin); });
  }
  var height = 0;
  function measure() {
    var now = Math.ceil(document.documentElement.scrollHeight);
    if (now === height) return;
    height = now;
    tell({ type: 'affiliate-kit:resize', height: now });
  }
  var refused = document.documentElement.getAttribute('data-refused');
  if (refused) tell({ type: 'affiliate-kit:refused', reason: refused });
  tell({ type: 'affiliate-kit:ready', height: Math.ceil(document.documentElement.scrollHeight) });
  if (window.ResizeObserver) new ResizeObserver(measure).observe(document.body);
  measure();
})();
`
