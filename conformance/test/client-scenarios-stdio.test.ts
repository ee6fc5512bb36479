import { describeScenarioGate } from './support/client-scenario-gate.ts'

// Every scenario over stdio, against our plugin (the other transport: client-scenarios-http.test.ts).
describeScenarioGate('stdio')
