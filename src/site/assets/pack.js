// Evidence packs (components/PackForm.astro): the selection and the API key live in this tab's
// sessionStorage only; the pack is POSTed with the key and saved through a download link.
(() => {
  const section = document.querySelector('[data-pack]');
  if (!section) return;
  const form = section.querySelector('[data-pack-form]');
  const field = form.querySelector('input[name=tickers]');
  const keyField = form.querySelector('input[name=key]');
  const status = form.querySelector('[data-pack-status]');
  const count = form.querySelector('[data-pack-count]');
  const MAX = 50;
  // Texts in the page's language, from /assets/messages.js.
  const msg = (key, values) => window.esgText('pack', key, values);
  const SELECTION = 'esg-pack-tickers';
  const KEY = 'esg-api-key';
  const store = {
    get: (k) => {
      try {
        return sessionStorage.getItem(k);
      } catch {
        return null;
      }
    },
    set: (k, v) => {
      try {
        sessionStorage.setItem(k, v);
      } catch {
        /* storage off: the fields still work */
      }
    },
  };
  const parse = (text) => [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((t) => t.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];

  form.hidden = false;
  for (const code of section.querySelectorAll('code[data-origin]'))
    code.textContent = code.textContent.split(code.dataset.origin).join(location.origin);
  if (!section.dataset.preset) field.value = (store.get(SELECTION) ?? '').split(' ').filter(Boolean).join(' ');
  keyField.value = store.get(KEY) ?? '';

  const boxes = new Map();
  function sync() {
    const codes = parse(field.value);
    count.textContent = codes.length === 0 ? msg('noneChosen') : msg(codes.length > MAX ? 'chosenTooMany' : 'chosen', { n: codes.length, max: MAX });
    for (const [ticker, box] of boxes) box.checked = codes.includes(ticker);
    if (!section.dataset.preset) store.set(SELECTION, codes.join(' '));
  }

  // Ranking rows: a last column of checkboxes (last, so the sort script's column numbers still hold).
  if (section.dataset.rows) {
    for (const table of document.querySelectorAll('table.ranking')) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = msg('column');
      table.tHead.rows[0].append(th);
      for (const tr of table.tBodies[0].rows) {
        const ticker = tr.dataset.ticker;
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.setAttribute('aria-label', msg('add', { ticker }));
        box.addEventListener('change', () => {
          const codes = parse(field.value).filter((t) => t !== ticker);
          if (box.checked) codes.push(ticker);
          field.value = codes.join(' ');
          sync();
        });
        const td = document.createElement('td');
        td.append(box);
        tr.append(td);
        boxes.set(ticker, box);
      }
    }
  }
  field.addEventListener('input', sync);
  sync();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const tickers = parse(field.value);
    const key = keyField.value.trim();
    if (tickers.length === 0) return say(msg('chooseOne'));
    if (tickers.length > MAX) return say(msg('tooMany', { max: MAX, n: tickers.length }));
    if (!key) {
      keyField.focus();
      return say(msg('noKey'));
    }
    store.set(KEY, key);
    say(msg('preparing'));
    try {
      const res = await fetch('/api/v1/packs', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
        body: JSON.stringify({ tickers }),
      });
      if (!res.ok) {
        const body = await res.json().catch(() => null);
        return say(
          body?.error
            ? msg('refused', { message: body.error.message, status: res.status, code: body.error.code })
            : msg('failed', { status: res.status }),
        );
      }
      const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'evidence-pack.zip';
      const blob = await res.blob();
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      say(msg(tickers.length === 1 ? 'downloadedOne' : 'downloaded', { name, n: tickers.length, kb: Math.ceil(blob.size / 1024) }));
    } catch {
      say(msg('network'));
    }
  });

  function say(text) {
    status.textContent = text;
  }
})();
