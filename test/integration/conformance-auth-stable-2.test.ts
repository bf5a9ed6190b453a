import { COMMON, describeAuthScenarios } from '../support/conformance-auth-runner.js';

// Non-extension auth/* client scenarios of @modelcontextprotocol/conformance 0.1.16, part 2 of 3
// (eight a file: each file must end within npm test's per-file timeout).
describeAuthScenarios('@modelcontextprotocol/conformance', COMMON.slice(8, 16));
