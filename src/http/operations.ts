// GET /healthz (liveness), /readyz (the database answers) and /metrics (Prometheus text) of
// createHandler: answered at the server root before authentication, each only when enabled.
import type { AffiliateProgram } from '../core/program.js'
import { errorText, type Logger } from '../ops/logger.js'
import type { Metrics } from '../ops/metrics.js'
import type { OutgoingResponse } from '../server/bodies.js'

export type OperationAnswer = () => Promise<OutgoingResponse>

/** A database slower than this to answer counts as unreachable. */
const READY_TIMEOUT_MS = 3000

function answer(status: number, contentType: string, body: string): OutgoingResponse {
  return { status, headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' }, body }
}

const json = (status: number, body: unknown) => answer(status, 'application/json; charset=utf-8', JSON.stringify(body))

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

export function operationAnswers(
  program: Pick<AffiliateProgram, 'ping' | 'deliveryBacklog'>,
  options: { health: boolean; metrics: Metrics | null; logger: Logger | null },
): Map<string, OperationAnswer> | null {
  const answers = new Map<string, OperationAnswer>()
  if (options.health) {
    answers.set('/healthz', async () => json(200, { status: 'ok' }))
    answers.set('/readyz', async () => {
      try {
        await withTimeout(program.ping(), READY_TIMEOUT_MS)
        return json(200, { status: 'ready' })
      } catch (error) {
        options.logger?.warn('not ready: the database cannot be reached', { error: errorText(error) })
        return json(503, { status: 'unavailable', error: 'the database cannot be reached' })
      }
    })
  }
  const metrics = options.metrics
  if (metrics) {
    answers.set('/metrics', async () => {
      // The counters still render when the database is down; only the backlog gauge is left out.
      const backlog = await withTimeout(program.deliveryBacklog(), READY_TIMEOUT_MS).catch(() => null)
      return answer(200, 'text/plain; version=0.0.4; charset=utf-8', await metrics.render({ backlog }))
    })
  }
  return answers.size > 0 ? answers : null
}
