// The conformance package carries the scenarios it runs: a fresh copy of the top-level scenarios/
// (the source of truth) into conformance/scenarios/, which only the published package reads.
import { cpSync, rmSync } from 'node:fs'

const from = new URL('../scenarios/', import.meta.url)
const to = new URL('../conformance/scenarios/', import.meta.url)
rmSync(to, { recursive: true, force: true })
cpSync(from, to, { recursive: true })
