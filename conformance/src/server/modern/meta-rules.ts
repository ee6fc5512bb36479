/**
 * Pure: the 2026-07-28 sentences on what a server puts in _meta and in its capabilities'
 * extension identifiers, and on the error that names a client capability it lacks.
 */
import type { ModernCheckDef } from './types.ts'

export const META_KEYS: ModernCheckDef = {
  id: 'modern/meta-keys',
  title: '_meta keys and extension identifiers follow the naming rules',
  how: 'every _meta of every result the modern run received, and the capabilities.extensions of the DiscoverResult: each key’s prefix (up to its last “/”) is dot-separated labels that start with a letter and end with a letter or digit, with letters, digits and hyphens between; its name, unless empty, begins and ends with a letter or digit; an extension identifier has a prefix; traceparent and tracestate, when present, follow W3C Trace Context, and baggage W3C Baggage (its members’ syntax)',
  rules: [
    { topic: 'basic#meta', keyword: 'MUST', quote: 'Prefix: If specified, MUST be a series of labels separated by dots (.), followed by a slash (/).', case: 'prefix' },
    { topic: 'basic#meta', keyword: 'MUST', quote: 'Labels MUST start with a letter and end with a letter or digit; interior characters can be letters, digits, or hyphens (-).', case: 'prefix' },
    { topic: 'basic#meta', keyword: 'MUST', quote: 'Unless empty, MUST begin and end with an alphanumeric character ([a-z0-9A-Z]).', case: 'name' },
    { topic: 'versioning#extension-negotiation', keyword: 'MUST', quote: 'Extension identifiers MUST follow the _meta key naming rules, with a mandatory prefix.', case: 'extension' },
    { topic: 'basic#meta', keyword: 'MUST', quote: 'When present, their values MUST follow W3C Trace Context and W3C Baggage formats respectively.', case: 'trace' },
  ],
}

export const RESULT_SERVER_INFO: ModernCheckDef = {
  id: 'modern/result-server-info',
  title: 'every result names the server in its _meta',
  how: 'every result the modern run received: its _meta holds io.modelcontextprotocol/serverInfo',
  rules: [
    {
      topic: 'basic#meta',
      keyword: 'SHOULD',
      quote: "Servers SHOULD include the following io.modelcontextprotocol/* field in every result's _meta, unless specifically configured not to do so, to identify themselves without relying on any prior connection state:",
    },
  ],
}

export const MISSING_CAPABILITY: ModernCheckDef = {
  id: 'modern/missing-client-capability',
  title: 'MissingRequiredClientCapabilityError lists the missing capabilities, over HTTP with 400',
  how: 'every error -32021 the modern run received (the kit declares no client capability, so any request whose processing needs one may get it): its data.requiredCapabilities is an object, and over HTTP the status is 400',
  rules: [
    {
      topic: 'basic#meta',
      keyword: 'MUST',
      quote: 'If processing a request requires a capability the client did not include in io.modelcontextprotocol/clientCapabilities, the server MUST return a MissingRequiredClientCapabilityError (-32021) whose data.requiredCapabilities lists the missing capabilities.',
    },
    {
      topic: 'basic#meta',
      keyword: 'MUST',
      quote: 'If processing a request requires a capability the client did not include in io.modelcontextprotocol/clientCapabilities, the server MUST return a MissingRequiredClientCapabilityError (-32021) whose data.requiredCapabilities lists the missing capabilities. On HTTP, the response status MUST be 400 Bad Request.',
      case: 'http-status',
    },
  ],
}
