// Search by Chinese name or by code, in the browser: the snapshot's compact index
// ([code, name] pairs, a static file) is loaded once, on first use; no API call is made.
(() => {
  const input = document.querySelector('[data-search-input]');
  const form = document.querySelector('[data-search-form]');
  const list = document.querySelector('[data-search-results]');
  const status = document.querySelector('[data-search-status]');
  if (!input || !list || !status) return;
  const LIMIT = 20;
  let index = null;
  let loading = null;
  const load = () => (loading ??= fetch(input.dataset.index).then((r) => r.json()).then((j) => (index = j.companies)));
  const show = () => {
    const q = input.value.trim();
    list.replaceChildren();
    if (!q) { status.textContent = 'Type a name or a code.'; return; }
    if (!index) { status.textContent = 'Loading the index…'; load().then(show); return; }
    const upper = q.toUpperCase();
    const byCode = [];
    const byName = [];
    for (const [code, name] of index) {
      if (code.startsWith(upper)) byCode.push([code, name]);
      else if (name.includes(q) || code.includes(upper)) byName.push([code, name]);
    }
    const found = byCode.concat(byName);
    for (const [code, name] of found.slice(0, LIMIT)) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `/company/${code}/`;
      a.textContent = `${code} ${name}`;
      a.lang = 'zh-Hant';
      li.append(a);
      list.append(li);
    }
    status.textContent = found.length === 0 ? 'No company matches.' : found.length > LIMIT ? `${found.length} matches; the first ${LIMIT}:` : `${found.length} ${found.length === 1 ? 'match' : 'matches'}:`;
  };
  input.addEventListener('focus', load, { once: true });
  input.addEventListener('input', show);
  form?.addEventListener('submit', (e) => {
    e.preventDefault();
    const first = list.querySelector('a');
    if (first) location.href = first.href;
  });
  if (input.value) show();
})();
