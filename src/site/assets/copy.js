// Copy buttons for the curl examples, and the examples' host set to the one this page came from.
(() => {
  for (const code of document.querySelectorAll('code[data-origin]')) {
    code.textContent = code.textContent.split(code.dataset.origin).join(location.origin);
  }
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const code = button.parentElement.querySelector('code');
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(code.textContent);
        button.textContent = 'Copied';
      } catch {
        getSelection().selectAllChildren(code);
        button.textContent = 'Selected: press Ctrl+C';
      }
      setTimeout(() => (button.textContent = 'Copy'), 2000);
    });
  }
})();
