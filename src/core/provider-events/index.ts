// Payment-provider events: receiving one (recorded once, applied, what waits for it woken), the
// sweep of what requests left half-done, an operator's replay, and the log of what each did. A
// provider module only verifies and maps its events (src/providers/<name>/); its handler hands
// the mapped event to `receive`.
import { listWindow } from '../ports/conflicts.js'
import type { ProjectContext } from '../rules/context.js'
import { ConflictError, NotFoundError } from '../model/errors.js'
import type { MappedEvent } from './mapping.js'
import { ruleSetFor, trialRuleOf } from '../rules/commission-rules.js'
import type { ApplyServices } from './outcome.js'
import { receiveEvent, replayRecorded } from './receive.js'
import type { ReceiveTarget } from './record.js'
import { sweepIfDue, type SweepTimes } from './sweep.js'
import { email as emailSchema, id, listProviderEventsInput, providerCustomerId, providerName, validate, type ListProviderEventsInput } from '../model/schemas.js'
import type { ProviderEvent } from '../model/types.js'

export type ProviderEventView = Omit<ProviderEvent, 'projectId' | 'mapped'>

export const providerEventView = ({ projectId: _projectId, mapped: _mapped, ...rest }: ProviderEvent): ProviderEventView => rest

export interface ReceivedEvent {
  event: ProviderEventView
  /** True when the event had been received before: nothing was applied this time. */
  duplicate: boolean
}

export interface ReplayedEvent {
  /** The event as it is after the replay. */
  event: ProviderEventView
  /** False when nothing was applied: the event had been applied already, or another request took it meanwhile. */
  replayed: boolean
  /** What happened, in a sentence. */
  message: string
}

export function providerEventsService(ctx: ProjectContext, services: Omit<ApplyServices, 'projectId' | 'trialRule'>) {
  const { storage, projectId } = ctx
  const trialRule = async (affiliateId: number) => {
    const [project, affiliate] = await Promise.all([ctx.project(), storage.affiliates.get(projectId, affiliateId)])
    return affiliate ? trialRuleOf(ruleSetFor(project.settings, affiliate)) : null
  }
  const scope: ApplyServices = { projectId, ...services, trialRule }
  const target = (provider: string): ReceiveTarget => ({ scope, storage, provider, now: () => ctx.clock.now() })
  const sweeps: SweepTimes = new Map()
  return {
    /**
     * Remembers which referred user a provider's customer id is (an imported customer's Stripe
     * `cus_...`): its payments without an email are credited through that user. `created` false
     * when the id was known already (its email then stays as it is, and is returned).
     */
    async linkCustomer(provider: string, customerId: string, email: string): Promise<{ created: boolean; email: string | null }> {
      const name = validate(providerName, provider, 'provider')
      const externalId = validate(providerCustomerId, customerId, 'customerId')
      const address = validate(emailSchema, email, 'email')
      const link = { projectId, provider: name, kind: 'customer', externalId }
      return storage.transaction(async (tx) => {
        // Saving no data reads the link locked, as a provider event's customer does.
        const [known] = await tx.providerEvents.saveLinks([{ ...link, data: {} }])
        if (known?.data.email) return { created: false, email: known.data.email }
        await tx.providerEvents.saveLinks([{ ...link, data: { email: address } }])
        return { created: true, email: address }
      })
    },

    /** Newest first; filter by provider, status and reference (invoice, transaction, order id). */
    async list(input: ListProviderEventsInput = {}): Promise<{ items: ProviderEventView[]; total: number; limit: number; offset: number }> {
      const data = validate(listProviderEventsInput, input)
      const window = listWindow(data, 50, 100)
      const { limit: _limit, offset: _offset, ...filters } = data
      const page = await storage.providerEvents.list(projectId, { ...filters, ...window })
      return { items: page.items.map(providerEventView), total: page.total, ...window }
    },
    async get(eventRecordId: number): Promise<ProviderEventView> {
      const event = await storage.providerEvents.get(projectId, validate(id, eventRecordId, 'id'))
      if (!event) throw new NotFoundError('provider event not found', 'id')
      return providerEventView(event)
    },

    /**
     * Receives one verified, mapped event of `provider`: recorded once per event id, applied,
     * its outcome saved with what it taught, and the waiting events it unblocked applied after
     * it. A re-delivered event is answered from its record (`duplicate`) and applies nothing.
     */
    async receive(provider: string, mapped: MappedEvent): Promise<ReceivedEvent> {
      const { event, duplicate } = await receiveEvent(target(validate(providerName, provider, 'provider')), mapped)
      return { event: providerEventView(event), duplicate }
    },

    /**
     * Applies again, at most once a minute per provider, what requests left half-done over a
     * minute ago (events left `processing`, waiting events whose key was woken). `onError` hears
     * each event that failed again; the sweep goes on with the others.
     */
    sweep(provider: string, onError: (error: unknown) => void = () => undefined): Promise<void> {
      return sweepIfDue(target(validate(providerName, provider, 'provider')), sweeps, onError)
    },

    /**
     * Applies the recorded event (its id in the event log) again, from the mapping stored with
     * it, as a wake would (a payment that waited for an exchange rate added since, say), and the
     * events it unblocks after it. Not found: NotFoundError. Being applied by another request, or
     * recorded without the payload to replay (an event of a type affiliate-kit does not use, or one
     * an earlier version ignored): ConflictError. Idempotent: an applied event is not applied again.
     */
    async replay(eventRecordId: number): Promise<ReplayedEvent> {
      const record = await storage.providerEvents.get(projectId, validate(id, eventRecordId, 'id'))
      if (!record) throw new NotFoundError('provider event not found', 'id')
      const name = `event ${record.id} (${record.provider} ${record.eventId})`
      if (record.status === 'applied') return { event: providerEventView(record), replayed: false, message: `${name} was applied already; nothing was applied again` }
      if (record.status === 'processing') throw new ConflictError(`${name} is being applied by another request; try again in a minute`, 'id')
      if (record.mapped === null) {
        throw new ConflictError(`${name} cannot be replayed: it was ${record.status} without its payload being kept (an event of a type affiliate-kit does not use, or one an earlier version ignored)`, 'id')
      }
      const replayed = await replayRecorded(target(record.provider), record)
      if (!replayed) {
        const now = (await storage.providerEvents.get(projectId, record.id)) ?? record
        return { event: providerEventView(now), replayed: false, message: `${name} was taken by another request meanwhile (it is ${now.status} now); nothing was applied here` }
      }
      return { event: providerEventView(replayed), replayed: true, message: `${name} replayed: ${replayed.status}` }
    },
  }
}
