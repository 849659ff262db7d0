// No signed body makes a provider handler answer 500: every field of every kind of scenario event,
// in turn replaced by null, text, a negative, a huge number, an object or an array, answers 200 or
// 400. A field is mutated in the first event of its kind that has it: the scenario's renewals repeat
// its first payment's fields, and mutating each copy again doubled the file's time for no new path.
// (Braintree's events are trees its fixtures write as XML: the mutations reach the package's parser;
// Chargebee's reach the handler as its API answers them: the local API holds each mutated event;
// Recurly's mutate the notification and the resources its local API holds for it.)
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../../src/adapters/memory/index.js'
import { createAffiliateProgram, testClock } from '../../src/index.js'
import { lemonSqueezyScenario } from '../support/providers/lemon-squeezy-scenario.js'
import { paddleScenario } from '../support/providers/paddle-scenario.js'
import { allEvents, SCENARIO_SETTINGS, scenarioAffiliates } from '../support/providers/scenario.js'
import { stripeScenario } from '../support/providers/stripe-scenario.js'
import { polarScenario } from '../support/providers/polar-scenario.js'
import { braintreeScenario } from '../support/providers/braintree-scenario.js'
import { chargebeeScenario } from '../support/providers/chargebee-scenario.js'
import { recurlyScenario } from '../support/providers/recurly-scenario.js'

const REPLACEMENTS: unknown[] = [null, 'x', -1, 1e30, 12.5, {}, [], '99999999999999999999']

function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix]
  return [prefix, ...Object.entries(value).flatMap(([key, item]) => paths(item, [...prefix, key]))].filter((path) => path.length > 0)
}

const KIND_FIELDS = new Set(['type', 'event_type', 'event_name', 'kind', 'object_type'])

/** What names an event's kind, in any provider's shape: its type fields at the top and one level down. */
function kindOf(event: unknown): string {
  const levels = [event, ...Object.values(event as Record<string, unknown>)].filter((value): value is Record<string, unknown> => value !== null && typeof value === 'object')
  return levels.flatMap((level) => Object.entries(level).filter(([key, value]) => KIND_FIELDS.has(key) && typeof value === 'string').map(([, value]) => value)).join(' ')
}

function replaced(value: unknown, path: string[], replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>
  node[path[path.length - 1]!] = replacement
  return copy
}

describe('provider handlers: mutated signed events', () => {
  for (const scenario of [stripeScenario, paddleScenario, lemonSqueezyScenario, polarScenario, braintreeScenario, chargebeeScenario, recurlyScenario]) {
    it(`${scenario.name}: every mutation answers 200 or 400`, async () => {
      const clock = testClock('2026-03-20T00:00:00Z')
      const storage = memoryStorage()
      const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
      await scenarioAffiliates(program, scenario.bobCoupon)
      const handler = scenario.handler(program, storage)
      const statuses = new Map<number, number>()
      let n = 0
      const mutatedFields = new Set<string>()
      for (const event of allEvents(scenario)) {
        const kind = kindOf(event)
        for (const path of paths(event)) {
          const field = `${kind}: ${path.join('.')}`
          if (mutatedFields.has(field)) continue
          mutatedFields.add(field)
          for (const replacement of REPLACEMENTS) {
            n += 1
            // A fresh event id (where the provider has one) so each mutation is applied, not a duplicate.
            const mutated = replaced(event, path, replacement) as Record<string, unknown>
            if (typeof mutated.id === 'string' && path[0] !== 'id') mutated.id = `${mutated.id}_${n}`
            if (typeof mutated.event_id === 'string' && path[0] !== 'event_id') mutated.event_id = `${mutated.event_id}_${n}`
            const response = await scenario.deliver(handler, mutated, clock)
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
            expect([200, 400], `${path.join('.')} = ${JSON.stringify(replacement)}: ${await response.clone().text()}`).toContain(response.status)
          }
        }
      }
      expect(statuses.get(200)).toBeGreaterThan(0)
      expect(statuses.get(400)).toBeGreaterThan(0)
    }, 60_000)
  }
})
