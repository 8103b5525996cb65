// The interactive API reference: Scalar's bundle (served from this site) renders the OpenAPI
// document. Its web fonts, AI agent and hosted services are switched off: nothing leaves this host.
(() => {
  const target = document.getElementById('reference');
  if (!target || !window.Scalar) return;
  const off = { disabled: true };
  window.Scalar.createApiReference(target, {
    sources: [{ url: target.dataset.openapi, agent: off }],
    agent: off,
    mcp: off,
    withDefaultFonts: false,
    // Scalar's own font is Inter from its CDN; the system fonts (with Noto CJK) are used instead.
    customCss: ':root, .scalar-app { --scalar-font: system-ui, "Noto Sans CJK TC", sans-serif; --scalar-font-code: ui-monospace, monospace; }',
    hideClientButton: true,
    hideDarkModeToggle: true,
    telemetry: false,
    showDeveloperTools: 'never',
    baseServerURL: location.origin,
    servers: [{ url: location.origin }],
  });
})();
