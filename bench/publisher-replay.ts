import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A loopback stand-in for every publisher, answering from a sources folder written in the real
 * forms (the demo's): the OpenAPI datasets by name, MOENV pages by offset, GenPlus POSTs by year and
 * market, SITCA's form page and its query answers by period and class. So `npm run refresh` can be
 * measured end to end at any scale without the internet; `urls` are the FETCH_URL_* values.
 */
export async function startPublisherReplay(dir: string): Promise<{ urls: Record<string, string>; close: () => Promise<void> }> {
  const send = (res: import('node:http').ServerResponse, file: string, type: string) => {
    if (!existsSync(join(dir, file))) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(type.includes('json') && file.startsWith('esggenplus') ? '{"code":200,"success":true,"data":[],"message":null}' : '[]');
      return;
    }
    res.writeHead(200, { 'content-type': type });
    createReadStream(join(dir, file)).pipe(res);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const name = url.pathname.split('/').pop()!;
      if (url.pathname.startsWith('/openapi/')) return send(res, `${name}.json`, 'application/json; charset=utf-8');
      if (url.pathname.startsWith('/moenv/')) {
        const page = Math.floor(Number(url.searchParams.get('offset') ?? 0) / 1000) + 1;
        return send(res, `${name}.${String(page).padStart(4, '0')}.json`, 'application/json; charset=utf-8');
      }
      if (url.pathname.startsWith('/genplus/')) {
        const q = JSON.parse(body) as { year: number; marketType: number };
        return send(res, `esggenplus-${q.year}-${q.marketType === 0 ? 'sii' : 'otc'}.json`, 'application/json; charset=utf-8');
      }
      if (url.pathname === '/sitca/IN2630.aspx') {
        if (req.method === 'GET') return send(res, 'sitca-IN2630-form.html', 'text/html; charset=utf-8');
        const form = new URLSearchParams(body);
        return send(
          res,
          `sitca-IN2630-${form.get('ctl00$ContentPlaceHolder1$ddlQ_YM')}-${form.get('ctl00$ContentPlaceHolder1$ddlQ_Class')}.html`,
          'text/html; charset=utf-8',
        );
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urls: {
      FETCH_URL_SRC_TWSE_COMPANY: `${base}/openapi/t187ap03_L`,
      FETCH_URL_SRC_TPEX_COMPANY: `${base}/openapi/mopsfin_t187ap03_O`,
      FETCH_URL_SRC_TWSE_ESG_GHG: `${base}/openapi/t187ap46_L_1`,
      FETCH_URL_SRC_TPEX_ESG_GHG: `${base}/openapi/t187ap46_O_1`,
      FETCH_URL_SRC_TWSE_ETF_LIST: `${base}/openapi/t187ap47_L`,
      FETCH_URL_SRC_MOENV_EMS_P_46: `${base}/moenv/EMS_P_46`,
      FETCH_URL_SRC_MOENV_GHG_P_01: `${base}/moenv/GHG_P_01`,
      FETCH_URL_SRC_MOPS_ESGREPORT: `${base}/genplus/data`,
      FETCH_URL_SRC_SITCA_ETF_HOLDINGS: `${base}/sitca/IN2630.aspx?pid=IN22601_05`,
      // The stand-in asks for no key, but the fetch checks that one is set before it starts.
      MOENV_API_KEY: 'bench-replay-key',
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
