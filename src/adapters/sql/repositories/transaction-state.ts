// What one SQL transaction remembers between statements: each project's active webhook endpoints,
// the outbox events it recorded with the mails they become, which are written together in one
// statement just before COMMIT (enqueue returns nothing, so nobody can tell they were held back),
// the writes whose answers are only read once it commits (left for COMMIT too), and last the
// projects' day counters its writes add to (shared by many affiliates: locked last, core/ports/row-locks.ts).
import type { NewMail } from '../../../core/model/mail-kinds.js'
import type { NewEvent } from '../../../core/ports/storage.js'
import { run } from '../codec.js'
import { MAIL_INSERT_COLUMNS, mailParams, mailRowsSelect } from './mail.js'
import type { SqlClient, SqlRow, SqlStatement } from '../executor.js'
import type { Tables } from '../tables.js'
import { dailyManyStatement, projectShares, type DayDelta } from './day-counters.js'

interface PendingEvent {
  event: NewEvent
  /** The subscribed endpoints, ascending. */
  endpointIds: number[]
}

export interface TransactionState {
  endpoints: Map<string, Array<{ id: number; events: string[] }>>
  /** Events not yet written, in the order they were recorded. */
  pending: PendingEvent[]
  /** Mails of the recorded events (docs/email.md), written by the same statement. */
  mails: NewMail[]
  /** Whether a mail dispatcher has run on this storage (read with the endpoints); null until read. */
  mailOn: boolean | null
  /** Writes left for COMMIT's round trip, in order; each is told how the transaction ended. */
  atCommit: AtCommit[]
  /** Deltas added to affiliates' days whose projects' share is written last, in one statement. */
  projectDays: DayDelta[]
}

/** A write left for COMMIT: told `committed` once the transaction committed, `failed` when it did not. */
export interface AtCommit {
  statement: SqlStatement
  committed(): void
  failed(error: unknown): void
}

export function transactionState(): TransactionState {
  return { endpoints: new Map(), pending: [], mails: [], mailOn: null, atCommit: [], projectDays: [] }
}

/** What the transaction still writes before COMMIT: its pending events, the writes left for COMMIT, then the projects' day counters. */
export function statementsBeforeCommit(t: Tables, state: TransactionState): SqlStatement[] {
  const events = pendingStatement(t, state)
  const projectDays = dailyManyStatement(t.daily, projectShares(state.projectDays))
  return [...(events ? [events] : []), ...state.atCommit.map((write) => write.statement), ...(projectDays ? [projectDays] : [])]
}

/**
 * Leaves `statement` for COMMIT: the promise answers `read` of its rows once the transaction
 * committed, and fails with the transaction's error when it did not (nobody need wait on it then).
 */
export function leaveForCommit<T>(state: TransactionState, statement: SqlStatement, read: (rows: SqlRow[]) => T): Promise<T> {
  let rows: SqlRow[] = []
  const answer = new Promise<T>((resolve, reject) =>
    state.atCommit.push({ statement: { ...statement, answered: (returned) => (rows = returned) }, committed: () => resolve(read(rows)), failed: reject }),
  )
  answer.catch(() => undefined)
  return answer
}

/**
 * The statement writing the pending events and their deliveries, in recording order (ids
 * ascending as before), or null when there is none. Its text is the same for any number of events.
 */
export function pendingStatement(t: Tables, state: TransactionState): SqlStatement | null {
  const { pending, mails } = state
  if (pending.length === 0 && mails.length === 0) return null
  const deliveryEvents: number[] = []
  const deliveryEndpoints: number[] = []
  pending.forEach(({ endpointIds }, index) => {
    for (const id of endpointIds) {
      deliveryEvents.push(index + 1)
      deliveryEndpoints.push(id)
    }
  })
  const params = [
    pending.map(({ event }) => event.projectId),
    pending.map(({ event }) => event.type),
    pending.map(({ event }) => JSON.stringify(event.payload)),
    pending.map(({ event }) => event.createdAt.toISOString()),
    deliveryEvents,
    deliveryEndpoints,
    ...mailParams(mails),
  ]
  state.pending = []
  state.mails = []
  return { text: statementText(t), params }
}

/** Writes the pending events now: before a read of the outbox or a change of endpoints in the same transaction. */
export async function flushPending(db: SqlClient, t: Tables, state: TransactionState | null): Promise<void> {
  const statement = state && pendingStatement(t, state)
  if (statement) await run(db, statement.text, statement.params)
}

// The identity ids follow the ORDER BY of the INSERT's rows, so numbering the returned ids
// ascending recovers which input event each one is. The mails' insert is a CTE of its own: it runs
// whether or not the main statement reads it.
function statementText(t: Tables): string {
  return `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) WITH ORDINALITY AS e (project_id, type, body, created_at, n)
     ), inserted AS (
       INSERT INTO ${t.events.name} (project_id, type, body, created_at)
       SELECT project_id, type, body, created_at FROM input ORDER BY n
       RETURNING id, project_id, type, created_at
     ), event AS (
       SELECT *, row_number() OVER (ORDER BY id) AS n FROM inserted
     ), mailed AS (
       INSERT INTO ${t.mail.name} (${MAIL_INSERT_COLUMNS}) ${mailRowsSelect(7)} RETURNING id
     )
     INSERT INTO ${t.deliveries.name}
       (project_id, event_id, endpoint_id, event_type, status, attempts, next_attempt_at, created_at, updated_at)
     SELECT event.project_id, event.id, d.endpoint_id, event.type, 'pending', 0, event.created_at, event.created_at, event.created_at
     FROM unnest($5::bigint[], $6::bigint[]) WITH ORDINALITY AS d (event_n, endpoint_id, k)
     JOIN event ON event.n = d.event_n
     ORDER BY d.k`
}
