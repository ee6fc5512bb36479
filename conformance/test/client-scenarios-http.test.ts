import { describeScenarioGate } from './support/client-scenario-gate.ts'

// Every scenario over http, against our plugin (the other transport: client-scenarios-stdio.test.ts).
describeScenarioGate('http')
