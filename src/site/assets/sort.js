// Sortable tables: clicking a header sorts the rows of this page (the pages themselves are in
// rank order, and every filter has its own pages, so this is a convenience, not a requirement).
(() => {
  for (const table of document.querySelectorAll('table[data-sortable]')) {
    const heads = [...table.querySelectorAll('th[data-sort]')];
    heads.forEach((th, col) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = th.textContent;
      th.replaceChildren(button);
      th.setAttribute('aria-sort', 'none');
      button.addEventListener('click', () => {
        const ascending = th.getAttribute('aria-sort') !== 'ascending';
        for (const h of heads) h.setAttribute('aria-sort', 'none');
        th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        const body = table.tBodies[0];
        const key = (tr) => tr.cells[col]?.textContent.trim() ?? '';
        const rows = [...body.rows].sort((a, b) => {
          const x = key(a);
          const y = key(b);
          const d =
            th.dataset.sort === 'number' ? Number(x.replace(/[^\d.-]/g, '')) - Number(y.replace(/[^\d.-]/g, '')) : x.localeCompare(y, 'zh-Hant');
          return ascending ? d : -d;
        });
        body.append(...rows);
      });
    });
  }
})();
