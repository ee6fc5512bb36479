export * from './types.ts'
export { ToolRegistry } from './tools.ts'
export { attachConsoleLogger, type ConsoleLoggerOptions, type LogLevel } from './logging.ts'
export { createHost, type Host, type HostOptions } from './host.ts'
