import { ALPHA_ONLY, COMMON, describeAuthScenarios } from '../support/conformance-auth-runner.js';

// The alpha's MCP 2026-07-28 auth scenarios (iss checks, a moved authorization server), and the
// check that the two alpha files together run every non-extension auth scenario it lists.
describeAuthScenarios('@modelcontextprotocol/conformance-alpha', ALPHA_ONLY, [...COMMON, ...ALPHA_ONLY]);
