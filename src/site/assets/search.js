// Search by name or by code, in the browser: the snapshot's compact index ([code, name] pairs, a
// static file) is loaded once, on first use; no API call is made. Names match whichever way they
// are typed: full-width letters and digits as half-width, 臺 as 台, Latin letters in any case. A
// result links the company's page in the page's own language (the input's data-company, a URL
// with `{code}` in it);
// the texts come from /assets/messages.js (window.esgText), in the page's language.
(() => {
  const input = document.querySelector('[data-search-input]');
  const form = document.querySelector('[data-search-form]');
  const list = document.querySelector('[data-search-results]');
  const status = document.querySelector('[data-search-status]');
  if (!input || !list || !status) return;
  const t = (key, values) => window.esgText('search', key, values);
  const LIMIT = 20;
  const pageOf = (code) => (input.dataset.company ?? '/company/{code}/').replace('{code}', code);
  const fold = (s) =>
    s
      .replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
      .replace(/臺/g, '台')
      .replace(/\s+/g, '')
      .toUpperCase();
  let index = null;
  let loading = null;
  const load = () =>
    (loading ??= fetch(input.dataset.index)
      .then((r) => r.json())
      .then((j) => (index = j.companies.map(([code, name]) => [code, name, fold(name)]))));
  const show = () => {
    const q = input.value.trim();
    list.replaceChildren();
    if (!q) {
      status.textContent = t('empty');
      return;
    }
    if (!index) {
      status.textContent = t('loading');
      load().then(show);
      return;
    }
    const folded = fold(q);
    const byCode = [];
    const byName = [];
    for (const [code, name, key] of index) {
      if (code.startsWith(folded)) byCode.push([code, name]);
      else if (key.includes(folded) || code.includes(folded)) byName.push([code, name]);
    }
    const found = byCode.concat(byName);
    for (const [code, name] of found.slice(0, LIMIT)) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = pageOf(code);
      a.textContent = `${code} ${name}`;
      a.lang = 'zh-Hant';
      li.append(a);
      list.append(li);
    }
    status.textContent =
      found.length === 0
        ? t('none')
        : found.length > LIMIT
          ? t('many', { n: found.length, limit: LIMIT })
          : found.length === 1
            ? t('one')
            : t('some', { n: found.length });
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
