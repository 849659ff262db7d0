// Webhook endpoints are project settings (docs/webhooks.md "Endpoints"), managed through the core, never
// through /api/v1. Secrets are write-only: views never carry them.
import type { ProjectContext } from '../rules/context.js'
import { NotFoundError, ValidationError } from '../model/errors.js'
import { deliveryStatus, eventType, id as idSchema, validate } from '../model/schemas.js'
import type { Delivery, DeliveryAttempt, EventType, WebhookEndpoint, WebhookSigningMode } from '../model/types.js'
import { listWindow } from '../ports/conflicts.js'
import { isForbiddenHost } from '../rules/network.js'
import * as v from 'valibot'

export interface WebhookEndpointView {
  id: number
  url: string
  events: EventType[]
  mode: WebhookSigningMode
  active: boolean
  hasSecret: boolean
  createdAt: Date
}

const url = v.pipe(
  v.string('must be a string'),
  v.url('must be a URL'),
  v.check((text) => /^https?:\/\//i.test(text), 'must be an http or https URL'),
)
const secret = v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(500, 'must be at most 500 characters'))
const mode = v.picklist(['service', 'standard'], 'must be service or standard')

export const createWebhookInput = v.strictObject({
  url,
  events: v.pipe(v.array(eventType), v.minLength(1, 'must name at least one event')),
  secret: v.optional(v.nullable(secret)),
  mode: v.optional(mode),
  active: v.optional(v.boolean('must be a boolean')),
})
export type CreateWebhookInput = v.InferInput<typeof createWebhookInput>

export const updateWebhookInput = v.strictObject({
  url: v.optional(url),
  events: v.optional(v.pipe(v.array(eventType), v.minLength(1, 'must name at least one event'))),
  mode: v.optional(mode),
  active: v.optional(v.boolean('must be a boolean')),
})
export type UpdateWebhookInput = v.InferInput<typeof updateWebhookInput>

export function webhookEndpointView(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    mode: endpoint.mode,
    active: endpoint.active,
    hasSecret: endpoint.secret !== null,
    createdAt: endpoint.createdAt,
  }
}

const deliveryFilter = v.strictObject({
  limit: v.optional(v.pipe(v.number(), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1'))),
  offset: v.optional(v.pipe(v.number(), v.safeInteger('must be an integer'), v.minValue(0, 'must not be negative'))),
  endpointId: v.optional(v.pipe(v.number(), v.safeInteger('must be an integer'))),
  status: v.optional(deliveryStatus),
  eventType: v.optional(eventType),
})
export type DeliveryFilterInput = v.InferInput<typeof deliveryFilter>

export function webhookEndpointsService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  /** Refuses literal private / loopback hosts unless the project allows private networks. */
  async function checkHost(target: string | undefined): Promise<void> {
    if (target === undefined) return
    if ((await ctx.project()).settings.allowPrivateNetworks === true) return
    if (isForbiddenHost(new URL(target).hostname)) {
      throw new ValidationError('url', 'url: must not point to a loopback, private or reserved address')
    }
  }

  async function find(id: number): Promise<WebhookEndpoint> {
    const endpoint = await storage.webhookEndpoints.get(projectId, id)
    if (!endpoint) throw new NotFoundError('webhook endpoint not found', 'id')
    return endpoint
  }

  return {
    async create(input: CreateWebhookInput): Promise<WebhookEndpointView> {
      const data = validate(createWebhookInput, input)
      await checkHost(data.url)
      const endpoint = await storage.webhookEndpoints.insert({
        projectId,
        url: data.url,
        events: [...new Set(data.events)],
        secret: data.secret ?? null,
        previousSecret: null,
        previousSecretExpiresAt: null,
        mode: data.mode ?? 'service',
        active: data.active ?? true,
        createdAt: ctx.clock.now(),
      })
      return webhookEndpointView(endpoint)
    },

    async get(id: number): Promise<WebhookEndpointView> {
      return webhookEndpointView(await find(id))
    },

    async list(): Promise<WebhookEndpointView[]> {
      return (await storage.webhookEndpoints.all(projectId, {})).map(webhookEndpointView)
    },

    async update(id: number, input: UpdateWebhookInput): Promise<WebhookEndpointView> {
      const data = validate(updateWebhookInput, input)
      await find(id)
      await checkHost(data.url)
      const patch = data.events ? { ...data, events: [...new Set(data.events)] } : data
      return webhookEndpointView((await storage.webhookEndpoints.update(projectId, id, patch))!)
    },

    async delete(id: number): Promise<void> {
      if (!(await storage.webhookEndpoints.delete(projectId, id))) throw new NotFoundError('webhook endpoint not found', 'id')
    },

    /** Delivery history, newest first, filtered by endpoint, status or event type. */
    async deliveries(input: DeliveryFilterInput = {}): Promise<{ items: Delivery[]; total: number; limit: number; offset: number }> {
      const data = validate(deliveryFilter, input)
      const window = listWindow(data, 50, 200)
      const { limit: _limit, offset: _offset, ...filters } = data
      const page = await storage.deliveries.list(projectId, { ...filters, ...window })
      return { ...page, ...window }
    },

    /** One delivery of the project (its endpoint, event type, status, attempts made, next attempt). */
    async delivery(deliveryId: number): Promise<Delivery> {
      const delivery = await storage.deliveries.get(projectId, validate(idSchema, deliveryId, 'deliveryId'))
      if (!delivery) throw new NotFoundError('delivery not found', 'deliveryId')
      return delivery
    },

    /** Every attempt of one delivery, oldest first (status code, response time, excerpt, error). */
    async attempts(deliveryId: number): Promise<DeliveryAttempt[]> {
      if (!(await storage.deliveries.get(projectId, deliveryId))) throw new NotFoundError('delivery not found', 'deliveryId')
      return storage.deliveryAttempts.all(projectId, { deliveryId })
    },

    /** Manual retry: the delivery becomes due now, whatever its state (unless being sent). */
    async retry(deliveryId: number): Promise<void> {
      const now = ctx.clock.now()
      const due = { status: 'pending', nextAttemptAt: now, leaseUntil: null, updatedAt: now } as const
      if (!(await storage.deliveries.update(projectId, deliveryId, due, { statusOtherThan: 'delivering' }))) {
        throw new NotFoundError('delivery not found or being sent right now', 'deliveryId')
      }
    },

    /**
     * Replaces the secret; the old one keeps signing beside it for `graceSeconds`, so receivers
     * can roll over without dropping deliveries. @default graceSeconds 86400
     */
    async rotateSecret(id: number, newSecret: string, graceSeconds = 86_400): Promise<WebhookEndpointView> {
      const value = validate(secret, newSecret, 'secret')
      if (!Number.isSafeInteger(graceSeconds) || graceSeconds < 0) {
        throw new ValidationError('graceSeconds', 'graceSeconds must be a non-negative integer')
      }
      const endpoint = await find(id)
      const expires = new Date(ctx.clock.now().getTime() + graceSeconds * 1000)
      const updated = await storage.webhookEndpoints.update(projectId, id, {
        secret: value,
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: endpoint.secret === null ? null : expires,
      })
      return webhookEndpointView(updated!)
    },
  }
}
