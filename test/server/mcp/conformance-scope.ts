/**
 * Which scenarios of the official MCP conformance suite (pinned) concern this server, at each
 * revision, and why the others do not: read by the suite's runs against one shim
 * (conformance.test.ts) and through nginx (test/deploy/front-mcp.test.ts).
 *
 * The scenarios that concern a stateless server of read-only tools, resources and prompts must pass
 * every check (WARNING, SKIPPED and INFO are the suite's own "not a failure"). The others ask the
 * server for the suite's fixture surface (tools named `test_simple_text`, `test_image_content`,
 * `test_sampling`…, prompts `test_simple_prompt`…, resources `test://static-text`…) that only the
 * suite's reference server has, or for capabilities this server does not declare; each is listed
 * with why.
 */

const FIXTURES = 'calls the suite’s fixture tools, prompts or resources (test_*, test://…), which only its reference server has';

/** Scenarios that concern this server at 2026-07-28, and check ids within them that need the suite's fixtures. */
export const APPLICABLE_2026 = [
  'server-stateless',
  'caching',
  'http-header-validation',
  'sep-2164-resource-not-found',
  'tools-list',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
  'server-sse-multiple-streams',
  'tools-call-error',
  'input-required-result-unsupported-methods',
  'input-required-result-ignore-extra-params',
];
export const FIXTURE_CHECKS_2026: Record<string, string> = {
  // server-stateless calls `test_missing_capability`, a fixture tool that needs the client's sampling
  // capability; no tool here needs any client capability, so there is nothing to refuse with -32021.
  'sep-2575-server-rejects-undeclared-capability': 'needs the fixture tool test_missing_capability (our tools need no client capability)',
  'sep-2575-missing-capability-http-400': 'needs the fixture tool test_missing_capability (our tools need no client capability)',
  'sep-2575-http-server-no-independent-requests-on-stream':
    'needs the fixture tool test_streaming_elicitation (no tool here sends the client anything before its answer)',
  'sep-2575-server-no-log-without-loglevel': 'needs the fixture tool test_logging_tool (no tool here logs to the client)',
};
export const NOT_APPLICABLE_2026: Record<string, string> = {
  'completion-complete': `${FIXTURES} (test_prompt_with_arguments); our completions: best.test.ts`,
  'tools-call-simple-text': FIXTURES,
  'tools-call-image': FIXTURES,
  'tools-call-audio': FIXTURES,
  'tools-call-embedded-resource': FIXTURES,
  'tools-call-mixed-content': FIXTURES,
  'tools-call-with-progress': `${FIXTURES}; answers here are single JSON bodies, nothing streams`,
  'resources-read-text': `${FIXTURES}; our resources are read in best.test.ts`,
  'resources-read-binary': FIXTURES,
  'resources-templates-read': `${FIXTURES}; our templates are read in best.test.ts`,
  'prompts-get-simple': FIXTURES,
  'prompts-get-with-args': FIXTURES,
  'prompts-get-embedded-resource': FIXTURES,
  'prompts-get-with-image': FIXTURES,
  'json-schema-2020-12': `${FIXTURES} (pending in the suite)`,
  'http-custom-header-server-validation': `${FIXTURES} (tools declaring x-mcp-header parameters; pending in the suite)`,
  'input-required-result-basic-elicitation': 'no tool asks the client for input (elicitation): every answer is the snapshot’s',
  'input-required-result-basic-sampling': 'no tool asks the client for sampling',
  'input-required-result-basic-list-roots': 'no tool asks the client for its roots',
  'input-required-result-request-state': 'no tool asks the client for input, so no request state round-trips',
  'input-required-result-multiple-input-requests': 'no tool asks the client for input',
  'input-required-result-multi-round': 'no tool asks the client for input',
  'input-required-result-missing-input-response': 'no tool asks the client for input',
  'input-required-result-non-tool-request': 'no prompt or resource asks the client for input',
  'input-required-result-result-type': 'no tool asks the client for input',
  'input-required-result-tampered-state': 'no tool asks the client for input, so there is no state to tamper with',
  'input-required-result-capability-check': 'no tool asks the client for input',
  'input-required-result-validate-input': 'no tool asks the client for input',
  ...Object.fromEntries(
    [
      'tasks-lifecycle',
      'tasks-capability-negotiation',
      'tasks-wire-fields',
      'tasks-request-state-removal',
      'tasks-mrtr-input',
      'tasks-request-headers',
      'tasks-dispatch-and-envelope',
      'tasks-status-notifications',
      'tasks-required-task-error',
      'tasks-mrtr-composition',
    ].map((s) => [s, 'the tasks extension (not scored for 2026-07-28): every call here answers at once, nothing runs as a task']),
  ),
};

/** At 2025-11-25: the scenarios that passed on the SDK v1 server, and more. */
export const APPLICABLE_2025 = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
  'tools-call-error',
  'server-session-lifecycle',
  'server-sse-multiple-streams',
  'server-sse-polling',
];
export const NOT_APPLICABLE_2025: Record<string, string> = {
  'completion-complete': `${FIXTURES} (test_prompt_with_arguments)`,
  'logging-set-level': 'the logging capability is not declared: nothing here logs to a client',
  'tools-call-simple-text': FIXTURES,
  'tools-call-image': FIXTURES,
  'tools-call-audio': FIXTURES,
  'tools-call-embedded-resource': FIXTURES,
  'tools-call-mixed-content': FIXTURES,
  'tools-call-with-logging': FIXTURES,
  'tools-call-with-progress': FIXTURES,
  'tools-call-sampling': FIXTURES,
  'tools-call-elicitation': FIXTURES,
  'elicitation-sep1034-defaults': FIXTURES,
  'elicitation-sep1330-enums': FIXTURES,
  'resources-read-text': FIXTURES,
  'resources-read-binary': FIXTURES,
  'resources-templates-read': FIXTURES,
  'resources-subscribe': 'subscriptions are not offered: a snapshot never changes once published',
  'resources-unsubscribe': 'subscriptions are not offered: a snapshot never changes once published',
  'prompts-get-simple': FIXTURES,
  'prompts-get-with-args': FIXTURES,
  'prompts-get-embedded-resource': FIXTURES,
  'prompts-get-with-image': FIXTURES,
  'json-schema-2020-12': FIXTURES,
};
