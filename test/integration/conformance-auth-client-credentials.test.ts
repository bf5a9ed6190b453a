import { describeAuthScenarios } from '../support/conformance-auth-runner.js';

// The client credentials extension's scenarios (SEP-1046) of @modelcontextprotocol/conformance
// 0.1.16: Taskdesk signs in without a browser with the client the suite gives, proving itself with
// a client secret (client_secret_basic) or with a JWT assertion signed by the private key the
// suite gives (private_key_jwt, ES256).
describeAuthScenarios('@modelcontextprotocol/conformance', [
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt'
]);
