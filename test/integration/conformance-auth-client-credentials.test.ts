import { describeAuthScenarios } from '../support/conformance-auth-runner.js';

// The client credentials extension's scenario with a client secret (SEP-1046, client_secret_basic)
// of @modelcontextprotocol/conformance 0.1.16: Taskdesk signs in without a browser with the client
// the suite gives. Its JWT assertion scenario (auth/client-credentials-jwt) is not done.
describeAuthScenarios('@modelcontextprotocol/conformance', ['auth/client-credentials-basic']);
