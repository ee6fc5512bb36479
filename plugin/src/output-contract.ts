import type { ContentBlock, JsonSchema, ToolOutput } from './host-contract.ts'
import { isInSchemaSubset } from './schema-subset.ts'

/**
 * The `output` a bridged definition carries, shaped for both hosts it runs in:
 *
 * - `schema` describes the canonical value `{ content, structuredContent? }`. The reference
 *   registry ignores it; the harness' ToolRuntime requires it, checks it against its schema subset
 *   at registration and validates every value against it.
 * - `render` is called as `render(value)` by the reference registry and as `render(args, value)`
 *   by ToolRuntime. Both pass the value last, so the bridge reads the last argument: the number of
 *   arguments says which contract the caller follows, not the shape of the value.
 */
export interface BridgeOutput extends ToolOutput {
  schema: JsonSchema
}

export function bridgeOutput(structuredSchema: JsonSchema | undefined, render: (value: unknown) => ContentBlock[]): BridgeOutput {
  return {
    schema: canonicalValueSchema(structuredSchema),
    render: (...input) => render(input.length >= 2 ? input[1] : input[0]),
  }
}

/**
 * Pure: the schema of the canonical value. `structuredContent` is constrained by the server's
 * `outputSchema` when it fits the subset (after dropping a root `$schema`, which names a dialect
 * and constrains nothing: every subset keyword means the same in draft-07 and 2020-12), and is any
 * JSON otherwise. It is never required: a server that declares a schema but answers in text only
 * is accepted (with a warning), so the host must not refuse that value either.
 */
export function canonicalValueSchema(structuredSchema: JsonSchema | undefined): JsonSchema {
  return {
    type: 'object',
    properties: {
      content: { type: 'array', items: {} },
      structuredContent: hostStructuredSchema(structuredSchema) ?? {},
    },
    required: ['content'],
    additionalProperties: false,
  }
}

/** The server's outputSchema as a host can enforce it, or undefined when it is outside the subset. */
export function hostStructuredSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (schema === undefined) return undefined
  const { $schema: _dialect, ...rest } = schema
  const candidate = typeof _dialect === 'string' ? rest : schema
  return isInSchemaSubset(candidate) ? candidate : undefined
}
