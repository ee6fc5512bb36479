import { Context, Service } from 'cordis'
import Schema from 'schemastery'
import type { ModelRoute } from '@mcp-bridge/plugin'


export type Modality = 'text' | 'image' | 'audio'

export interface ModelInfo {
  /** Absent means unknown, which the bridge treats as text only. */
  inputModalities?: Modality[]
}

export interface ModelCatalogConfig {
  models: Array<{ provider: string; model: string; inputModalities: Modality[] }>
}

/** The reference `llm` capability service: a static table of what each route accepts as input. */
export class ModelCatalog extends Service {
  static Config: Schema<ModelCatalogConfig> = Schema.object({
    models: Schema.array(
      Schema.object({
        provider: Schema.string().required(),
        model: Schema.string().required(),
        inputModalities: Schema.array(Schema.union(['text', 'image', 'audio'])).default(['text']),
      }),
    ).default([]),
  })

  constructor(
    ctx: Context,
    private readonly config: ModelCatalogConfig,
  ) {
    super(ctx, 'llm')
  }

  async resolveModelInfo(route: ModelRoute): Promise<ModelInfo> {
    const entry = this.config.models.find((m) => m.provider === route.provider && m.model === route.model)
    return entry ? { inputModalities: [...entry.inputModalities] } : {}
  }
}
