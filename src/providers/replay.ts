// Replaying a recorded provider event: an operator applies again, from the event log, an event
// that waits (for an exchange rate added since, say) or was ignored, from the mapping stored with
// it, as a wake would, and the events it unblocks after it. Idempotent: an applied event is not
// applied again, and what replaying applies (a conversion by its reference, refunds by running
// totals or refund ids) counts once however often it runs. The CLI, the console and the REST API
// call it; it needs the program and its storage, not the provider's secret.
import type { AffiliateProgram } from '../core/program.js'
import { ConflictError, NotFoundError } from '../core/errors.js'
import { providerEventView, type ProviderEventView } from '../core/provider-events.js'
import { id as recordId, validate } from '../core/schemas.js'
import type { DomainStore } from '../core/storage.js'
import { replayRecorded } from './receive.js'

export interface ProviderEventReplayOptions {
  /** The program whose project received the events. */
  program: AffiliateProgram
  /** The program's storage, where the events are recorded. */
  storage: DomainStore
  /** Id of the project the events belong to. @default the program's own project */
  project?: string
}

export interface ReplayedEvent {
  /** The event as it is after the replay. */
  event: ProviderEventView
  /** False when nothing was applied: the event had been applied already, or another request took it meanwhile. */
  replayed: boolean
  /** What happened, in a sentence. */
  message: string
}

export interface ProviderEventReplay {
  /**
   * Applies the recorded event (its id in the event log) again. Not found: NotFoundError. Being
   * applied by another request, or recorded without the payload to replay (an event of a type
   * affiliate-kit does not use, or one an earlier version ignored): ConflictError. `project`:
   * another project of the program than the one given in the options.
   */
  replay(id: number, project?: string): Promise<ReplayedEvent>
}

export function providerEventReplay(options: ProviderEventReplayOptions): ProviderEventReplay {
  const { program, storage } = options
  return {
    async replay(id, project = options.project) {
      const scope = project === undefined ? program : program.project(project)
      const { projectId } = scope
      const record = await storage.providerEvents.get(projectId, validate(recordId, id, 'id'))
      if (!record) throw new NotFoundError('provider event not found', 'id')
      const name = `event ${record.id} (${record.provider} ${record.eventId})`
      if (record.status === 'applied') return { event: providerEventView(record), replayed: false, message: `${name} was applied already; nothing was applied again` }
      if (record.status === 'processing') throw new ConflictError(`${name} is being applied by another request; try again in a minute`, 'id')
      if (record.mapped === null) {
        throw new ConflictError(`${name} cannot be replayed: it was ${record.status} without its payload being kept (an event of a type affiliate-kit does not use, or one an earlier version ignored)`, 'id')
      }
      const target = { scope, storage, provider: record.provider, now: () => program.clock.now() }
      const replayed = await replayRecorded(target, record)
      if (!replayed) {
        const now = (await storage.providerEvents.get(projectId, record.id)) ?? record
        return { event: providerEventView(now), replayed: false, message: `${name} was taken by another request meanwhile (it is ${now.status} now); nothing was applied here` }
      }
      return { event: providerEventView(replayed), replayed: true, message: `${name} replayed: ${replayed.status}` }
    },
  }
}
