// The interactive API reference: Scalar's bundle (served from this site) renders the OpenAPI
// document. Its default web fonts and hosted services are switched off: nothing leaves this host.
(() => {
  const target = document.getElementById('api-reference');
  if (!target || !window.Scalar) return;
  window.Scalar.createApiReference(target, {
    url: target.dataset.url,
    withDefaultFonts: false,
    hideClientButton: true,
    hideDarkModeToggle: true,
    telemetry: false,
    showDeveloperTools: 'never',
    agent: { disabled: true },
    mcp: { disabled: true },
    baseServerURL: location.origin,
    servers: [{ url: location.origin }],
  });
})();
