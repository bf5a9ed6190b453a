import { COMMON, describeAuthScenarios } from '../support/conformance-auth-runner.js';

// The alpha (0.2.0-alpha.12) runs the scenarios 0.1.16 has too, against its own mock servers: part 1 of 3.
describeAuthScenarios('@modelcontextprotocol/conformance-alpha', COMMON.slice(0, 8));
