// No signed body makes a provider handler answer 500: every field of every scenario event, in turn
// replaced by null, text, a negative, a huge number, an object or an array, answers 200 or 400.
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
      for (const event of allEvents(scenario)) {
        for (const path of paths(event)) {
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
