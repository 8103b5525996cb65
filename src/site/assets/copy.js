// Copy buttons for the curl examples, and the examples' host set to the one this page came from.
// Texts in the page's language, from /assets/messages.js.
(() => {
  const msg = (key) => window.esgText('copy', key);
  for (const code of document.querySelectorAll('code[data-origin]')) {
    code.textContent = code.textContent.split(code.dataset.origin).join(location.origin);
  }
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const code = button.parentElement.querySelector('code');
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(code.textContent);
        button.textContent = msg('copied');
      } catch {
        getSelection().selectAllChildren(code);
        button.textContent = msg('selected');
      }
      setTimeout(() => (button.textContent = msg('copy')), 2000);
    });
  }
})();
