#!/usr/bin/env node
// Runs the TypeScript CLI through tsx: the package ships sources, not a build.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli/main.ts')
