// The one script of the pages, served as a file (the CSP allows no inline script). It only adds
// comfort; every flow works without it. Today: copy buttons (data-copy names the input to copy;
// data-copied and data-copy-by-hand, when set, are the messages in the page's language).
export const ENHANCEMENT_SCRIPT = `'use strict';
document.querySelectorAll('button[data-copy]').forEach(function (button) {
  var input = document.getElementById(button.getAttribute('data-copy'));
  var status = document.getElementById(button.getAttribute('data-copy') + '-status');
  if (!input || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener('click', function () {
    navigator.clipboard.writeText(input.value).then(function () {
      if (status) status.textContent = button.getAttribute('data-copied') || 'Copied';
    }, function () {
      input.select();
      if (status) status.textContent = button.getAttribute('data-copy-by-hand') || 'Press Ctrl+C to copy';
    });
  });
});
`
